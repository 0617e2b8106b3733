"""Chapter 01's float4 add against torch.add: where the difference comes from.

    python3 python/ch01_add_profile.py [--n 64Mi] [--samples 20] [--once]

Times, with torch.cuda.Event pairs back to back (median of --samples after a
warm-up), the chapter's grid-stride float4 kernel (chapters/01_kernel_launch,
through the extension) at the grid the chapter chooses (as many blocks as fit
on the GPU at once) and at larger grids up to one float4 per thread, at 256 and
128 threads per block, beside torch.add into a preallocated output. Every
configuration's result is checked against a + b (exact).

--once launches each configuration once, untimed: for a profiler, e.g.
    ncu --clock-control none --metrics launch__grid_size,launch__block_size,... \\
        python3 python/ch01_add_profile.py --once
which gives each kernel's grid, block, registers and global load instructions
(docs/results/h200-2026-12-02e/torch/ch01_add_profile.ncu.log keeps such a run).
Exit codes: 0 ok, 1 a wrong result, 77 no GPU / no extension (the reason is printed).
"""
import argparse
import sys

import lab_chapters

FLOAT4 = "grid-stride float4"


def configurations(n, chapter_grid):
    """(name, block, grid) rows: grid 0 is the chapter's own choice."""
    full = lambda block: -(-n // (4 * block))  # noqa: E731  one float4 per thread
    rows = [(f"chapter's grid ({chapter_grid} x 256)", 256, 0)]
    for factor in (2, 4, 16):
        rows.append((f"{factor} x the chapter's grid", 256, factor * chapter_grid))
    rows.append((f"one float4 per thread ({full(256)} x 256)", 256, full(256)))
    rows.append((f"one float4 per thread ({full(128)} x 128)", 128, full(128)))
    return rows


def measure(lab_add, n, samples, once=False):
    """[{name, median_ms, gbps, wrong}] for each configuration and torch.add."""
    import torch

    generator = torch.Generator(device="cuda").manual_seed(7)
    a = torch.rand(n, device="cuda", generator=generator)
    b = torch.rand(n, device="cuda", generator=generator)
    expected = a + b
    rows = []
    runs = [(name, (lambda block=block, grid=grid: lab_add.add_out(a, b, c, FLOAT4, block, grid)))
            for name, block, grid in configurations(n, lab_add.chapter_grid(a, FLOAT4, 256))]
    runs.append(("torch.add", lambda: torch.add(a, b, out=c)))
    for name, work in runs:
        c = torch.full_like(a, float("nan"))
        if once:
            work()
            torch.cuda.synchronize()
            ms = float("nan")
        else:
            ms = lab_chapters.median(lab_chapters.event_times_ms(work, samples))
        rows.append({"name": name, "median_ms": ms, "gbps": 12 * n / (ms * 1e-3) / 1e9,
                     "wrong": int((c != expected).sum().item())})
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", default="64Mi", help="floats per vector (default 64Mi)")
    parser.add_argument("--samples", type=int, default=20, help="event-timed samples each (default 20)")
    parser.add_argument("--once", action="store_true", help="launch each once, untimed (for a profiler)")
    args = parser.parse_args(argv)
    import add_extension

    reason = lab_chapters.no_gpu_reason() or add_extension.unavailable_reason()
    if reason:
        print(f"skipped: {reason}")
        return 77
    n = lab_chapters.parse_count(args.n)
    rows = measure(add_extension.load(), n, args.samples, args.once)
    print(f"c = a + b on {n} floats: chapter 01's float4 kernel at several grids, and torch.add")
    print(f"  {'configuration':44s} {'median [ms]':>11s} {'GB/s':>7s} {'wrong':>6s}")
    for row in rows:
        print(f"  {row['name']:44s} {row['median_ms']:11.4f} {row['gbps']:7.0f} {row['wrong']:6d}")
    if not args.once:
        best = min(rows[:-1], key=lambda r: r["median_ms"])
        torch_ms = rows[-1]["median_ms"]
        print(f"  fastest of the chapter's kernel: {best['name']}, at {torch_ms / best['median_ms'] * 100:.1f} % "
              "of torch.add's speed")
    return 1 if any(row["wrong"] for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
