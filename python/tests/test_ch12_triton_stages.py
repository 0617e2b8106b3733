"""python/ch12_triton_stages.py: the reference is fmaf's bit for bit, the check sees the poison
and a missing FMA, every num_stages gives the reference's bits, the PTX counts and what they
say, the verdict follows the numbers, the output and the exit codes (never exact timings)."""
import struct
from fractions import Fraction

import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="PyTorch sees no CUDA GPU")
pytest.importorskip("triton")

import ch12_triton_stages as script  # noqa: E402  (after the skip: it uses torch)


def bits(x):
    return struct.pack("<f", x)


def test_ch12_triton_constants_are_the_chapters_floats():
    # 0.999f and 0.001f: the floats nearest the decimals, as a C++ compiler reads them.
    assert bits(script.round_f32(Fraction("0.999"))) == bits(script.B32)
    assert bits(script.round_f32(Fraction("0.001"))) == bits(script.C32)
    # round_f32 rounds once: a value just above a float32 midpoint goes up, the midpoint itself to even.
    one = Fraction(1)
    step = Fraction(1, 2 ** 23)
    assert script.round_f32(one + step / 2) == 1.0  # tie: to even (1.0)
    assert script.round_f32(one + step / 2 + Fraction(1, 2 ** 60)) == float(one + step)


def test_ch12_triton_reference_equals_the_exact_cpu_everywhere_on_a_small_input():
    tile, work = 64, 4
    gen = torch.Generator(device="cuda").manual_seed(3)
    x = torch.rand(tile * 6, device="cuda", generator=gen) * 2 - 1
    ref = script.reference(x, tile, work, chunk_floats=tile * 2)  # several chunks
    assert script.cpu_check(x, ref, tile, work, list(range(x.numel()))) == 0
    on_cpu = script.reference(x.cpu(), tile, work)  # the same ops on the CPU: the same bits
    assert torch.equal(on_cpu.view(torch.int32), ref.cpu().view(torch.int32))


def test_ch12_triton_the_check_sees_the_poison_and_a_missing_fma():
    tile = 64
    x = torch.rand(tile * 4, device="cuda") * 2 - 1
    ref = script.reference(x, tile, 4)
    poisoned = torch.full_like(x, float("nan"))
    assert script.mismatches(poisoned, ref) == x.numel()
    short = script.reference(x, tile, 3)  # one FMA short
    assert script.mismatches(short, ref) > 0
    assert script.cpu_check(x, short, tile, 4, list(range(tile))) > 0
    assert script.mismatches(ref.clone(), ref) == 0


def test_ch12_triton_count_ptx_counts_copies_not_their_waits():
    ptx = "\n".join([
        "\t@%p1 cp.async.cg.shared.global [ %r1 + 0 ], [ %rd1 + 0 ], 0x10, %r2;",
        "\tcp.async.ca.shared.global [ %r3 + 0 ], [ %rd2 + 0 ], 0x4, %r4;",
        "\tcp.async.commit_group;",
        "\tcp.async.wait_group 1;",
        "\t{ cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes [%r5], [%rd3, {%r6}], [%r7]; }",
        "\tcp.async.bulk.commit_group;",
        "\t@!%p2 ld.global.v4.b32 { %r8, %r9, %r10, %r11 }, [ %rd4 + 0 ];",
        "\tld.global.b32 %r12, [ %rd5 + 0 ];  // ld.global in a comment is not counted",
        "\tld.shared.v4.b32 { %r13, %r14, %r15, %r16 }, [ %r17 + 0 ];",
        "\tldmatrix.sync.aligned.m8n8.x4.shared.b16 { %r18, %r19, %r20, %r21 }, [ %r22 + 0 ];",
        "\tst.global.v4.b32 [ %rd6 + 0 ], { %r8, %r9, %r10, %r11 };",
    ])
    assert script.count_ptx(ptx) == {"cp.async": 2, "cp.async.bulk": 1, "ld.global": 2, "ld.shared": 1,
                                      "ldmatrix": 1, "st.global": 1}


def test_ch12_triton_every_num_stages_gives_the_references_bits_and_its_ptx():
    r = script.measure(mib=4, work=4, tile_kib=8, per_sm=2, reps=2)
    assert r["reference_cpu_wrong"] == 0 and r["copy"]["wrong"] == 0
    assert sorted(r["rows"]) == list(script.STAGES)
    for s, row in r["rows"].items():
        assert row["wrong"] == 0 and row["cpu_wrong"] == 0 and row["wrong_after"] == 0, s
        assert row["gbps"] > 0 and row["ptx"] is not None, s
        assert row["ptx"]["st.global"] > 0, s
    one = r["rows"][1]["ptx"]
    assert one["ld.global"] > 0 and one["cp.async"] == 0  # num_stages=1: no pipelining, plain loads
    for s in (2, 3, 4):  # triton 3.6 for sm_90: the tile loop's loads become cp.async into shared memory
        counts = r["rows"][s]["ptx"]
        assert counts["cp.async"] + counts["cp.async.bulk"] > 0, (s, counts)
    shared = [r["rows"][s]["shared"] for s in script.STAGES]
    assert shared == sorted(shared) and shared[-1] > shared[0], shared  # more stages, more buffers


def test_ch12_triton_verdict_follows_the_numbers():
    lines = script.verdict({1: 2000.0, 2: 2500.0, 3: 2400.0, 4: 2300.0}, 3000.0, 2800.0)
    assert lines[0].startswith("fastest triton: num_stages=2, 2500 GB/s, 83.3 % of the C++ copy")
    assert "num_stages=2 is 1.25x num_stages=1" in lines[1]
    assert "0.89x (not faster)" in lines[2]
    lines = script.verdict({1: 2900.0, 2: 2500.0}, 3000.0, None, "torch's copy")
    assert "num_stages=1" in lines[0] and "torch's copy" in lines[0]
    assert "no num_stages above 1 was faster" in lines[1] and len(lines) == 2
    ptx = script.ptx_verdict({1: dict.fromkeys(script.PTX_COLUMNS, 0) | {"ld.global": 18},
                              2: dict.fromkeys(script.PTX_COLUMNS, 0) | {"cp.async": 36}, 3: None})
    assert "stayed ld.global (18)" in ptx[0] and "became cp.async" in ptx[1] and "no PTX" in ptx[2]


def test_ch12_triton_main_prints_every_stage_and_exits_0(capsys):
    assert script.main(["--mib", "8", "--reps", "2", "--cpp-reps", "1", "--per-sm", "4"]) == 0
    out = capsys.readouterr().out
    for s in script.STAGES:
        assert f"num_stages={s}: 0 wrong of 2097152 against the reference" in out, s
        assert f"num_stages={s} | pipeline x{s} @ 4/SM" in out, s
    assert "fastest triton: num_stages=" in out
    assert "cp.async.bulk" in out and "resident/SM" in out


@pytest.mark.parametrize("argv", [["--tile-kib", "3"], ["--mib", "0"], ["--work", "-1"], ["--reps", "0"],
                                  ["--per-sm", "0"], ["--mib", "4x"]])
def test_ch12_triton_bad_command_line_exits_2(argv):
    with pytest.raises(SystemExit) as exit_info:
        script.main(argv)
    assert exit_info.value.code == 2
