"""Chapter 12 from triton: the staged tile transform with tl.range(num_stages=1..4), beside
the C++ chapter's copy, sync_staged and pipelined kernels, and what triton compiled the loads to.

    python3 python/ch12_triton_stages.py [--mib 400] [--work 4] [--tile-kib 8] [--per-sm 8]
                                         [--reps 10] [--cpp-reps 3] [--build-dir build/release]

The computation is chapters/12_async_copies/stencil.cuh's: the input is cut into tiles of
--tile-kib (8 KiB: 2048 floats); out[i] = fmaf(0.25f, left + right, 0.5f * in[i]) with left
and right i's neighbours inside its tile (wrapping at the tile's ends), then --work times
v = fmaf(v, 0.999f, 0.001f). Here every tile is whole (--mib MiB is a multiple of any tile).

1. One triton kernel, persistent: --per-sm x SMs programs of 8 warps (256 threads, as the
   chapter's 8/SM point), each walking tiles pid, pid + programs, ... in
   `for t in tl.range(pid, tiles, programs, num_stages=S)`. triton's docs (triton.language.range):
   num_stages on tl.range "tries to pipeline most (though not all) loads in this loop",
   unlike the kernel's num_stages argument, which pipelines only loads that feed a dot.
   Each tile: three tl.load (the element, its left and its right neighbour), the FMAs, one tl.store.
2. The check: the output is poisoned (NaN), then compared bit for bit with a torch
   reference (float64 with round-to-odd, then rounded to float32: exactly fmaf), itself
   checked at sampled indices against a CPU reference in exact rational arithmetic;
   again after timing.
3. Times: torch.cuda.Event pairs back to back, the median of --reps; GB/s = 2 x 4 x n bytes / time,
   beside the C++ chapter (ch12_async_copies --json, same --mib/--work/--tile-kib, run first):
   its cudaMemcpyAsync device-to-device copy, sync_staged and pipeline/tma x S at the same
   blocks per SM, and its best pipelined row; torch's own x.copy_ as PyTorch's copy.
4. The PTX triton generated for each num_stages (CompiledKernel.asm["ptx"]): static counts of
   cp.async (Ampere's async copy), cp.async.bulk (Hopper's TMA), ld.global, ld.shared, and the
   shared memory and registers each program takes.
Exit codes: 0 ok, 1 a wrong result, 2 a bad command line, 77 no GPU, PyTorch or triton (the reason is printed).
"""
import argparse
import math
import random
import re
import struct
import sys
from fractions import Fraction

import lab_chapters

STAGES = (1, 2, 3, 4)
NUM_WARPS = 8  # 256 threads: the chapter's threads at its 8/SM point
COPY_ROW = "cudaMemcpyAsync device to device"

_kernel = None


def staged_kernel():
    """The triton kernel, defined on first use (so that this module imports without triton)."""
    global _kernel
    if _kernel is not None:
        return _kernel
    import triton
    import triton.language as tl

    @triton.jit
    def ch12_staged(in_ptr, out_ptr, tiles, TILE: tl.constexpr, WORK: tl.constexpr, STAGES: tl.constexpr):
        pid = tl.program_id(0)
        programs = tl.num_programs(0)
        j = tl.arange(0, TILE)
        left_j = (j + (TILE - 1)) % TILE  # the tile-local neighbours, wrapping (TILE is a power of two)
        right_j = (j + 1) % TILE
        for t in tl.range(pid, tiles, programs, num_stages=STAGES):
            start = t.to(tl.int64) * TILE
            base = in_ptr + start
            c = tl.load(base + j)
            left = tl.load(base + left_j)
            right = tl.load(base + right_j)
            v = tl.fma(left + right, 0.25, 0.5 * c)  # fmaf(0.25f, left + right, 0.5f * c): both products exact
            for _ in tl.static_range(WORK):
                v = tl.fma(v, 0.999, 0.001)
            tl.store(out_ptr + start + j, v)

    _kernel = ch12_staged
    return _kernel


# --- the reference -------------------------------------------------------------------------

def _f32(x):
    """@x rounded to the nearest float32 (as a Python float)."""
    return struct.unpack("f", struct.pack("f", x))[0]


