"""Chapter 11 (section 2) from PyTorch: stream priorities. An urgent small op queued
while a long op of the least priority fills the GPU, on a stream of equal priority
and on one of the greatest.

    python3 python/ch11_stream_priority.py [--mib 2048] [--n 65536] [--samples 20] [--at 0.3] [--build-dir build/release]

The long op: x.add_(1) over --mib MiB of floats on a torch.cuda.Stream of the least
priority: one elementwise kernel with far more blocks than the GPU holds at once, so
while it runs most of its blocks are still waiting to be dispatched. A priority only
picks which waiting blocks the GPU starts next; it never sets running blocks aside.
(--mib is at most 2048: beyond 2 GiB of byte offsets PyTorch splits an elementwise op
into several kernels. python/gpu_sleep.py's spin is one thread in one block: it would
leave every other slot free, so it is no load here.)
Part-way in (--at of the long op's own time after its start event completed), the
host queues the urgent op, c = a + b on --n floats, on
  equal_priority      another stream of the least priority (priority_range()[0]);
  greatest_priority   a stream of torch.cuda.Stream.priority_range()'s greatest priority;
  idle                the greatest-priority stream with no long op: the baseline.

What this script measures: the urgent op's completion latency after its enqueue. An
event pair on the urgent stream, recorded just before and just after the op, holds the
wait for SM slots, PyTorch's launch of the add (host side) and the add itself; host time
(perf_counter from before the first event's record to after the second's synchronize)
holds the same plus the host's wake-up. The C++ chapter (ch11_who_gets_the_gpu --json,
table priority_urgent, rows idle, equal_priority, greatest_priority, launch_attribute)
measures something narrower: from the GPU seeing the launch to the urgent kernel's first
block starting (block records), with a long kernel of 200 us blocks. Its rows are printed
beside this script's from the same run; the difference column compares two different
measurements, not like with like.
Every urgent result is checked exactly against the CPU's a + b (c filled with NaN before
each sample), and the long op's tensor against the number of x.add_(1) queued.
Exit codes: 0 ok, 1 a wrong result, 2 a bad command line, 77 no GPU or too little free
GPU memory (the reason is printed).
"""
import argparse
import sys
import time

import lab_chapters

CASES = ("idle", "equal_priority", "greatest_priority")  # the C++ chapter's row names
WAIT_LIMIT_S = 5.0  # the host's patience for the long op to start


