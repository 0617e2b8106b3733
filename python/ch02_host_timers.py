"""Chapter 02 from PyTorch: a host timer (time.perf_counter) around `c = a + b`,
four ways, as in the article that timed its add2 op with time.time() and
torch.cuda.synchronize().

    python3 python/ch02_host_timers.py [--n 1Mi] [--runs 10] [--build-dir build/release]

Before each case the GPU is given a backlog (a 2 ms kernel and 10 adds, left in
flight), as the C++ chapter does; each case then runs --runs times. Printed: the
first reading (the one that can hold the backlog) and the median, beside the C++
chapter's (ch02_sync_pitfalls --json) from the same run, with the difference.
PyTorch's add is torch.add into a preallocated output, the C++ chapter's is its
own add kernel: both are about 5 us of GPU work at 1Mi floats.
Exit codes: 0 ok, 77 no GPU (the reason is printed).
"""
import argparse
import sys
import time

import gpu_sleep
import lab_chapters

CASES = ["sync before and after", "sync before only", "sync after only", "no sync"]


def time_case(case, add, runs, backlog_ms):
    """Queues a backlog, then times add() --runs times with the host clock, case's way; returns ms."""
    import torch

    torch.cuda.synchronize()
    gpu_sleep.sleep_ms(backlog_ms)
    for _ in range(10):
        add()
    readings = []
    for _ in range(runs):
        if case in ("sync before and after", "sync before only"):
            torch.cuda.synchronize()
        start = time.perf_counter()
        add()
        if case in ("sync before and after", "sync after only"):
            torch.cuda.synchronize()
        readings.append((time.perf_counter() - start) * 1e3)
    torch.cuda.synchronize()
    return readings


def measure(n, runs, backlog_ms=2.0):
    """{case: readings in ms} for the four cases, plus the kernel alone timed with events."""
    import torch

    a = torch.rand(n, device="cuda")
    b = torch.rand(n, device="cuda")
    c = torch.empty_like(a)

    def add():
        torch.add(a, b, out=c)

    results = {case: time_case(case, add, runs, backlog_ms) for case in CASES}
    # Last, so the GPU has been busy: timed first in a fresh process, on a GPU that had been
    # idle, these pairs read about 100 us for this 5 us kernel (the H100 run of 2026-11-22).
    results["the kernel alone (events)"] = lab_chapters.event_times_ms(add, 2 * runs)
    assert torch.equal(c, a + b)
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", default="1Mi", help="floats per vector (default 1Mi)")
    parser.add_argument("--runs", type=int, default=10, help="readings per case (default 10)")
    parser.add_argument("--build-dir", help="the C++ build tree (default: $BUILD_DIR, build/gpu-check, build/release)")
    args = parser.parse_args(argv)
    reason = lab_chapters.no_gpu_reason()
    if reason:
        print(f"skipped: {reason}")
        return 77
    n = lab_chapters.parse_count(args.n)
    results = measure(n, args.runs)
    report = lab_chapters.run_chapter(
        "ch02_sync_pitfalls", ["--n", str(n), "--runs", str(args.runs)], lab_chapters.find_build_dir(args.build_dir))
    table = "host_timer_add"  # section 1's table: the host timer around c = a + b
    for what, pick in (("first reading", lambda r: r[0]), ("median reading", lab_chapters.median)):
        pairs = []
        for name, readings in results.items():
            cpp = lab_chapters.find_row(report, table, name)
            cpp_value = None
            if cpp:
                cpp_value = cpp["first_ms"] if what == "first reading" else cpp["median"]
            pairs.append((name, pick(readings) * 1e3, cpp_value * 1e3 if cpp_value is not None else None))
        lab_chapters.side_by_side(f"A host timer around c = a + b ({n} floats), {args.runs} readings per case: {what}",
                                  pairs, "us")
    print("\nThe first reading of 'sync after only' waits for the backlog queued before the case; "
          "'sync before only' and 'no sync' time only the launch call.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
