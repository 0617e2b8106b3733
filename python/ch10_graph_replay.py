"""Chapter 10 from PyTorch: a chain of K small dependent ops launched one by one,
and the same chain captured once as a CUDA graph and replayed.

    python3 python/ch10_graph_replay.py [--n 65536] [--kernels 100] [--samples 20] [--build-dir build/release]

The chain is chapter 10's (and 08's): kernel 0 writes x = a + b, kernel k > 0
x = x + b, ping-ponging two buffers (torch.add(..., out=...)), so the result is
a + K b, checked exactly against the same K float additions on the CPU, into
buffers filled with NaN before every sample. Timed with a torch.cuda.Event pair
around the whole chain, divided by K, median of --samples, three ways:
  stream, as launched    the K ops called from Python on the current stream,
                         the GPU idle at the start event: the pair also holds
                         whatever time the host takes to launch them;
  stream, held           the same, behind a gpu_sleep spin longer than the host
                         takes to queue them (measured first), so the K kernels
                         run back to back from the GPU's queue (chapter 10's
                         "plain": behind lab::StreamBlocker); a sample whose
                         queuing outlasted the spin is counted and reported;
  graph replay           torch.cuda.graph captures the K ops once (after a
                         warm-up on a side stream), g.replay() launches them
                         with one call (cudaGraphLaunch), not held, as the
                         chapter's graph_plain.
Beside them, from ch10_dependent_launch --json in the same run: table pdl_stream,
row plain (beside "held") and table pdl_graph, row graph_plain (beside "graph
replay"). The chapter's kernel is its own chain_step: one 256-thread block per SM
and a --preamble-us spin (0.5 us by default) before it reads; PyTorch's is its
elementwise add kernel, no preamble. Then, unless --no-profile, torch.profiler
(CUPTI) lists the kernels PyTorch launched for one eager chain and for one replay.
Exit codes: 0 ok, 1 a wrong result, 2 a bad command line, 77 no GPU (the reason is printed).
"""
import argparse
import collections
import sys
import time

import gpu_sleep
import lab_chapters

MAX_HELD_KERNELS = 500  # as the chapter: the launch queue holds about a thousand launches (chapter 08)
WAYS = ("stream, as launched", "stream, held", "graph replay")


class Chain:
    """K dependent additions on two ping-pong buffers of n floats, and the CPU's answer."""

    def __init__(self, n, kernels, seed=1):
        import torch

        generator = torch.Generator().manual_seed(seed)
        a = torch.rand(n, generator=generator)
        b = torch.rand(n, generator=generator)
        self.kernels = kernels
        self.expected = cpu_chain(a, b, kernels)
        self.a, self.b = a.cuda(), b.cuda()
        self.x = [torch.empty(n, device="cuda"), torch.empty(n, device="cuda")]
        self.add = torch.add  # looked up once: queue() is timed from the host

    def queue(self):
        """Queues the K ops on the current stream: kernel k writes x[k % 2]."""
        add, b, x = self.add, self.b, self.x
        add(self.a, b, out=x[0])
        for k in range(1, self.kernels):
            add(x[(k - 1) % 2], b, out=x[k % 2])

    def result(self):
        return self.x[(self.kernels - 1) % 2]

    def poison(self):
        """Both buffers NaN, on the current stream: a kernel that did not run leaves NaN behind."""
        for buffer in self.x:
            buffer.fill_(float("nan"))

    def wrong(self):
        """Values of the last result that differ from the CPU's (call once the stream is idle)."""
        return count_wrong(self.result().cpu(), self.expected)


def cpu_chain(a, b, kernels):
    """The chain on the CPU, in float32, in the GPU's order: ((a + b) + b) + ... (K additions)."""
    x = a + b
    for _ in range(kernels - 1):
        x = x + b
    return x


def count_wrong(got, expected):
    """Elements of @got not exactly @expected (NaN counts as wrong)."""
    return int((got != expected).sum().item())


def queue_ms(chain, repeats=5):
    """Host time (ms) to queue the chain once, median of @repeats (the GPU runs them meanwhile)."""
    import torch

    times = []
    for _ in range(repeats):
        torch.cuda.synchronize()
        start = time.perf_counter()
        chain.queue()
        times.append((time.perf_counter() - start) * 1e3)
    torch.cuda.synchronize()
    return lab_chapters.median(times)


