"""Chapter 06 from Numba: pageable against pinned copies, and which copy returns at once.

    python3 python/numba_ch06_pinned_memory.py [--mib 256] [--reps 5] [--build-dir build/release] [--no-chapter]
                                               [--no-pytorch]

1. One host-to-device copy of --mib MiB, device_array.copy_to_device(source, stream=...),
   four ways: a NumPy (pageable) or cuda.pinned_array source; no stream (Numba calls
   cuMemcpyHtoD, which the chapter's cudaMemcpy row matches) or a stream (cuMemcpyHtoDAsync,
   the cudaMemcpyAsync row). When the call returned to Python and when the copy was done
   (the stream, or the device, synchronised), both on the host clock, beside the C++
   chapter's "calls" rows (ch06_pinned_memory --json) from the same run. Only the pinned
   copy on a stream returns before the copy is done.
2. The CPU time it frees: the copy on a stream, CPU work as long as the copy, then a
   wait, from pinned and from pageable memory, beside the chapter's "cpu_freed" rows.
Each table also has PyTorch's figures from the same process (python/ch06_pinned_memory.py's
measure: dst.copy_(src, non_blocking=...), matched to Numba's rows through the C++ row
both stand beside), or says why that column was skipped.
Every copy is checked against its NumPy source (exact; PyTorch's against its own). Exit codes: 0 ok, 1 the data
arrived wrong, 2 bad options, 77 no Numba or no GPU (the reason is printed).
"""
import argparse
import sys
import time

try:
    import numpy as np
except ImportError:  # numba_lab.unavailable_reason() says so, and main() skips
    np = None

import ch06_pinned_memory
import lab_chapters
import numba_lab

# (source memory, on a stream, the C++ chapter's row in table "calls", what Numba calls).
WAYS = [("pageable", False, "pageable cudaMemcpy", "cuMemcpyHtoD"),
        ("pageable", True, "pageable cudaMemcpyAsync", "cuMemcpyHtoDAsync"),
        ("pinned", False, "pinned cudaMemcpy", "cuMemcpyHtoD"),
        ("pinned", True, "pinned cudaMemcpyAsync", "cuMemcpyHtoDAsync")]


def measure(mib, reps, seed=6):
    """Host ms (returned, done) per way and rep; the pinned copy's ms; the overlap runs.
    Raises RuntimeError when a copy arrived wrong."""
    cuda = numba_lab.load()
    n = mib * (1 << 20) // 4
    pageable = np.random.default_rng(seed).random(n, dtype=np.float32)
    pinned = cuda.pinned_array(n, dtype=np.float32)
    pinned[:] = pageable
    destination = cuda.device_array(n, np.float32)
    stream = cuda.stream()
    sources = {"pageable": pageable, "pinned": pinned}
    rows = {}
    for memory, on_stream, _, _ in WAYS:
        returned, done = [], []
        for _ in range(reps):
            cuda.synchronize()
            start = time.perf_counter()
            if on_stream:
                destination.copy_to_device(sources[memory], stream=stream)
            else:
                destination.copy_to_device(sources[memory])
            returned.append((time.perf_counter() - start) * 1e3)
            cuda.synchronize()
            done.append((time.perf_counter() - start) * 1e3)
        if not np.array_equal(destination.copy_to_host(), pageable):
            raise RuntimeError(f"the {memory} copy ({'stream' if on_stream else 'no stream'}) arrived wrong")
        rows[(memory, on_stream)] = (returned, done)
    copy_ms = lab_chapters.median(rows[("pinned", True)][1])
    overlap = {}
    for memory in ("pinned", "pageable"):
        totals = []
        for _ in range(reps):
            cuda.synchronize()
            start = time.perf_counter()
            destination.copy_to_device(sources[memory], stream=stream)
            lab_chapters.cpu_work(copy_ms)
            stream.synchronize()
            totals.append((time.perf_counter() - start) * 1e3)
        overlap[memory] = lab_chapters.median(totals)
    return rows, copy_ms, overlap


# PyTorch's way beside each C++ row: {C++ row: (memory, non_blocking)} (python/ch06_pinned_memory.py's WAYS).
TORCH_WAYS = {cpp_name: (memory, non_blocking) for memory, non_blocking, cpp_name in ch06_pinned_memory.WAYS}
CPP_OVERLAP = {"pinned": "pinned, cudaMemcpyAsync, CPU work, sync",
               "pageable": "pageable, cudaMemcpyAsync, CPU work, sync"}


