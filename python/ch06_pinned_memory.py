"""Chapter 06 from PyTorch: pin_memory() and non_blocking=True, and the CPU time they free.

    python3 python/ch06_pinned_memory.py [--mib 256] [--reps 5] [--build-dir build/release]

1. One host-to-device copy of --mib MiB, dst.copy_(src, non_blocking=...), four ways
   (pageable or pinned source; non_blocking False or True): when the call returned
   to Python, and when the copy was done (torch.cuda.synchronize() returned), both
   on the host clock, beside the C++ chapter's cudaMemcpy / cudaMemcpyAsync rows
   (ch06_pinned_memory --json) from the same run. non_blocking=False is not
   cudaMemcpy: PyTorch calls cudaMemcpyAsync on its current stream, then
   cudaStreamSynchronize of that stream (at::cuda::memcpy_and_sync, from
   copy_kernel_cuda in aten/src/ATen/native/cuda/Copy.cu). The chapter's cudaMemcpy
   row is the nearest C++ row; it runs on the legacy default stream, and from
   pageable memory cudaMemcpy may return before its DMA is done (CUDA Runtime API,
   API synchronization behavior), where PyTorch's call returns after the sync.
2. The CPU time it frees: the copy, then CPU work as long as the copy, then a wait.
   From pinned memory with non_blocking=True the two overlap; from pageable memory
   the call holds the CPU for the whole copy first.
Exit codes: 0 ok, 1 the data arrived wrong, 77 no GPU (the reason is printed).
"""
import argparse
import sys
import time

import lab_chapters

# What copy_(non_blocking=...) calls in PyTorch's CUDA build (Copy.cu, copy_kernel_cuda).
CALLS = {False: "cudaMemcpyAsync + stream sync", True: "cudaMemcpyAsync"}

# (source memory, non_blocking, the C++ chapter's nearest row: the key of table "calls").
# non_blocking=False is cudaMemcpyAsync then cudaStreamSynchronize on PyTorch's current
# stream; the chapter has no such row, and its cudaMemcpy row (legacy default stream) is
# the nearest. The printed label names both.
WAYS = [("pageable", False, "pageable cudaMemcpy"), ("pageable", True, "pageable cudaMemcpyAsync"),
        ("pinned", False, "pinned cudaMemcpy"), ("pinned", True, "pinned cudaMemcpyAsync")]


def copy_times(source, destination, non_blocking, reps):
    """Host ms until copy_ returned and until the copy was done, one pair per rep."""
    import torch

    returned, done = [], []
    for _ in range(reps):
        torch.cuda.synchronize()
        start = time.perf_counter()
        destination.copy_(source, non_blocking=non_blocking)
        returned.append((time.perf_counter() - start) * 1e3)
        torch.cuda.synchronize()
        done.append((time.perf_counter() - start) * 1e3)
    return returned, done


def copy_then_cpu_work(source, destination, work_ms):
    """Queues the copy (non_blocking=True), does work_ms of CPU work, waits; host ms in all."""
    import torch

    torch.cuda.synchronize()
    start = time.perf_counter()
    destination.copy_(source, non_blocking=True)
    lab_chapters.cpu_work(work_ms)
    torch.cuda.synchronize()
    return (time.perf_counter() - start) * 1e3


def measure(mib, reps):
    import torch

    n = mib * (1 << 20) // 4
    pageable = torch.rand(n)
    pinned = pageable.pin_memory()
    destination = torch.empty(n, device="cuda")
    rows = {}
    for memory, non_blocking, _ in WAYS:
        source = pinned if memory == "pinned" else pageable
        rows[(memory, non_blocking)] = copy_times(source, destination, non_blocking, reps)
        if not torch.equal(destination.cpu(), pageable):
            raise RuntimeError(f"the {memory} copy arrived wrong")
    copy_ms = lab_chapters.median(rows[("pinned", True)][1])
    overlap = {memory: lab_chapters.median([copy_then_cpu_work(pinned if memory == "pinned" else pageable,
                                                               destination, copy_ms) for _ in range(reps)])
               for memory in ("pinned", "pageable")}
    return rows, copy_ms, overlap


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=int, default=256, help="MiB per copy (default 256)")
    parser.add_argument("--reps", type=int, default=5, help="copies per way (default 5)")
    parser.add_argument("--build-dir", help="the C++ build tree (default: $BUILD_DIR, build/gpu-check, build/release)")
    args = parser.parse_args(argv)
    reason = lab_chapters.no_gpu_reason()
    if reason:
        print(f"skipped: {reason}")
        return 77
    try:
        rows, copy_ms, overlap = measure(args.mib, args.reps)
    except RuntimeError as error:
        print(f"FAILED: {error}")
        return 1
    report = lab_chapters.run_chapter(
        "ch06_pinned_memory", ["--mib", str(args.mib), "--max-mib", str(args.mib), "--reps", str(args.reps)],
        lab_chapters.find_build_dir(args.build_dir))
    for what, index, key in (("the call returned after", 0, "returned_ms"), ("the copy was done after", 1, "done_ms")):
        pairs = []
        for memory, non_blocking, cpp_name in WAYS:
            cpp = lab_chapters.find_row(report, "calls", cpp_name)
            pairs.append((f"{memory}, non_blocking={non_blocking} ({CALLS[non_blocking]}; C++: {cpp_name})",
                          lab_chapters.median(rows[(memory, non_blocking)][index]), cpp[key] if cpp else None))
        lab_chapters.side_by_side(f"1. {args.mib} MiB host to device, median of {args.reps}: {what}", pairs, "ms")
    print("  non_blocking=False: PyTorch's cudaMemcpyAsync on its current stream, then cudaStreamSynchronize;"
          "\n  the C++ column is the chapter's cudaMemcpy (legacy default stream), the nearest row it has")
    gbps = args.mib * (1 << 20) / (copy_ms * 1e-3) / 1e9
    print(f"  pinned copy: {gbps:.1f} GB/s (10^9 bytes/s) on the host clock")

    print(f"\n2. The copy (non_blocking=True), then {copy_ms:.2f} ms of CPU work, then a wait (median of {args.reps})")
    cpp_rows = {"pinned": "pinned, cudaMemcpyAsync, CPU work, sync", "pageable": "pageable, cudaMemcpyAsync, CPU work, sync"}
    pairs = []
    for memory in ("pinned", "pageable"):
        cpp = lab_chapters.find_row(report, "cpu_freed", cpp_rows[memory])
        pairs.append((f"{memory}: copy, CPU work, wait", overlap[memory], cpp["median"] if cpp else None))
    lab_chapters.side_by_side("  host time for both", pairs, "ms; the C++ chapter calibrates its CPU work to its own copy")
    for memory in ("pinned", "pageable"):
        alone = lab_chapters.median(rows[(memory, True)][1]) + copy_ms  # its own copy, then the work
        print(f"  {memory}: {overlap[memory] / alone * 100:.0f} % of its own copy ({alone - copy_ms:.2f} ms) "
              "and the work done one after the other")
    return 0


if __name__ == "__main__":
    sys.exit(main())
