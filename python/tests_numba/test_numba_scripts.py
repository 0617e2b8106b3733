"""The Numba scripts' correctness paths on small random inputs, and the large effects
that hold on a GPU (ratios, never exact timings). Under NUMBA_ENABLE_CUDASIM=1 the
kernels run on the CPU: the correctness tests run, the timing ones skip."""
import numpy as np
import pytest

import lab_chapters
import numba_lab

reason = numba_lab.unavailable_reason()
pytestmark = pytest.mark.skipif(reason is not None, reason=str(reason))
on_gpu = pytest.mark.skipif(numba_lab.simulator(), reason="timing claims need a GPU, not the simulator")

import numba_ch03_events  # noqa: E402  (after the skip: they use numba)
import numba_ch04_streams  # noqa: E402
import numba_ch06_pinned_memory  # noqa: E402

cuda = numba_lab.load() if reason is None else None  # a module global: the simulator swaps it in kernels


def test_the_patch_is_applied_only_when_the_probe_fails_on_row_stack():
    import numpy

    needed = numba_lab.row_stack_patch_needed()
    assert numba_lab.PATCHED == needed
    if needed:
        assert numpy.row_stack is numpy.vstack


def test_ch03_first_launch_and_later_are_correct():
    first = numba_ch03_events.first_and_later(3000, samples=2)
    assert first["wrong"] == 0
    assert len(first["later_ms"]) == 2


def test_ch03_a_broken_kernel_is_counted(monkeypatch):
    def make_broken():
        @cuda.jit
        def add(a, b, c):
            i = cuda.grid(1)
            if i < c.size - 1:  # leaves the last element unwritten
                c[i] = a[i] + b[i]
        return add

    monkeypatch.setattr(numba_ch03_events, "make_add", make_broken)
    _, wrong = numba_ch03_events.launch_gap(1000, samples=1)
    assert wrong >= 1
    assert numba_ch03_events.main(["--n", "1000", "--samples", "1", "--no-chapter"]) == 1


def test_ch03_main_is_correct_end_to_end(capsys):
    assert numba_ch03_events.main(["--n", "1000", "--samples", "1", "--no-chapter"]) == 0
    out = capsys.readouterr().out
    assert "wrong values against NumPy's a + b: 0" in out
    assert "start; copy; kernel; stop" in out


@pytest.mark.parametrize("streams", [1, 2])
def test_ch04_normalisation_matches_numpy(streams):
    _, error = numba_ch04_streams.normalise(arrays=2, n=1000, streams=streams, reps=1, blocks=2)
    assert error <= numba_ch04_streams.TOLERANCE


def test_ch04_a_wrong_sum_fails(monkeypatch):
    kernels = dict(numba_ch04_streams.init())

    @cuda.jit
    def divide_twice(a, total):
        for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
            a[i] = a[i] / (2 * total[0])

    kernels["divide"] = divide_twice
    monkeypatch.setattr(numba_ch04_streams, "init", lambda: kernels)
    _, error = numba_ch04_streams.normalise(arrays=1, n=500, streams=1, reps=1, blocks=1)
    assert error > numba_ch04_streams.TOLERANCE


def test_ch06_every_copy_arrives_exactly():
    rows, copy_ms, overlap = numba_ch06_pinned_memory.measure(mib=1, reps=1)
    assert set(rows) == {(m, s) for m, s, _, _ in numba_ch06_pinned_memory.WAYS}
    assert set(overlap) == {"pinned", "pageable"}


def test_ch06_a_wrong_copy_exits_1(monkeypatch, capsys):
    real = np.array_equal
    monkeypatch.setattr(numba_ch06_pinned_memory.np, "array_equal", lambda a, b: False)
    assert numba_ch06_pinned_memory.main(["--mib", "1", "--reps", "1", "--no-chapter"]) == 1
    monkeypatch.setattr(numba_ch06_pinned_memory.np, "array_equal", real)
    assert "FAILED: the pageable copy" in capsys.readouterr().out


@on_gpu
def test_ch03_the_first_launch_pays_the_compile():
    first = numba_ch03_events.first_and_later(1 << 20, samples=5)
    assert first["first_ms"] > 20 * lab_chapters.median(first["later_ms"])


@on_gpu
def test_ch04_ten_streams_are_not_slower():
    one, _ = numba_ch04_streams.normalise(arrays=4, n=1 << 22, streams=1, reps=3)
    four, _ = numba_ch04_streams.normalise(arrays=4, n=1 << 22, streams=4, reps=3)
    assert lab_chapters.median(four) < lab_chapters.median(one)


@on_gpu
def test_ch06_only_the_pinned_copy_on_a_stream_returns_at_once():
    rows, _, _ = numba_ch06_pinned_memory.measure(mib=64, reps=3)
    for (memory, on_stream), (returned, done) in rows.items():
        at_once = lab_chapters.median(returned) < lab_chapters.median(done) / 4  # 1/10 failed at 64 MiB on the H100
        assert at_once == (memory == "pinned" and on_stream), (memory, on_stream)