def round_f32(q):
    """The float32 nearest the rational @q, ties to even: exact, no double rounding."""
    g = _f32(float(q))  # within one float32 step of the answer
    _, e = math.frexp(g) if g else (0.0, -125)
    step = 2.0 ** (e - 24)
    candidates = {x for x in (g - step, g - step / 2, g, g + step / 2, g + step) if _f32(x) == x}

    def key(x):
        bits = struct.unpack("<I", struct.pack("<f", x))[0]
        return abs(Fraction(x) - q), bits & 1
    return min(candidates, key=key)


B32 = _f32(0.999)  # 0.999f (the float nearest 0.999, checked by the tests)
C32 = _f32(0.001)  # 0.001f


def point_exact(left, c, right, work):
    """stencil.cuh's stencil_point in exact rational arithmetic, each fmaf rounded once."""
    s = round_f32(Fraction(left) + Fraction(right))
    v = round_f32(Fraction(1, 4) * Fraction(s) + Fraction(1, 2) * Fraction(c))
    for _ in range(work):
        v = round_f32(Fraction(v) * Fraction(B32) + Fraction(C32))
    return v


def fma_f32(v, b, c):
    """fmaf(v, b, c) for a float32 tensor @v and Python floats @b, @c (float32 values):
    v * b is exact in float64 (24 + 24 bits), the sum is rounded to odd (TwoSum gives its
    exact error), and rounding that to float32 is then exactly fmaf's (53 >= 24 + 2 bits)."""
    import torch

    p = v.double() * b
    s = p + c
    z = s - p
    err = (p - (s - z)) + (c - z)  # p + c == s + err exactly
    even = (s.view(torch.int64) & 1) == 0
    toward = torch.where(err > 0, s.new_tensor(math.inf), s.new_tensor(-math.inf))
    s = torch.where((err != 0) & even, torch.nextafter(s, toward), s)
    return s.float()


