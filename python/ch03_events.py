"""Chapter 03 from PyTorch: what torch.cuda.Event pairs measure, and two pitfalls.

    python3 python/ch03_events.py [--n 1Mi] [--samples 20] [--build-dir build/release]

1. The first sample: F.linear (20x8192 times a 5120x8192 weight, fp16, as in the
   article) timed with events on its very first call and afterwards. The first call
   pays one-off costs (cuBLAS's set-up, kernel loading) inside the events.
2. The launch gap: torch.add on --n floats timed back to back (pairs queued, one
   wait) and isolated (the host waits after each sample, so each pair brackets a
   lone launch into an idle GPU, launch gap included), beside the C++ chapter's
   "back to back", "isolated" and "blocked stream" (no gap) from ch03_events --json.
Exit codes: 0 ok, 77 no GPU (the reason is printed).
"""
import argparse
import sys
import time

import lab_chapters

# What an event pair can bracket (python/numba_ch03_events.py prints them beside the
# chapter's "bracketing" rows; this script's main does not use them).
BRACKETS = ("start; copy; kernel; stop", "copy; start; kernel; stop", "start; copy; stop")


def first_and_warm_linear(samples):
    """F.linear's first call, then warm samples, all event-timed (ms)."""
    import torch
    import torch.nn.functional as F

    x = torch.randn(20, 8192, device="cuda", dtype=torch.float16)
    weight = torch.randn(5120, 8192, device="cuda", dtype=torch.float16)
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    F.linear(x, weight)
    end.record()
    end.synchronize()
    first = start.elapsed_time(end)
    warm = lab_chapters.event_times_ms(lambda: F.linear(x, weight), samples, warmup=3, isolated=True)
    return first, warm


def launch_gap(n, samples):
    """torch.add on n floats: event samples back to back and isolated (ms)."""
    import torch

    a = torch.rand(n, device="cuda")
    b = torch.rand(n, device="cuda")
    c = torch.empty_like(a)

    def add():
        torch.add(a, b, out=c)

    return {"back to back": lab_chapters.event_times_ms(add, samples),
            "isolated": lab_chapters.event_times_ms(add, samples, isolated=True)}


def first_and_later_add(n, samples):
    """Host ms of the first torch.add call on new tensors and of @samples later calls (each
    followed by a sync), and the values that differ from the CPU's a + b. torch.add's kernel
    was compiled when PyTorch was built: the first call compiles nothing (it may load the
    kernel). Not printed by this script; python/numba_ch03_events.py puts it beside Numba."""
    import torch

    a = torch.rand(n, device="cuda")
    b = torch.rand(n, device="cuda")
    c = torch.empty_like(a)
    torch.cuda.synchronize()

    def call():
        start = time.perf_counter()
        torch.add(a, b, out=c)
        ms = (time.perf_counter() - start) * 1e3
        torch.cuda.synchronize()
        return ms

    first = call()
    later = [call() for _ in range(samples)]
    return {"first_ms": first, "later_ms": later, "wrong": int((c.cpu() != a.cpu() + b.cpu()).sum().item())}


def bracketing(n, samples):
    """Event samples (ms) per BRACKETS: a pinned n-float source copied to the GPU
    (non_blocking=True) and torch.add on the current stream, the host waiting after each
    sample. Not printed by this script; python/numba_ch03_events.py puts it beside Numba."""
    import torch

    source = torch.rand(n).pin_memory()
    destination = torch.empty(n, device="cuda")
    b = torch.rand(n, device="cuda")
    c = torch.empty_like(b)
    destination.copy_(source, non_blocking=True)  # warm-up: first touch and kernel loading stay out
    torch.add(destination, b, out=c)
    torch.cuda.synchronize()
    rows = {name: [] for name in BRACKETS}
    for _ in range(samples):
        for name in BRACKETS:
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            if name.startswith("copy"):
                destination.copy_(source, non_blocking=True)
            start.record()
            if name.startswith("start; copy"):
                destination.copy_(source, non_blocking=True)
            if "kernel" in name:
                torch.add(destination, b, out=c)
            stop.record()
            stop.synchronize()
            rows[name].append(start.elapsed_time(stop))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", default="1Mi", help="floats per vector for the launch-gap part (default 1Mi)")
    parser.add_argument("--samples", type=int, default=20, help="samples per method (default 20)")
    parser.add_argument("--build-dir", help="the C++ build tree (default: $BUILD_DIR, build/gpu-check, build/release)")
    args = parser.parse_args(argv)
    reason = lab_chapters.no_gpu_reason()
    if reason:
        print(f"skipped: {reason}")
        return 77
    n = lab_chapters.parse_count(args.n)

    first, warm = first_and_warm_linear(args.samples)
    print("1. F.linear (x 20x8192, weight 5120x8192, fp16), timed with torch.cuda.Event")
    print(f"  first call                 {first * 1e3:12.1f} us")
    print(f"  later calls, median of {len(warm):3d} {lab_chapters.median(warm) * 1e3:12.1f} us "
          f"(min {min(warm) * 1e3:.1f}, max {max(warm) * 1e3:.1f})")
    print(f"  the first call took {first / lab_chapters.median(warm):.0f} times the median: warm up before timing")

    gap = launch_gap(n, args.samples)
    report = lab_chapters.run_chapter(
        "ch03_events", ["--n", str(n), "--reps", str(args.samples)], lab_chapters.find_build_dir(args.build_dir))
    pairs = []
    for name in ("back to back", "isolated", "blocked stream"):
        ours = lab_chapters.median(gap[name]) * 1e3 if name in gap else None
        cpp = lab_chapters.find_row(report, "launch_gap_n", name)  # section 6's table at --n
        pairs.append((name, ours, cpp["median"] if cpp else None))  # the chapter's rows are in us
    lab_chapters.side_by_side(f"2. c = a + b on {n} floats, event pairs, median of {args.samples}", pairs, "us")
    print("  'blocked stream' (C++ only): a spin kernel holds the stream until the sample is queued, so no launch gap;"
          "\n  this script does not hold the stream (python/gpu_sleep.py spins for a fixed time: it can keep"
          "\n  the GPU busy before a sample, as chapter 07's spin does, not hold it until the host releases it),"
          "\n  so its isolated pairs include the gap.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