def tables(mib, reps, numba, report, pytorch, chapters=True):
    """The three tables as (title, rows from numba_lab.merge, unit). @numba: measure()'s
    (rows, copy_ms, overlap); @pytorch: ch06_pinned_memory.measure()'s, or a Skipped.
    Rows are keyed by the C++ row both languages stand beside."""
    median = lab_chapters.median
    rows, copy_ms, overlap = numba
    skipped = isinstance(pytorch, numba_lab.Skipped)
    out = []
    for what, index, field in (("the call returned after", 0, "returned_ms"),
                               ("the copy was done after", 1, "done_ms")):
        labels = [(cpp_name, f"{memory}, {'a stream' if on_stream else 'no stream'} ({call}; C++: {cpp_name}; "
                             f"PyTorch: non_blocking={TORCH_WAYS[cpp_name][1]})")
                  for memory, on_stream, cpp_name, call in WAYS]
        merged = numba_lab.merge(
            labels, {cpp_name: median(rows[(memory, on_stream)][index]) for memory, on_stream, cpp_name, _ in WAYS},
            numba_lab.cpp_column(report, {cpp_name: ("calls", cpp_name, field) for _, _, cpp_name, _ in WAYS},
                                 chapters),
            pytorch if skipped else {cpp_name: median(pytorch[0][way][index]) for cpp_name, way in TORCH_WAYS.items()})
        out.append((f"1. {mib} MiB host to device, median of {reps}: {what}", merged, "ms"))
    merged = numba_lab.merge(
        [(memory, f"{memory}: copy on a stream, CPU work, wait") for memory in ("pinned", "pageable")], overlap,
        numba_lab.cpp_column(report, {memory: ("cpu_freed", name, "median") for memory, name in CPP_OVERLAP.items()},
                             chapters),
        pytorch if skipped else pytorch[2])
    work = f"{copy_ms:.2f} ms" if skipped else f"{copy_ms:.2f} ms (PyTorch: {pytorch[1]:.2f} ms)"
    out.append((f"2. The copy, then {work} of CPU work, then a wait (median of {reps})", merged,
                "ms; each calibrates its CPU work to its own pinned copy"))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=int, default=256, help="MiB per copy (default 256)")
    parser.add_argument("--reps", type=int, default=5, help="copies per way (default 5)")
    numba_lab.add_column_options(parser)
    args = parser.parse_args(argv)
    reason = numba_lab.unavailable_reason()
    if reason:
        return numba_lab.skip(reason)
    torch_reason = numba_lab.print_versions(args)
    try:
        rows, copy_ms, overlap = measure(args.mib, args.reps)
        pytorch = numba_lab.pytorch_column(torch_reason, lambda: ch06_pinned_memory.measure(args.mib, args.reps))
    except RuntimeError as error:
        print(f"FAILED: {error}")
        return 1
    report = numba_lab.chapter(
        "ch06_pinned_memory", ["--mib", str(args.mib), "--max-mib", str(args.mib), "--reps", str(args.reps)],
        args.build_dir, not args.no_chapter)
    printed = tables(args.mib, args.reps, (rows, copy_ms, overlap), report, pytorch, not args.no_chapter)
    for title, merged, unit in printed[:2]:
        numba_lab.print_table(title, merged, unit)
    if not isinstance(pytorch, numba_lab.Skipped):
        print(f"  PyTorch's non_blocking=False: {ch06_pinned_memory.CALLS[False]}; "
              f"non_blocking=True: {ch06_pinned_memory.CALLS[True]} (python/ch06_pinned_memory.py)")
    for memory, on_stream, _, call in WAYS:
        returned, done = (lab_chapters.median(t) for t in rows[(memory, on_stream)])
        verdict = "returned before the copy was done" if returned < done / 10 else "held the host for the copy"
        print(f"  Numba, {memory}, {call}: {verdict} (the call took {returned / done * 100:.0f} % of the copy's time)")
    print(f"  Numba's pinned copy: {args.mib * (1 << 20) / (copy_ms * 1e-3) / 1e9:.1f} GB/s (10^9 bytes/s) "
          "on the host clock")
    numba_lab.print_table(*printed[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
