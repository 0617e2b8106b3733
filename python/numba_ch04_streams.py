"""Chapter 04 from Numba: ten arrays normalised on one stream and on ten, as the article does it.

    python3 python/numba_ch04_streams.py [--arrays 10] [--n 10000000] [--reps 5] [--blocks 1024]
                                         [--build-dir build/release] [--no-chapter] [--no-pytorch]

Each array: pinned host -> device (copy_to_device on the array's stream), its sum
(partial_sums, then sum_partials: the chapter's two kernels, double accumulation),
a / sum (divide), device -> pinned host; queued round-robin on 1 stream and on
--arrays streams, between two numba.cuda.event records on a main stream (each side
stream waits for the start event; the main stream waits for each side stream's last
event). The event time beside the C++ chapter's "1 stream" and "10 streams" medians
(ch04_streams --json) from the same run; every output checked against NumPy's
a / a.sum() in double on the same random inputs. Beside them, PyTorch's figures from the
same process (python/ch04_streams.py's normalise: copy_(non_blocking=True), a.div_(a.sum()),
checked against the CPU too), or why that column was skipped.
Exit codes: 0 ok, 1 a wrong normalisation (Numba's or PyTorch's), 2 bad options, 77 no Numba or no GPU.
"""
import argparse
import sys

try:
    import numpy as np
except ImportError:  # numba_lab.unavailable_reason() says so, and main() skips
    np = None

import ch04_streams
import lab_chapters
import numba_lab

BLOCK = 256  # threads per block; a compile-time constant for the shared array
TOLERANCE = 1e-5  # largest relative error against the CPU, as the chapter's 10 ppm
cuda = None  # numba.cuda, set by init(); a module global, as the simulator needs for kernels
KERNELS = {}


def init():
    """numba.cuda and the chapter's three kernels, compiled on first use."""
    global cuda
    cuda = numba_lab.load()
    if KERNELS:
        return KERNELS
    from numba import float64

    @cuda.jit(device=True)
    def block_sum(shared, t, acc):  # every thread's acc, summed into shared[0] by the block
        shared[t] = acc
        cuda.syncthreads()
        step = BLOCK // 2
        while step > 0:
            if t < step:
                shared[t] += shared[t + step]
            cuda.syncthreads()
            step //= 2

    @cuda.jit
    def partial_sums(a, partials):  # one double per block, grid-stride
        shared = cuda.shared.array(BLOCK, float64)
        t = cuda.threadIdx.x
        acc = 0.0
        for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
            acc += a[i]
        block_sum(shared, t, acc)
        if t == 0:
            partials[cuda.blockIdx.x] = shared[0]

    @cuda.jit
    def sum_partials(partials, total):  # one block
        shared = cuda.shared.array(BLOCK, float64)
        t = cuda.threadIdx.x
        acc = 0.0
        for i in range(t, partials.size, BLOCK):
            acc += partials[i]
        block_sum(shared, t, acc)
        if t == 0:
            total[0] = shared[0]

    @cuda.jit
    def divide(a, total):
        for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
            a[i] = a[i] / total[0]

    KERNELS.update(partial_sums=partial_sums, sum_partials=sum_partials, divide=divide)
    return KERNELS


def normalise(arrays, n, streams, reps, blocks=1024, seed=4):
    """@arrays normalisations queued round-robin on @streams streams; returns event
    times (ms) of @reps runs and the largest relative error against NumPy."""
    k = init()
    rng = np.random.default_rng(seed)
    host_in, host_out, device, partials, totals = [], [], [], [], []
    for _ in range(arrays):
        pinned = cuda.pinned_array(n, dtype=np.float32)
        pinned[:] = rng.random(n, dtype=np.float32) * 0.75 + 0.25  # as the chapter: [0.25, 1)
        host_in.append(pinned)
        host_out.append(cuda.pinned_array(n, dtype=np.float32))
        device.append(cuda.device_array(n, np.float32))
        partials.append(cuda.device_array(blocks, np.float64))
        totals.append(cuda.device_array(1, np.float64))
    side = [cuda.stream() for _ in range(streams)]
    main = cuda.stream()

    def run():
        begin = cuda.event()
        begin.record(main)
        for s in side:
            begin.wait(s)
        for i in range(arrays):
            s = side[i % streams]
            device[i].copy_to_device(host_in[i], stream=s)
            k["partial_sums"][blocks, BLOCK, s](device[i], partials[i])
            k["sum_partials"][1, BLOCK, s](partials[i], totals[i])
            k["divide"][blocks, BLOCK, s](device[i], totals[i])
            device[i].copy_to_host(host_out[i], stream=s)
        for s in side:
            done = cuda.event()
            done.record(s)
            done.wait(main)

    times = numba_lab.event_times_ms(cuda, run, main, reps, warmup=1)
    error = 0.0
    for inp, out in zip(host_in, host_out):  # the CPU's answer, in double
        expected = inp.astype(np.float64) / inp.astype(np.float64).sum()
        error = max(error, float(np.max(np.abs(out.astype(np.float64) - expected) / expected)))
    return times, error


