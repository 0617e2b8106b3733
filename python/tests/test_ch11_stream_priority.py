"""python/ch11_stream_priority.py: the priorities PyTorch gives its streams, the urgent op's
answer in every case, the check itself, the greatest priority's large effect against equal
priority, the output and the exit codes (ratios and counts, never exact timings)."""
import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="PyTorch sees no CUDA GPU")

import ch11_stream_priority as script  # noqa: E402  (after the skip: it uses torch)
import lab_chapters  # noqa: E402


def test_ch11_streams_get_the_least_and_the_greatest_priority():
    bench = script.Bench(mib=16, n=1024)
    assert bench.least == 0 and bench.greatest < bench.least  # lower is greater
    priorities = bench.priorities()
    assert priorities["long op"] == bench.least
    assert priorities["equal_priority"] == bench.least
    assert priorities["greatest_priority"] == bench.greatest
    assert bench.streams["equal_priority"].cuda_stream != bench.low.cuda_stream


def test_ch11_every_case_gives_the_cpus_answer():
    results = script.measure(mib=64, n=4096, samples=2)
    assert results["long_wrong"] == 0 and results["long_ops"] == 4 + 3 * 2  # time_long's 4, then 3 samples (1 untimed) x 2 loaded cases
    for case in script.CASES:
        assert results[case]["wrong"] == 0, case
        assert len(results[case]["event_us"]) == 2 and min(results[case]["event_us"]) > 0, case
        assert len(results[case]["ahead_us"]) == (0 if case == "idle" else 2), case


def test_ch11_the_check_sees_the_poison_and_a_missing_long_op():
    bench = script.Bench(mib=16, n=4096)
    bench.c.fill_(float("nan"))
    torch.cuda.synchronize()
    assert int((bench.c.cpu() != bench.expected).sum().item()) == 4096  # NaN everywhere: no add ran
    bench.queue_long()
    assert bench.long_wrong() == 0
    bench.long_ops += 1  # one x.add_(1) counted but never queued
    assert bench.long_wrong() == 16 << 18


def test_ch11_greatest_priority_finishes_the_urgent_op_far_sooner():
    results = script.measure(mib=1024, n=65536, samples=5)
    median = lab_chapters.median
    equal = median(results["equal_priority"]["event_us"])
    greatest = median(results["greatest_priority"]["event_us"])
    left = median(results["equal_priority"]["left_us"])
    assert left > 0  # the long op still ran when the urgent op was queued
    assert greatest < equal / 2, (greatest, equal)
    # Equal priority: the urgent op's blocks came after the long op's waiting ones.
    assert equal >= 0.5 * left, (equal, left)
    # The greatest priority: done while the long op still ran, well ahead of its end.
    assert results["greatest_priority"]["long_running"] >= 4  # of 5
    assert median(results["greatest_priority"]["ahead_us"]) > median(results["equal_priority"]["ahead_us"])
    assert all(results[case]["wrong"] == 0 for case in script.CASES) and results["long_wrong"] == 0


def test_ch11_main_prints_each_case_and_exits_0(capsys):
    assert script.main(["--mib", "256", "--n", "4096", "--samples", "2"]) == 0
    out = capsys.readouterr().out
    for case in script.CASES:
        assert f"  {case} " in out, case
        assert f"{case:18s} wrong values of c = a + b in 3 samples x 4096: 0" in out, case
    assert "priority_range() = (0, " in out
    assert "long op: elements not equal to the 10 x.add_(1) queued: 0" in out
    assert "greatest / equal: PyTorch " in out


@pytest.mark.parametrize("argv", [["--mib", "4096"], ["--mib", "8"], ["--samples", "0"], ["--at", "1.0"],
                                  ["--n", "3x"], ["--n", "0"]])
def test_ch11_bad_command_line_exits_2(argv):
    with pytest.raises(SystemExit) as exit_info:
        script.main(argv)
    assert exit_info.value.code == 2


def test_ch11_verdict_follows_the_numbers():
    lines = script.verdict(equal_us=1000.0, greatest_us=20.0, left_us=1100.0)
    assert "50.0 times sooner" in lines[0]
    assert "waited about as long as the long op had left" in lines[1]
    lines = script.verdict(equal_us=20.0, greatest_us=30.0, left_us=1000.0)
    assert "did not finish the urgent op sooner" in lines[0]
    assert "well under" in lines[1]
    assert "had ended before" in script.verdict(equal_us=20.0, greatest_us=10.0, left_us=-5.0)[1]