def time_samples(launch, chain, samples, hold_ms=None):
    """@samples event-timed runs of @launch (queues the chain), each into poisoned buffers,
    the GPU idle before it; behind a @hold_ms spin when given. Returns per-kernel us, host us
    per launch call, wrong values in all, and how many samples' queuing outlasted the spin."""
    import torch

    per_kernel, host, wrong, not_held = [], [], 0, 0
    for _ in range(samples):
        chain.poison()
        torch.cuda.synchronize()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        began = time.perf_counter()
        if hold_ms:
            gpu_sleep.sleep_ms(hold_ms)  # holds the stream while the host queues the chain behind it
        start.record()
        queued = time.perf_counter()
        launch()
        host.append((time.perf_counter() - queued) * 1e6)
        end.record()
        if hold_ms and (time.perf_counter() - began) * 1e3 > 0.8 * hold_ms:
            not_held += 1  # the spin may have ended before the last op was queued
        end.synchronize()
        per_kernel.append(start.elapsed_time(end) * 1e3 / chain.kernels)
        wrong += chain.wrong()
    return {"per_kernel_us": per_kernel, "host_us": host, "wrong": wrong, "not_held": not_held}


def capture(chain):
    """The chain captured into a torch.cuda.CUDAGraph, after the warm-up the documentation asks for."""
    import torch

    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up on a side stream (CUDA semantics, CUDA Graphs, "PyTorch API")
        for _ in range(3):
            chain.queue()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        chain.queue()  # recorded, not run: the buffers exist already, so nothing is allocated
    graph.replay()  # the first replay may upload the graph
    torch.cuda.synchronize()
    return graph


def measure(n, kernels, samples, seed=1):
    """{way: time_samples' dict} for WAYS, plus 'hold_ms' and 'queue_us_per_op' (host time to queue one op)."""
    import torch

    chain = Chain(n, kernels, seed)
    gpu_sleep.cycles_per_ms()
    for _ in range(3):  # warm-up: kernel loading, the allocator
        chain.queue()
    torch.cuda.synchronize()
    queued = queue_ms(chain)
    hold_ms = max(1.0, 4 * queued)
    results = {"hold_ms": hold_ms, "queue_us_per_op": queued * 1e3 / kernels}
    results[WAYS[0]] = time_samples(chain.queue, chain, samples)
    results[WAYS[1]] = time_samples(chain.queue, chain, samples, hold_ms) if kernels <= MAX_HELD_KERNELS else None
    graph = capture(chain)
    results[WAYS[2]] = time_samples(graph.replay, chain, samples)
    results["chain"], results["graph"] = chain, graph
    return results


def kernels_launched(results):
    """Kernel names and counts torch.profiler (CUPTI) saw for one eager chain and one replay,
    as {"eager": Counter, "graph": Counter}, or a string saying why not."""
    try:
        import torch
        from torch.profiler import ProfilerActivity, profile

        seen = {}
        for name, launch in (("eager", results["chain"].queue), ("graph", results["graph"].replay)):
            torch.cuda.synchronize()
            with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
                launch()
                torch.cuda.synchronize()
            seen[name] = collections.Counter(
                e.name for e in prof.events()
                if str(getattr(e, "device_type", "")).endswith("CUDA") and "Activity Buffer" not in e.name)
        return seen
    except Exception as error:  # optional: a profiler that cannot start must not fail the script
        return f"torch.profiler did not run ({type(error).__name__}: {error})"