def table(arrays, reps, numba, cpp, pytorch):
    """(rows from numba_lab.merge, Numba's speed-up, PyTorch's or None). @numba: {streams:
    event times}; @cpp: numba_lab.cpp_column(...); @pytorch: {streams: times} or a Skipped."""
    median = lab_chapters.median
    keys = {1: "1 stream", arrays: f"{arrays} streams"}
    rows = numba_lab.merge(
        [(name, f"{name}, median of {reps}") for name in keys.values()],
        {keys[s]: median(times) for s, times in numba.items()}, cpp,
        pytorch if isinstance(pytorch, numba_lab.Skipped) else {keys[s]: median(t) for s, t in pytorch.items()})

    def speedup(column):
        one, many = rows[0][column], rows[1][column]
        return one / many if isinstance(one, float) and isinstance(many, float) and many > 0 else None

    return rows, speedup(1), speedup(3)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arrays", type=int, default=10, help="arrays to normalise (default 10)")
    parser.add_argument("--n", type=int, default=10_000_000, help="floats per array (default 10000000)")
    parser.add_argument("--reps", type=int, default=5, help="timed runs per stream count (default 5)")
    parser.add_argument("--blocks", type=int, default=1024, help="blocks per kernel (default 1024)")
    numba_lab.add_column_options(parser)
    args = parser.parse_args(argv)
    reason = numba_lab.unavailable_reason()
    if reason:
        return numba_lab.skip(reason)
    torch_reason = numba_lab.print_versions(args)
    report = numba_lab.chapter(
        "ch04_streams", ["--n", str(args.n), "--arrays", str(args.arrays), "--streams", str(args.arrays),
                         "--reps", str(args.reps)], args.build_dir, not args.no_chapter)
    counts = (1, args.arrays)
    numba, worst = {}, 0.0
    for streams in counts:
        numba[streams], error = normalise(args.arrays, args.n, streams, args.reps, args.blocks)
        worst = max(worst, error)
    torch_worst = None

    def measure_pytorch():
        nonlocal torch_worst
        times = {}
        for streams in counts:
            times[streams], error = ch04_streams.normalise(args.arrays, args.n, streams, args.reps)
            torch_worst = max(torch_worst or 0.0, error)
        return times

    pytorch = numba_lab.pytorch_column(torch_reason, measure_pytorch)
    cpp = numba_lab.cpp_column(report, {name: ("streams", name, "median") for name in
                                        ("1 stream", f"{args.arrays} streams")}, not args.no_chapter)
    rows, numba_speedup, torch_speedup = table(args.arrays, args.reps, numba, cpp, pytorch)
    numba_lab.print_table(f"{args.arrays} arrays x {args.n} floats, each: copy in, a / sum(a), copy out: "
                          "event time for all", rows, "ms")
    for label, speedup in (("Numba", numba_speedup), ("PyTorch", torch_speedup)):
        if speedup:
            print(f"  {label}: {speedup:.2f} times faster with {args.arrays} streams")
    print(f"  largest relative error against NumPy (double): {worst:.2e} (tolerance {TOLERANCE:g})")
    if torch_worst is not None:
        print(f"  PyTorch's largest relative error against the CPU (double): {torch_worst:.2e}")
        worst = max(worst, torch_worst)
    return 0 if worst <= TOLERANCE else 1


if __name__ == "__main__":
    sys.exit(main())