def reference(x, tile, work, chunk_floats=1 << 24):
    """The whole output of stencil.cuh for float32 tensor @x (any device), in whole tiles of @tile."""
    import torch

    out = torch.empty_like(x)
    rows, out_rows = x.view(-1, tile), out.view(-1, tile)
    per_chunk = max(1, chunk_floats // tile)
    for r in range(0, rows.shape[0], per_chunk):
        block = rows[r:r + per_chunk]
        left, right = torch.roll(block, 1, dims=1), torch.roll(block, -1, dims=1)
        v = (left + right) * 0.25 + block * 0.5  # float32; both products exact, so one rounding: fmaf's
        for _ in range(work):
            v = fma_f32(v, B32, C32)
        out_rows[r:r + per_chunk] = v
    return out


def sample_indices(n, tile, count=512, seed=1):
    """Indices to check exactly on the CPU: the first and last tile's ends and middles, and @count random ones."""
    rng = random.Random(seed)
    fixed = [0, 1, tile // 2, tile - 2, tile - 1, tile, n - tile, n - tile + 1, n - 2, n - 1]
    return sorted({i for i in fixed if 0 <= i < n} | {rng.randrange(n) for _ in range(count)})


def cpu_check(x, out, tile, work, indices):
    """How many of @indices of @out differ from the exact CPU reference (bits, not values)."""
    import torch

    idx = torch.tensor(indices, dtype=torch.int64)
    start = idx // tile * tile
    j = idx - start
    gather = torch.cat([idx, start + (j + tile - 1) % tile, start + (j + 1) % tile]).to(x.device)
    values = x[gather].cpu().tolist()
    k = len(indices)
    got = out[idx.to(out.device)].cpu().tolist()
    wrong = 0
    for i in range(k):
        expected = point_exact(values[k + i], values[i], values[2 * k + i], work)
        wrong += int(struct.pack("<f", expected) != struct.pack("<f", got[i]))
    return wrong


def mismatches(out, ref):
    """Elements of @out whose bits differ from @ref's (NaN, the poison, always differs)."""
    import torch

    return int((out.view(torch.int32) != ref.view(torch.int32)).sum().item())


# --- the PTX -------------------------------------------------------------------------------

PTX_COLUMNS = ("cp.async", "cp.async.bulk", "ld.global", "ld.shared", "ldmatrix", "st.global")


def count_ptx(ptx):
    """Static instruction counts in PTX text (predicates, comments and inline-asm braces stripped):
    cp.async copies (not their commit/wait), cp.async.bulk copies (TMA; not their commit/wait),
    ld.global, ld.shared and ldmatrix (reads of shared memory), st.global."""
    counts = dict.fromkeys(PTX_COLUMNS, 0)
    for line in ptx.splitlines():
        for statement in line.split("//")[0].split(";"):
            text = re.sub(r"^[\s{}]*(@!?%\w+\s+)?", "", statement).strip()
            op = text.split(None, 1)[0] if text else ""
            if not op:
                continue
            if op.startswith("cp.async.bulk"):
                if "commit_group" not in op and "wait_group" not in op and "prefetch" not in op:
                    counts["cp.async.bulk"] += 1
            elif op.startswith("cp.async.") and op.split(".")[2] in ("ca", "cg"):
                counts["cp.async"] += 1
            else:
                for column in ("ld.global", "ld.shared", "ldmatrix", "st.global"):
                    if op.startswith(column):
                        counts[column] += 1
    return counts


def compiled_info(compiled):
    """(PTX counts, shared bytes, registers) of a triton CompiledKernel; None where not found."""
    ptx = compiled.asm.get("ptx", "") if hasattr(compiled, "asm") else ""
    metadata = getattr(compiled, "metadata", None)
    shared = getattr(metadata, "shared", None)
    regs = getattr(compiled, "n_regs", None)
    return (count_ptx(ptx) if ptx else None), shared, regs


# --- the measurement -----------------------------------------------------------------------

def measure(mib, work, tile_kib, per_sm, reps, stages=STAGES, seed=1):
    """Runs the triton kernel at each of @stages on --mib MiB; returns a dict:
    n, programs, copy (torch's x.copy_: ms, gbps, wrong), rows[S] = {ms, gbps, wrong (GPU reference),
    wrong_after (after timing), cpu_wrong (sampled, exact), ptx, shared, regs, resident}, reference_cpu_wrong."""
    import torch

    kernel = staged_kernel()
    tile = tile_kib * 1024 // 4
    n = mib * (1 << 20) // 4
    tiles = n // tile
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    programs = min(tiles, sms * per_sm)
    gen = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.rand(n, device="cuda", generator=gen) * 2 - 1  # [-1, 1), as the chapter's |inputs| <= 1
    out = torch.empty_like(x)
    ref = reference(x, tile, work)
    indices = sample_indices(n, tile, seed=seed)
    result = {"n": n, "tile": tile, "programs": programs, "sms": sms, "rows": {},
              "reference_cpu_wrong": cpu_check(x, ref, tile, work, indices)}
    bytes_moved = 2 * 4 * n

    out.fill_(float("nan"))
    times = lab_chapters.event_times_ms(lambda: out.copy_(x), reps, warmup=2)
    ms = lab_chapters.median(times)
    result["copy"] = {"ms": ms, "gbps": bytes_moved / ms / 1e6, "wrong": int((out != x).sum().item())}

    for s in stages:
        def launch():
            return kernel[(programs,)](x, out, tiles, TILE=tile, WORK=work, STAGES=s, num_warps=NUM_WARPS)
        out.fill_(float("nan"))
        compiled = launch()
        torch.cuda.synchronize()
        wrong = mismatches(out, ref)
        cpu_wrong = cpu_check(x, out, tile, work, indices)
        times = lab_chapters.event_times_ms(launch, reps, warmup=2)
        ms = lab_chapters.median(times)
        counts, shared, regs = compiled_info(compiled)
        result["rows"][s] = {"ms": ms, "gbps": bytes_moved / ms / 1e6, "wrong": wrong, "cpu_wrong": cpu_wrong,
                             "wrong_after": mismatches(out, ref), "ptx": counts, "shared": shared, "regs": regs,
                             "resident": resident_per_sm(shared, regs, torch.cuda.get_device_properties(0))}
    return result


def resident_per_sm(shared, regs, props):
    """Programs of NUM_WARPS warps an SM can hold at once, from the shared memory and registers one
    takes (1 KiB of shared memory reserved per block, registers allocated 8 per thread at a time);
    None when triton did not say. An estimate: the occupancy calculator's limits, not a measurement."""
    if shared is None:
        return None
    threads = 32 * NUM_WARPS
    limits = [getattr(props, "max_threads_per_multi_processor", 2048) // threads, 32]
    limits.append(getattr(props, "shared_memory_per_multiprocessor", 228 * 1024) // (shared + 1024))
    if regs:
        limits.append(getattr(props, "regs_per_multiprocessor", 65536) // ((regs + 7) // 8 * 8 * threads))
    return min(limits)


def cpp_rows(report, work, per_sm):
    """From the C++ chapter's report: copy GB/s, sync_staged GB/s at --per-sm, pipeline/tma x S GB/s
    at --per-sm, and its best pipelined stage_sweep row (name, GB/s). Missing values are None."""
    def gbps(table, name):
        row = lab_chapters.find_row(report, table, name)
        return row["gbps"] if row else None
    point = f"@ {per_sm}/SM, w{work}"
    rows = {"copy": gbps("copy", COPY_ROW), "sync_staged": gbps("stage_sweep", f"sync_staged {point}"),
            "pipeline": {s: gbps("stage_sweep", f"pipeline x{s} {point}") for s in STAGES},
            "tma": {s: gbps("stage_sweep", f"tma x{s} {point}") for s in STAGES}, "best": None}
    if report is not None:
        pipelined = [r for r in report["results"] if r.get("table_id") == "stage_sweep"
                     and r.get("version") in ("pipeline", "tma") and "gbps" in r]
        if pipelined:
            best = max(pipelined, key=lambda r: r["gbps"])
            rows["best"] = (best["name"], best["gbps"])
    return rows


def verdict(triton_gbps, copy_gbps, sync_gbps=None, copy_label="the C++ copy"):
    """Lines that read the numbers: @triton_gbps {num_stages: GB/s}; @copy_gbps the copy's GB/s
    (C++, else torch's); @sync_gbps the C++ sync_staged's (None: not measured)."""
    best = max(triton_gbps, key=triton_gbps.get)
    lines = [f"fastest triton: num_stages={best}, {triton_gbps[best]:.0f} GB/s, "
             f"{triton_gbps[best] / copy_gbps * 100:.1f} % of {copy_label} ({copy_gbps:.0f} GB/s)"]
    if 1 in triton_gbps and best != 1:
        lines.append(f"pipelining: num_stages={best} is {triton_gbps[best] / triton_gbps[1]:.2f}x num_stages=1")
    elif 1 in triton_gbps:
        lines.append("pipelining: no num_stages above 1 was faster than num_stages=1")
    if sync_gbps:
        ratio = triton_gbps[best] / sync_gbps
        lines.append(f"against the C++ sync_staged ({sync_gbps:.0f} GB/s): {ratio:.2f}x "
                     f"({'faster' if ratio > 1 else 'not faster'})")
    return lines


def ptx_verdict(counts_by_stage):
    """One line per num_stages: did the loads become cp.async / TMA copies, or stay ld.global?"""
    lines = []
    for s, counts in counts_by_stage.items():
        if counts is None:
            lines.append(f"num_stages={s}: no PTX found")
        elif counts["cp.async.bulk"]:
            lines.append(f"num_stages={s}: TMA (cp.async.bulk) copies into shared memory")
        elif counts["cp.async"]:
            lines.append(f"num_stages={s}: the loads became cp.async into shared memory "
                         f"({counts['ld.global']} ld.global left)")
        else:
            lines.append(f"num_stages={s}: no async copy: the loads stayed ld.global ({counts['ld.global']})")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=int, default=400, help="MiB per buffer, input and output (default 400)")
    parser.add_argument("--work", type=int, default=4, help="FMAs per element (default 4, at most 256)")
    parser.add_argument("--tile-kib", type=int, default=8, help="KiB per tile: 1, 2, 4, 8, 16 or 32 (default 8)")
    parser.add_argument("--per-sm", type=int, default=8, help="programs per SM (default 8, as the chapter's 8/SM)")
    parser.add_argument("--reps", type=int, default=10, help="timed runs per num_stages (default 10)")
    parser.add_argument("--cpp-reps", type=int, default=3, help="--reps for the C++ chapter (default 3)")
    parser.add_argument("--build-dir", help="the C++ build tree (default: $BUILD_DIR, build/gpu-check, build/release)")
    args = parser.parse_args(argv)
    if not (1 <= args.mib <= 8192 and 0 <= args.work <= 256 and args.tile_kib in (1, 2, 4, 8, 16, 32)
            and 1 <= args.per_sm <= 32 and args.reps >= 1 and args.cpp_reps >= 1):
        parser.error("need 1 <= --mib <= 8192, 0 <= --work <= 256, --tile-kib in 1, 2, 4, 8, 16, 32, "
                     "1 <= --per-sm <= 32, --reps >= 1, --cpp-reps >= 1")
    reason = lab_chapters.no_gpu_reason()
    if reason:
        print(f"skipped: {reason}")
        return 77
    try:
        import triton
    except ImportError:
        print("skipped: triton is not installed")
        return 77

    report = lab_chapters.run_chapter(
        "ch12_async_copies", ["--mib", str(args.mib), "--work", str(args.work), "--max-work", str(args.work),
                              "--tile-kib", str(args.tile_kib), "--reps", str(args.cpp_reps)],
        lab_chapters.find_build_dir(args.build_dir))
    cpp = cpp_rows(report, args.work, args.per_sm)
    r = measure(args.mib, args.work, args.tile_kib, args.per_sm, args.reps)
    rows = r["rows"]

    print(f"1. triton {triton.__version__}: {r['n']} floats ({args.mib} MiB per buffer), tiles of {r['tile']} floats, "
          f"work {args.work}; {r['programs']} programs ({args.per_sm} per SM x {r['sms']} SMs) of {NUM_WARPS} warps")
    print("\n2. Checks (bits, the output poisoned with NaN before each first run)")
    print(f"  torch reference vs exact CPU at {len(sample_indices(r['n'], r['tile']))} sampled indices: "
          f"{r['reference_cpu_wrong']} wrong")
    print(f"  torch x.copy_: {r['copy']['wrong']} wrong")
    for s, row in rows.items():
        print(f"  num_stages={s}: {row['wrong']} wrong of {r['n']} against the reference, {row['cpu_wrong']} at the "
              f"sampled indices against the CPU, {row['wrong_after']} after timing")

    pairs = [("copy (torch x.copy_ | cudaMemcpyAsync DtoD)", r["copy"]["gbps"], cpp["copy"])]
    for s, row in rows.items():
        pairs.append((f"num_stages={s} | pipeline x{s} @ {args.per_sm}/SM", row["gbps"], cpp["pipeline"][s]))
    for s, row in rows.items():
        pairs.append((f"num_stages={s} | tma x{s} @ {args.per_sm}/SM", row["gbps"], cpp["tma"][s]))
    lab_chapters.side_by_side(f"3. GB/s (2 x 4 x n bytes / event time, median of {args.reps}; "
                              f"C++ median of {args.cpp_reps})", pairs, "GB/s", label="triton", width=46)
    show = (lambda v: f"{v:.0f} GB/s" if v else "-")
    print(f"  C++ sync_staged @ {args.per_sm}/SM, w{args.work}: {show(cpp['sync_staged'])}; "
          f"C++ best pipelined: {cpp['best'][0] + ', ' + show(cpp['best'][1]) if cpp['best'] else '-'}")
    copy_gbps, copy_label = (cpp["copy"], "the C++ copy") if cpp["copy"] else (r["copy"]["gbps"], "torch's copy")
    for line in verdict({s: row["gbps"] for s, row in rows.items()}, copy_gbps, cpp["sync_staged"], copy_label):
        print(f"  {line}")

    print("\n4. What triton compiled (static counts in CompiledKernel.asm['ptx'])")
    print(f"  {'num_stages':>10s} " + " ".join(f"{c:>13s}" for c in PTX_COLUMNS)
          + f" {'shared B':>9s} {'regs':>5s} {'resident/SM':>11s}")
    for s, row in rows.items():
        counts = row["ptx"] or {}
        print(f"  {s:>10d} " + " ".join(f"{counts.get(c, '-'):>13}" for c in PTX_COLUMNS)
              + f" {str(row['shared']):>9s} {str(row['regs']):>5s} {str(row['resident']):>11s}")
    print(f"  (instructions in the code, not executed counts; resident/SM: an estimate from shared memory and "
          f"registers, against {args.per_sm} programs per SM launched)")
    for line in ptx_verdict({s: row["ptx"] for s, row in rows.items()}):
        print(f"  {line}")

    bad = r["reference_cpu_wrong"] + r["copy"]["wrong"] + sum(
        row["wrong"] + row["cpu_wrong"] + row["wrong_after"] for row in rows.values())
    if bad:
        print(f"FAILED: {bad} wrong values (see 2.)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
