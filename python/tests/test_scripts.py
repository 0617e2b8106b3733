"""The PyTorch scripts' large effects, each a ratio or a count from the same run
(exact timings belong on the pages, not in tests)."""
import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="PyTorch sees no CUDA GPU")

import ch01_add_extension  # noqa: E402  (after the skip: they use torch)
import ch02_host_timers  # noqa: E402
import ch04_streams  # noqa: E402
import ch06_pinned_memory  # noqa: E402
import ch07_l2_flush  # noqa: E402
import lab_chapters  # noqa: E402


def test_ch01_every_kernel_is_correct_before_and_after_timing(lab_add):
    for row in ch01_add_extension.measure(lab_add, 1 << 20, samples=3):
        assert row["wrong_first"] == 0 and row["wrong_after"] == 0, row["name"]


def test_ch02_sync_after_only_first_reading_holds_the_backlog():
    results = ch02_host_timers.measure(1 << 20, runs=5, backlog_ms=20.0)
    # The first reading waited for the 20 ms backlog; with a sync before, it did not.
    assert results["sync after only"][0] > 10.0
    assert results["sync before and after"][0] < 5.0
    # Without a sync after, the timer holds only the launch call: far less than the backlog.
    assert lab_chapters.median(results["no sync"]) < 5.0


def test_ch04_race_without_wait_stream_and_none_with_it():
    assert ch04_streams.race(runs=5, delay_ms=5.0, wait=False) >= 4  # the consumer ran first (nearly) every time
    assert ch04_streams.race(runs=5, delay_ms=5.0, wait=True) == 0


def test_ch04_record_stream_keeps_the_memory_until_the_side_stream_is_done():
    _, wrong_with = ch04_streams.freed_while_in_use(record=True)
    assert wrong_with == 0


def test_ch04_ten_streams_are_correct():
    _, error = ch04_streams.normalise(arrays=4, n=1 << 20, streams=4, reps=2)
    assert error <= 1e-5


def test_ch06_pinned_non_blocking_returns_before_the_copy_is_done():
    rows, copy_ms, _ = ch06_pinned_memory.measure(mib=64, reps=3)
    returned, done = rows[("pinned", True)]
    assert lab_chapters.median(returned) < lab_chapters.median(done) / 10
    # From pageable memory the call holds the host for most of the copy.
    returned, done = rows[("pageable", False)]
    assert lab_chapters.median(returned) > lab_chapters.median(done) / 2


@pytest.mark.parametrize("count, expected", [("64Mi", 64 << 20), ("1000003", 1000003), ("4Ki", 4096)])
def test_parse_count(count, expected):
    assert lab_chapters.parse_count(count) == expected


def test_ch07_the_spin_hides_the_launch_gap_and_evicts_nothing():
    times = ch07_l2_flush.measure(samples=10, rows=1024)
    median = lab_chapters.median
    # An idle pair holds the host's launch of F.linear; a spin queued before it does not.
    assert median(times["nothing"]) > median(times["0.1 ms spin"])


def test_ch07_cache_finding_says_whether_the_weight_fits():
    assert "fits in the 50 MiB L2" in ch07_l2_flush.cache_finding(1024, 50 << 20, 1.3)
    assert "+30 %" in ch07_l2_flush.cache_finding(1024, 50 << 20, 1.3)
    assert "is larger than the 50 MiB L2" in ch07_l2_flush.cache_finding(5120, 50 << 20, 0.98)


@pytest.mark.parametrize("l2_mib, expected", [
    (50, (5120, 1024)),  # H100: the article's two weights make their case
    (60, (5120, 1024)),  # H200: 80 MiB is 1.33 times the L2, 16 MiB under half of it
    (72, (9216, 1024)),  # RTX 4090: 80 MiB would be only 1.1 times the L2
    (6, (5120, 96)),  # RTX 3090: 16 MiB would not fit
])
def test_ch07_weights_make_their_case_on_any_l2(l2_mib, expected):
    large, small = ch07_l2_flush.weight_rows(l2_mib << 20)
    assert (large, small) == expected
    assert large * ch07_l2_flush.ROW_BYTES >= 1.25 * (l2_mib << 20)
    assert small * ch07_l2_flush.ROW_BYTES <= (l2_mib << 20) / 2
