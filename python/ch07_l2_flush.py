"""Chapter 07 from PyTorch: F.linear timed with torch.cuda.Event, with and without
an L2 flush before each sample.

    python3 python/ch07_l2_flush.py [--samples 50] [--build-dir build/release]

The article's experiment: x (20x8192) times a weight (5120x8192) in fp16, 80 MiB of
weight, timed with event pairs; "flushed" zeroes a 256 MiB buffer before each
sample, outside the events (as triton's do_bench does), so the weight is not in L2.
Samples are isolated (the host waits after each), as in the article. Printed:
median, min, max, and flushed / warm, beside the C++ chapter's ratio for its own
kernel ("write flush" against "nothing", isolated, working set in L2, from
ch07_cache_and_clock --json in the same run), with the difference.
Exit codes: 0 ok, 77 no GPU (the reason is printed).
"""
import argparse
import sys

import lab_chapters


def linear_times(samples, flush):
    """Event times (ms) of F.linear, each sample isolated, optionally after zeroing 256 MiB."""
    import torch
    import torch.nn.functional as F

    x = torch.randn(20, 8192, device="cuda", dtype=torch.float16)
    weight = torch.randn(5120, 8192, device="cuda", dtype=torch.float16)
    cache = torch.empty(256 * (1 << 20), dtype=torch.int8, device="cuda")
    for _ in range(3):  # warm-up: cuBLAS set-up, kernel loading
        F.linear(x, weight)
    torch.cuda.synchronize()
    times = []
    for _ in range(samples):
        if flush:
            cache.zero_()  # queued before the start event: evicts the weight from L2
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        F.linear(x, weight)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return times


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=50, help="samples each way (default 50)")
    parser.add_argument("--build-dir", help="the C++ build tree (default: $BUILD_DIR, build/gpu-check, build/release)")
    args = parser.parse_args(argv)
    reason = lab_chapters.no_gpu_reason()
    if reason:
        print(f"skipped: {reason}")
        return 77
    warm = linear_times(args.samples, flush=False)
    flushed = linear_times(args.samples, flush=True)
    print(f"F.linear (20x8192 . 5120x8192^T, fp16), {args.samples} isolated event-timed samples each")
    for name, t in (("warm L2", warm), ("after zeroing 256 MiB", flushed)):
        print(f"  {name:24s} median {lab_chapters.median(t) * 1e3:8.1f} us  min {min(t) * 1e3:8.1f}  max {max(t) * 1e3:8.1f}")
    ratio = lab_chapters.median(flushed) / lab_chapters.median(warm)

    report = lab_chapters.run_chapter(
        "ch07_cache_and_clock",
        ["--samples", str(args.samples), "--probes", "3", "--load-ms", "40", "--stat-samples", "20", "--load-steps",
         "20000"], lab_chapters.find_build_dir(args.build_dir))
    nothing = lab_chapters.find_row(report, "Working set", "nothing, isolated")
    write_flush = lab_chapters.find_row(report, "Working set", "write flush, isolated")
    cpp_ratio = write_flush["median"] / nothing["median"] if nothing and write_flush else None
    lab_chapters.side_by_side("Flushed median / warm median (isolated samples)",
                              [("PyTorch F.linear; C++ chapter 07's kernel in L2", ratio, cpp_ratio)], "ratio")
    if ratio < 1:
        print("  PyTorch: the flushed samples were faster than the warm ones in this run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