def verdict(launched_us, held_us, graph_us):
    """What the three medians (us per kernel) say, one sentence each."""
    lines = []
    if launched_us and graph_us:
        if graph_us < launched_us:
            lines.append(f"graph replay: {launched_us / graph_us:.2f} times less per kernel than the ops as launched "
                         f"({graph_us:.2f} against {launched_us:.2f} us)")
        else:
            lines.append(f"graph replay: no less per kernel than the ops as launched "
                         f"({graph_us:.2f} against {launched_us:.2f} us)")
    if held_us and graph_us:
        word = "less" if graph_us < held_us else "more"
        lines.append(f"behind a held stream (no launch gap) the ops took {held_us:.2f} us per kernel: "
                     f"the graph {abs(held_us - graph_us):.2f} us {word} per kernel on the GPU's side")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=lab_chapters.parse_count, default=65536, help="floats per buffer (default 65536)")
    parser.add_argument("--kernels", type=int, default=100, help="ops in the chain, K (default 100)")
    parser.add_argument("--samples", type=int, default=20, help="timed chains per way (default 20)")
    parser.add_argument("--preamble-us", type=float, default=0.5,
                        help="the C++ chapter's preamble per kernel, passed to it (default 0.5, its own)")
    parser.add_argument("--no-profile", action="store_true", help="skip torch.profiler's list of kernels")
    parser.add_argument("--build-dir", help="the C++ build tree (default: $BUILD_DIR, build/gpu-check, build/release)")
    args = parser.parse_args(argv)
    if not 1 <= args.n <= 1 << 24 or not 2 <= args.kernels <= 10000 or args.samples < 1 or args.preamble_us < 0:
        parser.error("need 1 <= --n <= 16Mi, 2 <= --kernels <= 10000, --samples >= 1, --preamble-us >= 0")
    reason = lab_chapters.no_gpu_reason()
    if reason:
        print(f"skipped: {reason}")
        return 77
    report = lab_chapters.run_chapter(
        "ch10_dependent_launch", ["--n", str(args.n), "--kernels", str(args.kernels), "--reps", str(args.samples),
                                  "--preamble-us", str(args.preamble_us)],
        lab_chapters.find_build_dir(args.build_dir))

    results = measure(args.n, args.kernels, args.samples)
    medians = {}
    for way in WAYS:
        medians[way] = lab_chapters.median(results[way]["per_kernel_us"]) if results[way] else None
    cpp_stream = lab_chapters.find_row(report, "pdl_stream", "plain")
    cpp_graph = lab_chapters.find_row(report, "pdl_graph", "graph_plain")
    pairs = [(WAYS[0], medians[WAYS[0]], None),
             (WAYS[1], medians[WAYS[1]], cpp_stream["median"] if cpp_stream else None),
             (WAYS[2], medians[WAYS[2]], cpp_graph["median"] if cpp_graph else None)]
    lab_chapters.side_by_side(
        f"1. {args.kernels} dependent ops x = x + b on {args.n} floats, event pair / K, median of {args.samples}",
        pairs, "us per kernel")
    print(f"  C++ rows: table pdl_stream row plain (behind lab::StreamBlocker), table pdl_graph row graph_plain;"
          f"\n  its kernel: one 256-thread block per SM and a {args.preamble_us:g} us preamble; PyTorch's: torch.add's.")
    print(f"  host time per op, queuing the eager chain: {results['queue_us_per_op']:.2f} us;"
          f" per g.replay() call: {lab_chapters.median(results[WAYS[2]]['host_us']):.1f} us"
          f" for all {args.kernels} kernels")
    held = results[WAYS[1]]
    if held is None:
        print(f"  stream, held: not run (more than {MAX_HELD_KERNELS} kernels would fill the launch queue)")
    else:
        print(f"  stream, held: a {results['hold_ms']:.2f} ms spin before each sample; "
              f"samples whose queuing outlasted 80 % of it: {held['not_held']} of {args.samples}")
    for line in verdict(medians[WAYS[0]], medians[WAYS[1]], medians[WAYS[2]]):
        print(f"  {line}")

    wrong = {way: results[way]["wrong"] for way in WAYS if results[way]}
    print("\n2. Every sample's result against the CPU's a + K b (same float additions), buffers NaN before each")
    for way, count in wrong.items():
        print(f"  {way:22s} wrong values in {args.samples} samples x {args.n}: {count}")

    if not args.no_profile:
        print("\n3. Kernels PyTorch launched (torch.profiler, CUPTI), one eager chain and one replay")
        seen = kernels_launched(results)
        if isinstance(seen, str):
            print(f"  {seen}")
        else:
            for name, counter in seen.items():
                total = sum(counter.values())
                print(f"  {name}: {total} GPU activities for {args.kernels} ops "
                      f"({total / args.kernels:.2f} per op)")
                for kernel, count in counter.most_common(3):
                    print(f"    {count:5d} x {kernel[:110]}")
            if sum(seen["graph"].values()) == 0:
                print("  (no activity recorded for the replay: the profiler may not see a graph captured before it started)")
    return 0 if sum(wrong.values()) == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
