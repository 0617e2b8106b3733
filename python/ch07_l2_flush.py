"""Chapter 07 from PyTorch: F.linear timed with torch.cuda.Event, with and without
an L2 flush before each sample.

    python3 python/ch07_l2_flush.py [--samples 50] [--build-dir build/release]

The article's experiment: x (20x8192) times a weight (OUTx8192) in fp16, timed with
event pairs, each sample isolated (the host waits after each). The article's own loop
is not copied here: as it is widely reproduced, it records every pair in one loop
(flush, sleep, start, op, end) and synchronises once after it, so its samples run
back to back, each behind a flush and a sleep; isolated samples are this script's
choice, made so that 'nothing' shows the launch gap.
Three ways before each sample, all queued before the start event:
  nothing      the GPU is idle when the start event runs, so the pair also holds
               the time the host takes to launch F.linear (chapter 03's launch gap);
  0.1 ms spin  a kernel that only spins: it hides the launch gap, evicts nothing;
  flush        zeroing a 256 MiB buffer (as triton's do_bench does): hides the
               launch gap too, and replaces what the L2 held with written lines.
So nothing / spin is the launch gap's effect. flush / spin is what the zeroing did
beside the spin: the evicted weight, but also the 256 MiB of written lines it leaves
behind (chapter 07's write flush against its read flush), and whether it hides the
launch gap as fully as the spin does; this script does not separate the three.
Run for the article's weight (5120 rows, 80 MiB, more than an H100's 50 MiB L2)
and for one that fits in L2 (1024 rows, 16 MiB), each taken only where it makes its
case on this GPU (weight_rows: the large one at least 1.25 times the L2, the small one
at most half of it; otherwise rows for twice and a quarter of the L2). Printed: median, min, max of
each, the ratios, and flush / nothing beside the C++ chapter's ratio for its own
kernel ("write flush" against "nothing", isolated, in the table "working_set_small",
the working set that fits in L2, from ch07_cache_and_clock --json in the same run),
with the difference.
Exit codes: 0 ok, 77 no GPU (the reason is printed).
"""
import argparse
import sys

import lab_chapters


BEFORE = ("nothing", "0.1 ms spin", "flush")
ROW_BYTES = 8192 * 2  # one fp16 row of the weight
ARTICLE_ROWS = (5120, 1024)  # 80 MiB (larger than an H100's 50 MiB L2) and 16 MiB (fits)


def weight_rows(l2_bytes):
    """(rows larger than the L2, rows that fit in it): the article's where they make their
    case on this L2 (at least 1.25 times it; at most half of it), else from the L2's size."""
    large, small = ARTICLE_ROWS
    if large * ROW_BYTES < 1.25 * l2_bytes:
        large = 2 * l2_bytes // ROW_BYTES
    if small * ROW_BYTES > l2_bytes / 2:
        small = max(64, l2_bytes // 4 // ROW_BYTES)
    return large, small


def linear_times(samples, rows, before):
    """Event times (ms) of F.linear with a rows x 8192 weight, each sample isolated,
    with @before (one of BEFORE) queued ahead of the start event."""
    import torch
    import torch.nn.functional as F

    import gpu_sleep

    x = torch.randn(20, 8192, device="cuda", dtype=torch.float16)
    weight = torch.randn(rows, 8192, device="cuda", dtype=torch.float16)
    cache = torch.empty(256 * (1 << 20), dtype=torch.int8, device="cuda")
    for _ in range(3):  # warm-up: cuBLAS set-up, kernel loading
        F.linear(x, weight)
    gpu_sleep.cycles_per_ms()
    torch.cuda.synchronize()
    times = []
    for _ in range(samples):
        if before == "flush":
            cache.zero_()  # 256 MiB written through the L2: what it held is replaced
        elif before == "0.1 ms spin":
            gpu_sleep.sleep_ms(0.1)
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        F.linear(x, weight)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return times


def measure(samples, rows):
    """{way before each sample: event times in ms} for the three ways of BEFORE."""
    return {before: linear_times(samples, rows, before) for before in BEFORE}


def cache_finding(rows, l2_bytes, flush_over_spin):
    """One sentence on what the flush changed for a rows x 8192 fp16 weight."""
    weight_mib = rows * 8192 * 2 / (1 << 20)
    fits = "fits in" if rows * 8192 * 2 <= l2_bytes else "is larger than"
    change = f"{(flush_over_spin - 1) * 100:+.0f} %"
    return (f"weight {weight_mib:.0f} MiB {fits} the {l2_bytes / (1 << 20):.0f} MiB L2: "
            f"a 256 MiB zeroing before each sample changed the median by {change} against the spin "
            "(flush / spin; eviction, write-backs and gap-hiding are not separated here)")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=50, help="samples each way (default 50)")
    parser.add_argument("--build-dir", help="the C++ build tree (default: $BUILD_DIR, build/gpu-check, build/release)")
    args = parser.parse_args(argv)
    reason = lab_chapters.no_gpu_reason()
    if reason:
        print(f"skipped: {reason}")
        return 77
    import torch

    l2_bytes = torch.cuda.get_device_properties(0).L2_cache_size
    median = lab_chapters.median
    ratios = {}
    for rows in weight_rows(l2_bytes):
        times = measure(args.samples, rows)
        print(f"F.linear (20x8192 . {rows}x8192^T, fp16), {args.samples} isolated event-timed samples each way")
        for name, t in times.items():
            print(f"  before each: {name:12s} median {median(t) * 1e3:8.1f} us  min {min(t) * 1e3:8.1f}"
                  f"  max {max(t) * 1e3:8.1f}")
        spin = median(times["0.1 ms spin"])
        print(f"  launch gap in an idle pair: {(median(times['nothing']) - spin) * 1e3:+.1f} us (nothing - spin)")
        print("  " + cache_finding(rows, l2_bytes, median(times["flush"]) / spin) + "\n")
        ratios[rows] = median(times["flush"]) / median(times["nothing"])

    report = lab_chapters.run_chapter(
        "ch07_cache_and_clock",
        ["--samples", str(args.samples), "--probes", "3", "--load-ms", "40", "--stat-samples", "20", "--load-steps",
         "20000"], lab_chapters.find_build_dir(args.build_dir))
    nothing = lab_chapters.find_row(report, "working_set_small", "nothing, isolated")
    write_flush = lab_chapters.find_row(report, "working_set_small", "write flush, isolated")
    cpp_ratio = write_flush["median"] / nothing["median"] if nothing and write_flush else None
    lab_chapters.side_by_side("Flushed median / median with nothing before (isolated; the article's comparison)",
                              [(f"F.linear, {rows}-row weight; C++: chapter 07's kernel in L2", ratios[rows], cpp_ratio)
                               for rows in ratios], "ratio")
    return 0


if __name__ == "__main__":
    sys.exit(main())
