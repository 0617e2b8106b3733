"""Chapter 01 from PyTorch: the chapter's own `c = a + b` kernels as a PyTorch op.

    python3 python/ch01_add_extension.py [--n 64Mi] [--samples 20] [--build-dir build/release]

1. builds the extension (python/add_extension.py: chapters/01_kernel_launch/add_kernels.cu
   compiled with torch.utils.cpp_extension.load) and calls it on CUDA tensors;
2. checks each of the chapter's three kernels against PyTorch's a + b (exact: one
   IEEE add per element), on random inputs into a poisoned (NaN) output, again after timing;
3. times them with torch.cuda.Event (warm-up first, back to back, median of the
   samples) beside torch.add into a preallocated output;
4. runs the C++ chapter (ch01_kernel_launch --json) at the same n and prints its
   figures beside these: the same kernels, timed by lab::measure_ms.
Exit codes: 0 ok, 1 a wrong result, 77 no GPU / no extension (the reason is printed).
"""
import argparse
import sys

import lab_chapters


def measure(lab_add, n, samples, seed=1):
    """Each variant and torch.add on n random floats: wrong values before and after timing, event samples (ms)."""
    import torch

    generator = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.rand(n, device="cuda", generator=generator)
    b = torch.rand(n, device="cuda", generator=generator)
    c = torch.empty_like(a)
    rows = []
    expected = a + b
    runs = [(variant, lambda variant=variant: lab_add.add_out(a, b, c, variant)) for variant in lab_add.variants()]
    runs.append(("torch.add", lambda: torch.add(a, b, out=c)))
    for name, work in runs:
        c.fill_(float("nan"))  # poisoned before each check: an element nobody writes stays NaN and counts
        work()
        torch.cuda.synchronize()
        wrong_first = int((c != expected).sum().item())
        c.fill_(float("nan"))
        times = lab_chapters.event_times_ms(work, samples)
        wrong_after = int((c != expected).sum().item())
        rows.append({"name": name, "samples_ms": times, "wrong_first": wrong_first, "wrong_after": wrong_after})
    return rows


def gbps(n, ms):
    return 3 * 4 * n / (ms * 1e-3) / 1e9  # a and b read, c written


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", default="64Mi", help="floats per vector (default 64Mi)")
    parser.add_argument("--samples", type=int, default=20, help="event-timed samples per kernel (default 20)")
    parser.add_argument("--build-dir", help="the C++ build tree (default: $BUILD_DIR, build/gpu-check, build/release)")
    args = parser.parse_args(argv)
    n = lab_chapters.parse_count(args.n)

    import add_extension
    reason = add_extension.unavailable_reason()
    if reason:
        print(f"skipped: {reason}")
        return 77
    lab_add = add_extension.load()
    import torch

    print(f"device: {torch.cuda.get_device_name()}, PyTorch {torch.__version__} (CUDA {torch.version.cuda})")
    print(f"extension: {lab_add.__file__}")
    rows = measure(lab_add, n, args.samples)

    print(f"\nc = a + b on {n} floats, {args.samples} event-timed samples each (back to back, after 3 warm-up calls)")
    print(f"  {'kernel':28s} {'median [ms]':>12s} {'min [ms]':>10s} {'max [ms]':>10s} {'GB/s':>8s} {'wrong':>7s}")
    wrong = 0
    for row in rows:
        t = row["samples_ms"]
        m = lab_chapters.median(t)
        wrong += row["wrong_first"] + row["wrong_after"]
        print(f"  {row['name']:28s} {m:12.4f} {min(t):10.4f} {max(t):10.4f} {gbps(n, m):8.0f} "
              f"{row['wrong_first'] + row['wrong_after']:7d}")
    print("  'wrong': values that differ from PyTorch's a + b, on the first run (into NaN) plus after timing")

    build_dir = lab_chapters.find_build_dir(args.build_dir)
    report = lab_chapters.run_chapter("ch01_kernel_launch", ["--n", str(n), "--reps", str(args.samples)], build_dir)
    pairs = []
    for row in rows:
        cpp = lab_chapters.find_row(report, "variants", row["name"])
        pairs.append((row["name"], lab_chapters.median(row["samples_ms"]), cpp["median"] if cpp else None))
    copy = lab_chapters.find_row(report, "variants", "device-to-device copy")
    pairs.append(("device-to-device copy (C++ only)", None, copy["median"] if copy else None))
    lab_chapters.side_by_side(f"The same kernels timed from PyTorch and by the C++ chapter, n = {n}, median", pairs, "ms")
    if wrong:
        print(f"FAILED: {wrong} wrong values")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
