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


def fake_pytorch(monkeypatch, reason=None):
    """PyTorch's column as if torch ran here (reason None) or could not (reason set)."""
    monkeypatch.setattr(lab_chapters, "no_gpu_reason", lambda: reason)
    monkeypatch.setattr(numba_lab, "pytorch_versions", lambda why: f"PyTorch column: fake ({why})")


def test_ch03_main_prints_pytorch_figures_from_the_same_run(monkeypatch, capsys):
    fake_pytorch(monkeypatch)
    figures = {"first": {"first_ms": 7.25, "later_ms": [0.5], "wrong": 0}, "linear": (111.125, [0.25]),
               "gap": {"back to back": [0.0225], "isolated": [0.0235]},
               "brackets": {name: [0.125] for name in ("start; copy; kernel; stop", "copy; start; kernel; stop",
                                                       "start; copy; stop")}}
    calls = []
    monkeypatch.setattr(numba_ch03_events, "pytorch_figures", lambda n, samples: calls.append(n) or figures)
    assert numba_ch03_events.main(["--n", "1000", "--samples", "1", "--no-chapter"]) == 0
    out = capsys.readouterr().out
    assert calls == [1000]
    assert "111.125" in out and "22.500" in out and "125.000" in out
    assert "PyTorch column skipped" not in out
    figures["first"]["wrong"] = 1  # PyTorch's add checked too
    assert numba_ch03_events.main(["--n", "1000", "--samples", "1", "--no-chapter"]) == 1


@pytest.mark.parametrize("script, args", [
    (numba_ch03_events, ["--n", "1000", "--samples", "1"]),
    (numba_ch04_streams, ["--arrays", "2", "--n", "500", "--reps", "1", "--blocks", "2"]),
    (numba_ch06_pinned_memory, ["--mib", "1", "--reps", "1"])])
def test_without_pytorch_each_table_says_its_column_was_skipped(monkeypatch, capsys, script, args):
    fake_pytorch(monkeypatch, "PyTorch is not installed")
    assert script.main(args + ["--no-chapter"]) == 0
    out = capsys.readouterr().out
    tables = out.count("  (ms;") + out.count("  (us;")
    assert tables >= 1 and out.count("PyTorch column skipped: PyTorch is not installed") == tables
    assert script.main(args + ["--no-chapter", "--no-pytorch"]) == 0
    assert "PyTorch column skipped: --no-pytorch given" in capsys.readouterr().out


def test_ch04_a_wrong_pytorch_normalisation_fails(monkeypatch, capsys):
    import ch04_streams

    fake_pytorch(monkeypatch)
    monkeypatch.setattr(ch04_streams, "normalise", lambda arrays, n, streams, reps: ([4.0 / streams], 1e-3))
    args = ["--arrays", "2", "--n", "500", "--reps", "1", "--blocks", "2", "--no-chapter"]
    assert numba_ch04_streams.main(args) == 1
    assert "PyTorch: 2.00 times faster with 2 streams" in capsys.readouterr().out
    monkeypatch.setattr(ch04_streams, "normalise", lambda arrays, n, streams, reps: ([4.0], 0.0))
    assert numba_ch04_streams.main(args) == 0


def test_ch06_a_wrong_pytorch_copy_exits_1(monkeypatch, capsys):
    import ch06_pinned_memory

    fake_pytorch(monkeypatch)

    def wrong(mib, reps):
        raise RuntimeError("the pinned copy arrived wrong")

    monkeypatch.setattr(ch06_pinned_memory, "measure", wrong)
    assert numba_ch06_pinned_memory.main(["--mib", "1", "--reps", "1", "--no-chapter"]) == 1
    assert "FAILED: the pinned copy arrived wrong" in capsys.readouterr().out


def test_ch06_main_prints_pytorch_figures_from_the_same_run(monkeypatch, capsys):
    import ch06_pinned_memory

    fake_pytorch(monkeypatch)
    rows = {("pageable", False): ([30.125], [31.0]), ("pageable", True): ([32.0], [33.0]),
            ("pinned", False): ([5.0], [5.1]), ("pinned", True): ([0.0625], [5.2])}
    monkeypatch.setattr(ch06_pinned_memory, "measure", lambda mib, reps: (rows, 5.2, {"pinned": 5.375,
                                                                                      "pageable": 40.0}))
    assert numba_ch06_pinned_memory.main(["--mib", "1", "--reps", "1", "--no-chapter"]) == 0
    out = capsys.readouterr().out
    assert "30.125" in out and "0.062" in out and "5.375" in out and "PyTorch: 5.20 ms" in out
    assert "non_blocking=True: cudaMemcpyAsync" in out and "PyTorch column skipped" not in out