class Bench:
    """The long op's tensor, the urgent op's inputs and the CPU's answer, the streams and events."""

    def __init__(self, mib, n, seed=1):
        import torch

        generator = torch.Generator().manual_seed(seed)
        a = torch.rand(n, generator=generator)
        b = torch.rand(n, generator=generator)
        self.expected = a + b  # float additions, as the GPU's: equal bit for bit
        self.a, self.b = a.cuda(), b.cuda()
        self.c = torch.empty(n, device="cuda")
        self.big = torch.zeros(mib << 18, device="cuda")  # 262144 floats per MiB
        self.long_ops = 0  # x.add_(1) queued so far: every element of big must equal it
        self.least, self.greatest = torch.cuda.Stream.priority_range()  # e.g. (0, -3): lower is greater
        self.low = torch.cuda.Stream(priority=self.least)  # the long op's
        equal = torch.cuda.Stream(priority=self.least)
        while equal.cuda_stream == self.low.cuda_stream:  # streams come round-robin from a pool of 32
            equal = torch.cuda.Stream(priority=self.least)
        high = torch.cuda.Stream(priority=self.greatest)
        self.streams = {"idle": high, "equal_priority": equal, "greatest_priority": high}
        self.long_start, self.long_end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        self.before, self.after = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)

    def priorities(self):
        """The CUDA priority each stream got (stream.priority: cudaStreamGetPriority)."""
        streams = {"long op": self.low, **{case: self.streams[case] for case in CASES[1:]}}
        return {name: getattr(stream, "priority", None) for name, stream in streams.items()}

    def queue_long(self):
        """x.add_(1) on the low-priority stream, between two events."""
        import torch

        with torch.cuda.stream(self.low):
            self.long_start.record()
            self.big.add_(1.0)
            self.long_end.record()
        self.long_ops += 1

    def time_long(self, reps=3):
        """The long op alone, event-timed, median of @p reps (ms), after one warm-up."""
        import torch

        times = []
        for _ in range(reps + 1):
            torch.cuda.synchronize()
            self.queue_long()
            self.long_end.synchronize()
            times.append(self.long_start.elapsed_time(self.long_end))
        return lab_chapters.median(times[1:])

    def long_wrong(self):
        """Elements of the long op's tensor that are not the number of x.add_(1) queued."""
        import torch

        torch.cuda.synchronize()
        return int((self.big != float(self.long_ops)).sum().item())

    def sample(self, case, at_ms):
        """One sample: the long op started (not for idle), --at of its time waited on the host,
        then the urgent op queued on @p case's stream. Returns its figures (us) and wrong values."""
        import torch

        torch.cuda.synchronize()
        self.c.fill_(float("nan"))  # the poison: an urgent op that did not run leaves NaN
        torch.cuda.synchronize()
        loaded = case != "idle"
        if loaded:
            self.queue_long()
            waited = time.perf_counter()
            while not self.long_start.query():  # the long op's stream reached it: its kernel starts now
                if time.perf_counter() - waited > WAIT_LIMIT_S:
                    raise RuntimeError("waited 5 s for the long op to start")
            lab_chapters.cpu_work(at_ms)  # part-way into the long op
        stream = self.streams[case]
        with torch.cuda.stream(stream):  # entered before the clock starts
            start = time.perf_counter()
            self.before.record()
            torch.add(self.a, self.b, out=self.c)
            self.after.record()
        self.after.synchronize()
        host_us = (time.perf_counter() - start) * 1e6
        long_running = loaded and not self.long_end.query()  # the urgent op finished while the long op ran
        torch.cuda.synchronize()
        row = {"event_us": self.before.elapsed_time(self.after) * 1e3, "host_us": host_us,
               "long_running": long_running,
               "wrong": int((self.c.cpu() != self.expected).sum().item())}
        if loaded:
            row["enqueued_us"] = self.long_start.elapsed_time(self.before) * 1e3  # after the long op's start
            row["left_us"] = self.before.elapsed_time(self.long_end) * 1e3  # the long op's time still to run
            row["ahead_us"] = self.after.elapsed_time(self.long_end) * 1e3  # > 0: the urgent op ended first
        return row


def measure(mib, n, samples, at=0.3, seed=1):
    """Every case @p samples times, interleaved (after one untimed sample each). Returns
    {case: {"event_us": [...], "host_us": [...], ("enqueued_us", "left_us", "ahead_us": [...],)
    "long_running": count, "wrong": count}, "long_ms", "long_wrong", "long_ops", "least", "greatest",
    "priorities"}."""
    bench = Bench(mib, n, seed)
    long_ms = bench.time_long()
    results = {case: {"event_us": [], "host_us": [], "enqueued_us": [], "left_us": [], "ahead_us": [],
                      "long_running": 0, "wrong": 0} for case in CASES}
    for i in range(samples + 1):
        for case in CASES:
            row = bench.sample(case, at * long_ms)
            results[case]["wrong"] += row["wrong"]  # the warm-up's result is checked too
            if i == 0:
                continue
            results[case]["long_running"] += int(row["long_running"])
            for key in ("event_us", "host_us", "enqueued_us", "left_us", "ahead_us"):
                if key in row:
                    results[case][key].append(row[key])
    results.update(long_ms=long_ms, long_wrong=bench.long_wrong(), long_ops=bench.long_ops, least=bench.least,
                   greatest=bench.greatest, priorities=bench.priorities())
    return results


