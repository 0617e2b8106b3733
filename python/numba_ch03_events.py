"""Chapters 01 and 03 from Numba: the first launch (JIT compile) and what event pairs on a stream include.

    python3 python/numba_ch03_events.py [--n 1Mi] [--samples 20] [--build-dir build/release] [--no-chapter]
                                        [--no-pytorch]

1. The first launch: a new @cuda.jit kernel (c = a + b) called for the first time
   compiles (typing, LLVM, NVVM to PTX, loading) inside the call; the host time of that
   call and of later calls, beside chapter 01's launch call (nvcc compiled its kernel
   ahead of time, so it has no first-launch compile to pay).
2. The launch gap: numba.cuda.event pairs on a stream around the kernel, back to back
   (pairs queued, one wait) and isolated (the host waits after each sample), beside
   chapter 03's "back to back", "isolated" and "blocked stream" (no gap).
3. What a pair includes: start; copy; kernel; stop against copy; start; kernel; stop
   (a pinned source), beside chapter 03's bracketing rows.
Each table also has PyTorch's figures from the same process (python/ch03_events.py's
functions: torch.add's first and later calls, its event pairs, and the first F.linear),
or says why that column was skipped (no PyTorch, no GPU for it, --no-pytorch).
Every result is checked against NumPy's a + b (exact; PyTorch's against the CPU's).
Exit codes: 0 ok, 1 a wrong result, 2 bad options, 77 no Numba or no GPU (the reason
is printed).
"""
import argparse
import sys

try:
    import numpy as np
except ImportError:  # numba_lab.unavailable_reason() says so, and main() skips
    np = None

import ch03_events
import lab_chapters
import numba_lab

BLOCK = 256
cuda = None  # numba.cuda, set by init(); a module global, as the simulator needs for kernels


def init():
    global cuda
    cuda = numba_lab.load()
    return cuda


def make_add():
    """A new dispatcher each call: its first launch compiles."""
    @cuda.jit
    def add(a, b, c):
        i = cuda.grid(1)
        if i < c.size:
            c[i] = a[i] + b[i]

    return add


def problem(n, seed):
    init()
    rng = np.random.default_rng(seed)
    a, b = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    return a, b, cuda.to_device(a), cuda.to_device(b), cuda.device_array(n, np.float32)


def wrong_values(c, expected):
    return int(np.count_nonzero(c.copy_to_host() != expected))


def first_and_later(n, samples, seed=1):
    """Host ms of the first call (compile included) and of later calls; wrong values."""
    a, b, da, db, dc = problem(n, seed)
    add = make_add()
    grid = (n + BLOCK - 1) // BLOCK
    stream = cuda.stream()
    first = numba_lab.host_ms(lambda: add[grid, BLOCK, stream](da, db, dc))
    stream.synchronize()
    wrong = wrong_values(dc, a + b)
    later = []
    for _ in range(samples):
        later.append(numba_lab.host_ms(lambda: add[grid, BLOCK, stream](da, db, dc)))
        stream.synchronize()
    return {"first_ms": first, "later_ms": later, "wrong": wrong + wrong_values(dc, a + b)}


def launch_gap(n, samples, seed=2):
    """Event samples (ms) back to back and isolated, and wrong values after them."""
    a, b, da, db, dc = problem(n, seed)
    add = make_add()
    grid = (n + BLOCK - 1) // BLOCK
    stream = cuda.stream()

    def work():
        add[grid, BLOCK, stream](da, db, dc)

    times = {"back to back": numba_lab.event_times_ms(cuda, work, stream, samples),
             "isolated": numba_lab.event_times_ms(cuda, work, stream, samples, isolated=True)}
    return times, wrong_values(dc, a + b)


def bracketing(n, samples, seed=3):
    """Event samples (ms) of start; copy; kernel; stop, copy; start; kernel; stop, and start; copy; stop."""
    a, b, da, db, dc = problem(n, seed)
    add = make_add()
    grid = (n + BLOCK - 1) // BLOCK
    stream = cuda.stream()
    source = cuda.pinned_array(n, dtype=np.float32)
    source[:] = a
    destination = cuda.device_array(n, np.float32)
    rows = {"start; copy; kernel; stop": [], "copy; start; kernel; stop": [], "start; copy; stop": []}
    destination.copy_to_device(source, stream=stream)  # warm-up: compile and first touch stay out
    add[grid, BLOCK, stream](destination, db, dc)
    stream.synchronize()
    for _ in range(samples):
        for name in rows:
            start, stop = cuda.event(), cuda.event()
            if name.startswith("copy"):
                destination.copy_to_device(source, stream=stream)
            start.record(stream)
            if name.startswith("start; copy"):
                destination.copy_to_device(source, stream=stream)
            if "kernel" in name:
                add[grid, BLOCK, stream](destination, db, dc)
            stop.record(stream)
            stop.synchronize()
            rows[name].append(start.elapsed_time(stop))
    return rows, wrong_values(dc, a + b)


