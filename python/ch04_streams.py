"""Chapter 04 from PyTorch: torch.cuda.Stream, the race without wait_stream, what
record_stream is for, and ten arrays normalised in one stream and in ten.

    python3 python/ch04_streams.py [--arrays 10] [--n 10000000] [--reps 5] [--build-dir build/release]

1. The race: a slow producer on one stream (a 5 ms kernel, then data = 2 * x) and a
   consumer on another (out = data + 1). Without consumer.wait_stream(producer) the
   consumer reads data before it is written; runs with any wrong value are counted.
2. record_stream: a tensor made on the current stream, read later by a side stream,
   then freed. PyTorch's caching allocator only knows the stream it was made on, so
   it hands the memory to the next tensor at once, which overwrites it before the
   side stream reads it; tensor.record_stream(side) makes the allocator wait.
3. Ten arrays, each: pinned host -> device (non_blocking), a / a.sum(), device ->
   pinned host; queued on 1 stream and on 10, event-timed, beside the C++ chapter's
   (ch04_streams --json) figures from the same run.
Exit codes: 0 ok, 1 a wrong normalisation, 77 no GPU (the reason is printed).
"""
import argparse
import sys

import gpu_sleep
import lab_chapters


def race(runs, n=1 << 20, delay_ms=5.0, wait=False):
    """Runs the producer/consumer pair @runs times; returns how many runs read wrong values."""
    import torch

    producer, consumer = torch.cuda.Stream(), torch.cuda.Stream()
    x = torch.rand(n, device="cuda")
    data = torch.empty_like(x)
    out = torch.empty_like(x)
    wrong_runs = 0
    for _ in range(runs):
        data.fill_(float("nan"))  # on the current stream; synchronised below before either side stream runs
        torch.cuda.synchronize()
        with torch.cuda.stream(producer):
            gpu_sleep.sleep_ms(delay_ms)  # a slow producer
            torch.mul(x, 2, out=data)
        with torch.cuda.stream(consumer):
            if wait:
                consumer.wait_stream(producer)  # everything queued on producer so far comes first
            torch.add(data, 1, out=out)
        torch.cuda.synchronize()
        wrong_runs += int(not torch.equal(out, 2 * x + 1))
    return wrong_runs


def freed_while_in_use(record):
    """A side stream reads a tensor the current stream freed. Returns (memory reused at once?, wrong values)."""
    import torch

    side = torch.cuda.Stream()
    n = 1 << 20
    temporary = torch.full((n,), 1.0, device="cuda")
    side.wait_stream(torch.cuda.current_stream())  # the side stream sees temporary filled
    with torch.cuda.stream(side):
        gpu_sleep.sleep_ms(5.0)
        result = temporary * 1  # read 5 ms from now
    if record:
        temporary.record_stream(side)  # the allocator waits for side's queued work before reusing it
    address = temporary.data_ptr()
    del temporary
    newcomer = torch.full((n,), 7.0, device="cuda")  # on the current stream: runs at once
    reused = newcomer.data_ptr() == address
    torch.cuda.synchronize()
    return reused, int((result != 1.0).sum().item())


def normalise(arrays, n, streams, reps):
    """Ten (or --arrays) normalisations queued round-robin on @streams streams;
    returns event times (ms) and the largest relative error against the CPU."""
    import torch

    host_in = [(torch.rand(n) * 0.75 + 0.25).pin_memory() for _ in range(arrays)]  # as the chapter: [0.25, 1)
    host_out = [torch.empty(n, pin_memory=True) for _ in range(arrays)]
    device = [torch.empty(n, device="cuda") for _ in range(arrays)]
    side = [torch.cuda.Stream() for _ in range(streams)]
    main = torch.cuda.current_stream()

    def run():
        for s in side:
            s.wait_stream(main)
        for i in range(arrays):
            with torch.cuda.stream(side[i % streams]):
                device[i].copy_(host_in[i], non_blocking=True)
                device[i].div_(device[i].sum())
                host_out[i].copy_(device[i], non_blocking=True)
        for s in side:
            main.wait_stream(s)

    times = lab_chapters.event_times_ms(run, reps, warmup=1)
    error = 0.0
    for inp, out in zip(host_in, host_out):  # the CPU's answer, in double
        expected = inp.double() / inp.double().sum()
        error = max(error, float(((out.double() - expected).abs() / expected).max()))
    return times, error


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arrays", type=int, default=10, help="arrays to normalise (default 10)")
    parser.add_argument("--n", type=int, default=10_000_000, help="floats per array (default 10000000)")
    parser.add_argument("--reps", type=int, default=5, help="timed runs per stream count (default 5)")
    parser.add_argument("--race-runs", type=int, default=20, help="producer/consumer runs each way (default 20)")
    parser.add_argument("--build-dir", help="the C++ build tree (default: $BUILD_DIR, build/gpu-check, build/release)")
    args = parser.parse_args(argv)
    reason = lab_chapters.no_gpu_reason()
    if reason:
        print(f"skipped: {reason}")
        return 77
    report = lab_chapters.run_chapter(
        "ch04_streams", ["--n", str(args.n), "--arrays", str(args.arrays), "--streams", str(args.arrays),
                         "--reps", str(args.reps), "--race-reps", str(args.race_runs)],
        lab_chapters.find_build_dir(args.build_dir))

    print(f"1. Producer (5 ms, then data = 2x) and consumer (out = data + 1) on two streams, {args.race_runs} runs each")
    pairs = []
    for label, wait, cpp_name in (("no wait", False, "none"),
                                  ("consumer.wait_stream(producer)", True, "cudaEventRecord + cudaStreamWaitEvent")):
        cpp = lab_chapters.find_row(report, "race", cpp_name)
        pairs.append((label, race(args.race_runs, wait=wait), cpp["wrong_runs"] if cpp else None))
    lab_chapters.side_by_side("  runs with wrong values", pairs, "runs out of each side's total")

    print("\n2. A tensor freed on the current stream while a side stream still has to read it")
    for record in (False, True):
        reused, wrong = freed_while_in_use(record)
        label = "with record_stream(side)" if record else "without record_stream"
        print(f"  {label:26s} memory handed to the next tensor at once: {'yes' if reused else 'no':3s}  "
              f"wrong values read by the side stream: {wrong}")

    print(f"\n3. {args.arrays} arrays x {args.n} floats, each: copy in, a / a.sum(), copy out")
    pairs, worst = [], 0.0
    for streams, cpp_name in ((1, "1 stream"), (args.arrays, f"{args.arrays} streams")):
        times, error = normalise(args.arrays, args.n, streams, args.reps)
        worst = max(worst, error)
        cpp = lab_chapters.find_row(report, "streams", cpp_name)
        pairs.append((f"{cpp_name}, median of {args.reps}", lab_chapters.median(times), cpp["median"] if cpp else None))
    lab_chapters.side_by_side("  event time for all arrays", pairs, "ms")
    if pairs[1][1] and pairs[0][1]:
        print(f"  PyTorch: {pairs[0][1] / pairs[1][1]:.2f} times faster with {args.arrays} streams")
    print(f"  largest relative error against the CPU: {worst:.2e} (tolerance 1e-5)")
    return 0 if worst <= 1e-5 else 1


if __name__ == "__main__":
    sys.exit(main())