def verdict(equal_us, greatest_us, left_us):
    """Lines that say what the medians show: did the greatest priority finish the urgent op
    sooner, and did equal priority wait about as long as the long op had left to run."""
    if greatest_us < equal_us:
        lines = [f"the greatest priority finished the urgent op {equal_us / greatest_us:.1f} times sooner than "
                 f"equal priority ({greatest_us:.1f} us against {equal_us:.1f} us)"]
    else:
        lines = [f"the greatest priority did not finish the urgent op sooner than equal priority "
                 f"({greatest_us:.1f} us against {equal_us:.1f} us)"]
    if left_us <= 0:
        lines.append("the long op had ended before the urgent op was queued: give a larger --mib or a smaller --at")
    elif equal_us >= 0.5 * left_us:
        lines.append(f"at equal priority the urgent op waited about as long as the long op had left to run "
                     f"({equal_us:.1f} us against {left_us:.1f} us left): its blocks came after the long op's")
    else:
        lines.append(f"at equal priority the urgent op took {equal_us:.1f} us, well under the {left_us:.1f} us "
                     f"the long op had left: it did not wait for the long op's blocks")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=int, default=2048, help="MiB of floats the long op adds 1 to, 16 to 2048 (default 2048)")
    parser.add_argument("--n", type=lab_chapters.parse_count, default=65536,
                        help="floats of the urgent op c = a + b (default 65536)")
    parser.add_argument("--samples", type=int, default=20, help="samples per case (default 20)")
    parser.add_argument("--at", type=float, default=0.3,
                        help="when the urgent op is queued, as a fraction of the long op's time (default 0.3)")
    parser.add_argument("--build-dir", help="the C++ build tree (default: $BUILD_DIR, build/gpu-check, build/release)")
    args = parser.parse_args(argv)
    if not 16 <= args.mib <= 2048 or not 1 <= args.n <= 1 << 24 or args.samples < 1 or not 0.0 < args.at < 0.9:
        parser.error("need 16 <= --mib <= 2048, 1 <= --n <= 16Mi, --samples >= 1, 0 < --at < 0.9")
    reason = lab_chapters.no_gpu_reason()
    if reason:
        print(f"skipped: {reason}")
        return 77
    import torch

    free_bytes, _ = torch.cuda.mem_get_info()
    if free_bytes < (args.mib << 20) * 5 // 4 + (256 << 20):  # the tensor, its check's bool copy, a margin
        print(f"skipped: the long op needs {args.mib} MiB and the GPU has {free_bytes >> 20} MiB free (give a smaller --mib)")
        return 77
    report = lab_chapters.run_chapter("ch11_who_gets_the_gpu", ["--reps", str(args.samples)],
                                      lab_chapters.find_build_dir(args.build_dir))

    results = measure(args.mib, args.n, args.samples, args.at)
    median = lab_chapters.median
    cpp_least = lab_chapters.find_row(report, "priority_urgent", "equal_priority")  # its stream has the least
    cpp_top = lab_chapters.find_row(report, "priority_urgent", "greatest_priority")
    cpp_range_text = (f"CUDA's own (cudaDeviceGetStreamPriorityRange, C++ chapter): least {cpp_least['priority']}, "
                      f"greatest {cpp_top['priority']}" if cpp_least and cpp_top else "CUDA's own: see the C++ chapter")
    print(f"Stream priorities: torch.cuda.Stream.priority_range() = ({results['least']}, {results['greatest']}) "
          f"(least, greatest; lower is greater); {cpp_range_text}")
    print("  PyTorch's range is the part of CUDA's it keeps stream pools for (c10/cuda/CUDAStream.h, priority_range)")
    print("  CUDA priority of each stream (stream.priority): " +
          ", ".join(f"{name} {priority}" for name, priority in results["priorities"].items()))
    print(f"The long op: x.add_(1) over {args.mib} MiB ({args.mib << 18} floats), one kernel, "
          f"{results['long_ms'] * 1e3:.1f} us alone (event pair, median of 3)")
    print(f"The urgent op: c = a + b on {args.n} floats, queued {args.at:g} of the long op's time after its start event")

    rows = [(case, median(results[case]["event_us"]), None) for case in CASES]
    for i, case in enumerate(CASES):
        cpp = lab_chapters.find_row(report, "priority_urgent", case)
        rows[i] = (case, rows[i][1], cpp["median"] if cpp else None)
    cpp_attribute = lab_chapters.find_row(report, "priority_urgent", "launch_attribute")
    rows.append(("launch_attribute (C++ only)", None, cpp_attribute["median"] if cpp_attribute else None))
    # Two different measurements side by side: no difference column (lab_chapters.side_by_side prints one).
    print(f"\n1. The urgent op, median of {args.samples}: PyTorch = completion latency after the enqueue (event pair "
          f"on its stream);\n   C++ = start delay of the urgent kernel's first block after the GPU saw its launch")
    print(f"  {'what':44s} {'PyTorch':>12s} {'C++ chapter':>12s}")
    for what, ours, theirs in rows:
        print(f"  {what:44s} " + " ".join(f"{v:12.3f}" if v is not None else f"{'-':>12s}" for v in (ours, theirs)))
    print("  (us; not comparable with each other: different measurements of different kernels)")
    cpp_equal = lab_chapters.find_row(report, "priority_urgent", "equal_priority")
    if cpp_equal:
        print(f"  C++ table: {cpp_equal['table']}")
    print("  PyTorch has no per-launch priority (the C++ launch_attribute row sets cudaLaunchAttributePriority).")

    print(f"\n2. Each case, medians of {args.samples} samples (us)")
    print(f"  {'case':18s} {'event pair':>10s} {'host time':>10s} {'queued after':>13s} {'long op left':>13s} "
          f"{'ended ahead of':>15s} {'ended while the':>16s}")
    print(f"  {'':18s} {'':>10s} {'':>10s} {'long start':>13s} {'at the enqueue':>13s} "
          f"{'long op end':>15s} {'long op ran':>16s}")
    def show(values, width):
        return f"{median(values):{width}.1f}" if values else f"{'-':>{width}s}"

    for case in CASES:
        r = results[case]
        ran = f"{r['long_running']} of {args.samples}" if case != "idle" else "-"
        print(f"  {case:18s} {show(r['event_us'], 10)} {show(r['host_us'], 10)} {show(r['enqueued_us'], 13)} "
              f"{show(r['left_us'], 13)} {show(r['ahead_us'], 15)} {ran:>16s}")
    equal = median(results["equal_priority"]["event_us"])
    greatest = median(results["greatest_priority"]["event_us"])
    for line in verdict(equal, greatest, median(results["equal_priority"]["left_us"])):
        print(f"  {line}")
    cpp_greatest = lab_chapters.find_row(report, "priority_urgent", "greatest_priority")
    if cpp_equal and cpp_greatest and cpp_equal["median"]:
        print(f"  greatest / equal: PyTorch {greatest / equal:.3f} (completion), C++ "
              f"{cpp_greatest['median'] / cpp_equal['median']:.3f} (start delay; the target set on the H100: <= 0.1)")
    else:
        print(f"  greatest / equal: PyTorch {greatest / equal:.3f} (completion)")
    print("  the idle row is the urgent op's own cost with nothing in the way: PyTorch's launch of the add and the add")

    wrong = sum(results[case]["wrong"] for case in CASES)
    print("\n3. Results against the CPU")
    for case in CASES:
        print(f"  {case:18s} wrong values of c = a + b in {args.samples + 1} samples x {args.n}: {results[case]['wrong']}")
    print(f"  long op: elements not equal to the {results['long_ops']} x.add_(1) queued: {results['long_wrong']}")
    return 0 if wrong == 0 and results["long_wrong"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
