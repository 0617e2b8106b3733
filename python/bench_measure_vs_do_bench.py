"""Benchmark (not a test): chapter 01's add timed three ways on the same kernels, in one run.

    python3 python/bench_measure_vs_do_bench.py [--build-dir build/release]

For two sizes, 1Mi floats (12 MiB for a, b and c: in the H100's 50 MiB L2) and 64Mi
floats (768 MiB: far beyond it):
  - lab::measure_ms, from the C++ chapter 01 (ch01_kernel_launch --n <n> --json):
    3 warm-up runs, then event pairs queued back to back, L2 left warm; the median;
  - triton.testing.do_bench on the extension's add (the same kernel, from PyTorch),
    called once with return_mode="all": the mean (what it returns by default) and the
    median of the same samples, so that the two differ by the statistic only, not by
    two separate benchmark runs;
  - torch.add (PyTorch's own kernel) with do_bench, at both sizes: the chapter's best add
    against PyTorch's.
How do_bench differs from lab::measure_ms (triton 3.x, python/triton/testing.py):
it times each call with its own event pair after zeroing a 256 MiB buffer (the L2
is cold for every sample), it picks its warm-up and sample counts from a time budget
(warmup=25 ms, rep=100 ms, divided by a 5-call estimate), and it returns the mean
unless return_mode or quantiles say otherwise. The signature found in the installed
triton is printed, so a changed default shows.
Exit codes: 0 ok, 77 no GPU, no triton or no extension (the reason is printed).
"""
import argparse
import inspect
import statistics
import sys

import lab_chapters

SIZES = [("1Mi", 1 << 20), ("64Mi", 64 << 20)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", help="the C++ build tree (default: $BUILD_DIR, build/gpu-check, build/release)")
    args = parser.parse_args(argv)
    import add_extension

    reason = add_extension.unavailable_reason()
    if reason:
        print(f"skipped: {reason}")
        return 77
    try:
        import triton.testing
    except ImportError:
        print("skipped: triton is not installed")
        return 77
    import torch

    lab_add = add_extension.load()
    print(f"triton {triton.__version__}: do_bench{inspect.signature(triton.testing.do_bench)}")
    build_dir = lab_chapters.find_build_dir(args.build_dir)
    for label, n in SIZES:
        a = torch.rand(n, device="cuda")
        b = torch.rand(n, device="cuda")
        c = torch.empty_like(a)

        def chapter_add():
            lab_add.add_out(a, b, c, "grid-stride float4")

        def torch_add():
            torch.add(a, b, out=c)

        # One do_bench call, every sample back ("all"): mean and median of the same samples.
        samples = triton.testing.do_bench(chapter_add, return_mode="all")
        mean, middle = statistics.mean(samples), statistics.median(samples)
        ours = lab_chapters.event_times_ms(chapter_add, 20)
        if not torch.equal(c, a + b):
            print("FAILED: the extension's add is wrong after timing")
            return 1
        torch_samples = triton.testing.do_bench(torch_add, return_mode="all")
        torch_mean, torch_middle = statistics.mean(torch_samples), statistics.median(torch_samples)
        report = lab_chapters.run_chapter("ch01_kernel_launch", ["--n", str(n), "--reps", "20"], build_dir)
        cpp = lab_chapters.find_row(report, "variants", "grid-stride float4")
        cpp_ms = cpp["median"] if cpp else None
        bytes_moved = 3 * 4 * n
        lab_chapters.side_by_side(
            f"c = a + b, grid-stride float4, {label} floats ({bytes_moved / 2**20:.0f} MiB moved)",
            [(f"do_bench mean ({len(samples)} samples, L2 flushed)", mean * 1e3, cpp_ms * 1e3 if cpp_ms else None),
             ("do_bench median, same samples", middle * 1e3, cpp_ms * 1e3 if cpp_ms else None),
             ("torch.cuda.Event back to back, median (warm)", lab_chapters.median(ours) * 1e3,
              cpp_ms * 1e3 if cpp_ms else None),
             (f"torch.add: do_bench mean ({len(torch_samples)} samples)", torch_mean * 1e3,
              cpp_ms * 1e3 if cpp_ms else None),
             ("torch.add: do_bench median, same samples", torch_middle * 1e3, cpp_ms * 1e3 if cpp_ms else None)],
            "us; the C++ column is lab::measure_ms's median for the same kernel (warm L2, back to back)")
        print(f"  bandwidth, medians: chapter add {bytes_moved / (middle * 1e-3) / 1e9:.0f} GB/s (do_bench), "
              f"torch.add {bytes_moved / (torch_middle * 1e-3) / 1e9:.0f} GB/s (do_bench)"
              + (f", chapter add {bytes_moved / (cpp_ms * 1e-3) / 1e9:.0f} GB/s (lab::measure_ms)" if cpp_ms else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