def pytorch_figures(n, samples):
    """PyTorch's side of the three tables, from python/ch03_events.py, in this process:
    {"first": {...}, "linear": (first ms, warm ms), "gap": {...}, "brackets": {...}}."""
    return {"first": ch03_events.first_and_later_add(n, samples),
            "linear": ch03_events.first_and_warm_linear(samples),
            "gap": ch03_events.launch_gap(n, samples),
            "brackets": ch03_events.bracketing(n, samples)}


def tables(n, samples, numba, pytorch, ch01, ch03, chapters=True):
    """The three tables as (title, rows from numba_lab.merge, unit). @numba: {"first",
    "gap", "brackets"} as measured here; @pytorch: pytorch_figures() or a Skipped."""
    median = lab_chapters.median
    skipped = isinstance(pytorch, numba_lab.Skipped)

    def torch_part(pick):
        return pytorch if skipped else pick(pytorch)

    first = numba["first"]
    rows = [("first", "first call of a new kernel (Numba: @cuda.jit compiles; PyTorch: torch.add)"),
            ("later", f"later calls, median of {samples} (C++: <<<>>> launch)"),
            ("linear first", "first F.linear call (PyTorch only; event time)"),
            ("linear later", f"later F.linear calls, median of {samples} (event time)")]
    one = numba_lab.merge(
        rows, {"first": first["first_ms"], "later": median(first["later_ms"])},
        numba_lab.cpp_column(ch01, {"later": ("launch_return", "the launch call returned after", "ms")}, chapters),
        torch_part(lambda p: {"first": p["first"]["first_ms"], "later": median(p["first"]["later_ms"]),
                              "linear first": p["linear"][0], "linear later": median(p["linear"][1])}))
    names = ("back to back", "isolated", "blocked stream")
    two = numba_lab.merge(
        [(name, name) for name in names], {name: median(numba["gap"][name]) * 1e3 for name in numba["gap"]},
        numba_lab.cpp_column(ch03, {name: ("launch_gap_n", name, "median") for name in names}, chapters),
        torch_part(lambda p: {name: median(p["gap"][name]) * 1e3 for name in p["gap"]}))
    three = numba_lab.merge(
        [(name, name) for name in numba["brackets"]],
        {name: median(times) * 1e3 for name, times in numba["brackets"].items()},
        numba_lab.cpp_column(ch03, {name: ("bracketing", name, "median") for name in numba["brackets"]}, chapters),
        torch_part(lambda p: {name: median(times) * 1e3 for name, times in p["brackets"].items()}))
    return [(f"1. c = a + b on {n} floats: host time of the launch call", one, "ms"),
            (f"2. The kernel alone, event pairs on a stream, median of {samples}", two, "us"),
            (f"3. What the pair includes: a {n * 4 / (1 << 20):g} MiB pinned copy and the kernel", three, "us")]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", default="1Mi", help="floats per vector (default 1Mi)")
    parser.add_argument("--samples", type=int, default=20, help="samples per method (default 20)")
    numba_lab.add_column_options(parser)
    args = parser.parse_args(argv)
    reason = numba_lab.unavailable_reason()
    if reason:
        return numba_lab.skip(reason)
    init()
    n = lab_chapters.parse_count(args.n)
    torch_reason = numba_lab.print_versions(args)

    first = first_and_later(n, args.samples)
    gap, wrong_gap = launch_gap(n, args.samples)
    brackets, wrong_brackets = bracketing(n, args.samples)
    pytorch = numba_lab.pytorch_column(torch_reason, lambda: pytorch_figures(n, args.samples))
    ch01 = numba_lab.chapter("ch01_kernel_launch", ["--n", str(n), "--reps", "3"], args.build_dir, not args.no_chapter)
    ch03 = numba_lab.chapter("ch03_events", ["--n", str(n), "--reps", str(args.samples)], args.build_dir,
                             not args.no_chapter)

    numba = {"first": first, "gap": gap, "brackets": brackets}
    notes = [[f"  Numba's first call took {first['first_ms'] / lab_chapters.median(first['later_ms']):.0f} times a "
              "later one: warm up (compile) before timing"],
             ["  'blocked stream' (C++ only): a spin kernel holds the stream until the sample is queued,"
              " so no launch gap"],
             []]
    for (title, rows, unit), note in zip(tables(n, args.samples, numba, pytorch, ch01, ch03, not args.no_chapter),
                                         notes):
        numba_lab.print_table(title, rows, unit)
        for line in note:
            print(line)

    wrong = first["wrong"] + wrong_gap + wrong_brackets
    print(f"\nwrong values against NumPy's a + b: {wrong}")
    if not isinstance(pytorch, numba_lab.Skipped):
        print(f"PyTorch's torch.add: wrong values against the CPU's a + b: {pytorch['first']['wrong']}")
        wrong += pytorch["first"]["wrong"]
    return 0 if wrong == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
