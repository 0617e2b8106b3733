"""Chapter 13 from PyTorch: the timed gallery read by four timers, beside torch.profiler.

The same gallery of timed workloads, read by the timers people use, beside
torch.profiler's record of what each call ran on the GPU.

    python3 python/ch13_timer_tools.py [--samples 20] [--json PATH]

The gallery is chapter 13's, with its ids and names: four honest workloads
(a ~3 us add on 512Ki floats whose L2 the truth pass flushes, a ~1 ms add and
spin, the same add as a triton kernel launched for the first time in the
process, the add on inputs just written so they sit in L2) and six adversaries
(the long work forked to a side stream joined only by the next call, the add's
output copied on a stream never joined, a result cached while the inputs'
address is the same, 2 ms of CPU work in the call, the long work on the
workload's own stream, a spin then the add on a stream no one is told of).
Every workload computes c = a + b, checked against torch.add after timing.

The truth: torch.profiler (Kineto, which records with CUPTI), each call in its
own record_function range with the GPU idle before and after it; a call's time is
its kernels' and copies' first start to last end, the median of --samples calls
(the first call alone for the first launch and the cache). The tools, each on
every workload:
  event pair     one torch.cuda.Event pair on the current stream around one call,
                 the GPU idle before it (every sample of the first launch is a
                 fresh kernel);
  do_bench       triton.testing.do_bench(fn) with its default arguments, called
                 once: the number it returns (the signature found is printed);
  events / N     a torch.cuda.Event pair around N = 10 calls, then
                 torch.cuda.synchronize() and elapsed_time / N, the GPU idle before;
  graph replay   the call captured with torch.cuda.graph after three warm-up calls
                 on a side stream, each replay timed with an event pair; a workload
                 whose call a capture cannot hold (CPU work, a Python-side cache,
                 work on a side stream the call does not join) is reported "cannot
                 capture" with the reason, not timed, and so is one whose first
                 replay writes none of its output (its work was not captured).
The event pair and events / N are the same PyTorch calls (the idiom of PyTorch's CUDA
semantics notes, "Asynchronous execution"); they differ only in the calls between the
events. Every tool gives the workload the same inputs on every call, as chapter 13's
naive pair does.
Each cell: the median reading (us), its ratio to the truth, and a verdict from
verdict(): "near" (ratio within 0.5x..2x), "refused" (the tool declined), "off",
or "no truth". "near" and "refused" count as caught.
Exit codes: 0 ok, 1 a wrong result, 2 a bad command line, 77 no PyTorch with CUDA
or no triton (the reason is printed).
"""
import argparse
import collections
import json
import sys

import lab_chapters

try:
    import triton
    import triton.language as tl
except ImportError:  # the CPU tests and --help need neither; main() exits 77 without it
    triton = tl = None

N = 512 << 10  # floats per array of the short kernels (chapter 13's --n)
N_LARGE = 8 << 20  # floats per array of the late copy (its copy: 32 MiB)
LONG_MS = 1.0  # the long work's spin
CPU_MS = 2.0  # the CPU work inside the CPU-bound call
CALLS_PER_PAIR = 10  # N of "events / N"
WARMUP_BEFORE_CAPTURE = 3  # calls on a side stream before torch.cuda.graph captures
BAND = (0.5, 2.0)  # a reading within this ratio of the truth is "near"
TRITON_BLOCK = 1024
CAUGHT = ("near", "refused")

Workload = collections.namedtuple("Workload", "id name honest truth_first_call fresh_each_sample capture_refusal")

# Chapter 13's gallery, in its order. capture_refusal: why a CUDA graph cannot hold the
# call (None: it is captured and replayed).
WORKLOADS = (
    Workload("short", "short kernel, L2 flushed", True, False, False, None),
    Workload("long", "long kernel", True, False, False, None),
    Workload("first_launch", "first launch", True, True, True, None),
    Workload("l2_resident", "short kernel, inputs in L2", True, False, False, None),
    Workload("side_stream", "side stream, joined late", False, False, False,
             "its side stream is joined only by the next call, so the capture would end with it unjoined"),
    Workload("late_copy", "output copied late", False, False, False,
             "its copy stream is never joined, so the capture would end with it unjoined"),
    Workload("cached", "result cached", False, True, False,
             "its cache is Python state: a capture records one branch of it"),
    Workload("cpu_bound", "CPU work in the call", False, False, False,
             "its CPU work is not part of a graph: a replay skips it"),
    Workload("wrong_stream", "work on its own stream", False, False, False, None),
    Workload("left_queued", "work left queued", False, False, False, None),
)

Tool = collections.namedtuple("Tool", "id name method")
TOOLS = (
    Tool("event_pair", "event pair", "one torch.cuda.Event pair around one call, GPU idle before"),
    Tool("do_bench", "do_bench", "triton.testing.do_bench(fn), default arguments, its return value"),
    Tool("events_n", f"events / {CALLS_PER_PAIR}",
         f"one torch.cuda.Event pair around {CALLS_PER_PAIR} calls, synchronize, elapsed_time / {CALLS_PER_PAIR}"),
    Tool("graph_replay", "graph replay", "torch.cuda.graph capture, each g.replay() timed with an event pair"),
)


# --- Pure functions (CPU-tested in python/tests/test_ch13_timer_tools.py) ----------------

def verdict(truth_us, reading_us, refusal=None, band=BAND):
    """One cell's verdict: 'refused' when the tool declined (@refusal is its reason),
    'no truth' without a positive truth or a reading, 'near' when reading / truth lies
    within @band (inclusive), else 'off'."""
    if refusal:
        return "refused"
    if truth_us is None or truth_us <= 0 or reading_us is None:
        return "no truth"
    low, high = band
    return "near" if low <= reading_us / truth_us <= high else "off"


def spans_by_call(ranges, device_events):
    """Each call's GPU time from one profiler record: @ranges are (start_us, kind, index)
    of the CPU ranges, kind 'call' or 'prep' (the harness's own work), the GPU idle
    between ranges; @device_events are (start_us, end_us). An event belongs to the last
    range that began at or before it. Returns {index: first start to last end of the
    call's events} for every 'call' range, None for a call with no event."""
    ordered = sorted(ranges)
    spans = {index: None for _, kind, index in ordered if kind == "call"}
    bounds = {}
    for start, end in sorted(device_events):
        owner = None
        for range_start, kind, index in ordered:
            if range_start <= start:
                owner = (kind, index)
            else:
                break
        if owner is None or owner[0] != "call":
            continue
        first, last = bounds.get(owner[1], (start, end))
        bounds[owner[1]] = (min(first, start), max(last, end))
    for index, (first, last) in bounds.items():
        spans[index] = last - first
    return spans


def build_report(truth_samples, readings, refusals, meta):
    """The run's one record: the table and the JSON are both drawn from it.
    @truth_samples: {workload id: [us]} (the first only for truth_first_call workloads);
    @readings: {tool id: {workload id: [us]}}; @refusals: {tool id: {workload id: reason}};
    @meta: what the run was (device, versions, samples), copied in."""
    rows = []
    summary = {tool.id: {"caught": [], "not_caught": []} for tool in TOOLS}
    for w in WORKLOADS:
        samples = truth_samples.get(w.id) or []
        kept = [s for s in samples[:1 if w.truth_first_call else None] if s is not None]
        truth = lab_chapters.median(kept) if kept else None
        cells = {}
        for tool in TOOLS:
            refusal = refusals.get(tool.id, {}).get(w.id)
            values = [] if refusal else list(readings.get(tool.id, {}).get(w.id) or [])
            reading = lab_chapters.median(values) if values else None
            ratio = reading / truth if reading is not None and truth else None
            word = verdict(truth, reading, refusal)
            cells[tool.id] = {"reading_us": reading, "ratio": ratio, "verdict": word, "caught": word in CAUGHT,
                              "refusal": refusal, "samples_us": values}
            summary[tool.id]["caught" if word in CAUGHT else "not_caught"].append(w.id)
        rows.append({"id": w.id, "name": w.name, "honest": w.honest, "truth_us": truth,
                     "truth_samples_us": samples, "cells": cells})
    return dict(meta, schema=1, script="ch13_timer_tools", band=list(BAND), calls_per_pair=CALLS_PER_PAIR,
                tools=[tool._asdict() for tool in TOOLS], workloads=rows, summary=summary)


CELL = 28  # characters per tool column


def format_cell(cell):
    """'     24.27    10.5x off     ', or 'cannot capture' for a refusal, '-' without a reading."""
    if cell["refusal"]:
        return f"{'cannot capture':>{CELL}s}"
    if cell["reading_us"] is None:
        return f"{'-':>{CELL}s}"
    ratio = f"{cell['ratio']:.3g}x" if cell["ratio"] is not None else "-"
    return f"{cell['reading_us']:10.2f} {ratio:>8s} {cell['verdict']:<8s}"


def render(report):
    """The printed table, its refusals and the per-tool summary, as lines (from @report only)."""
    low, high = report["band"]
    lines = [f"Each workload read by four tools, beside torch.profiler's device time (us: the median of "
             f"{report['samples']} samples, do_bench's own return value; ratio to the truth)",
             f"  {'workload':14s} {'honest':6s} {'truth':>9s}" + "".join(
                 f"{tool['name']:>{CELL}s}" for tool in report["tools"])]
    for row in report["workloads"]:
        truth = f"{row['truth_us']:9.2f}" if row["truth_us"] is not None else f"{'-':>9s}"
        lines.append(f"  {row['id']:14s} {'yes' if row['honest'] else 'no':6s} {truth}" + "".join(
            format_cell(row["cells"][tool["id"]]) for tool in report["tools"]))
    for tool in report["tools"]:
        for row in report["workloads"]:
            refusal = row["cells"][tool["id"]]["refusal"]
            if refusal:
                lines.append(f"  {tool['name']}, {row['id']}: cannot capture: {refusal}")
    lines.append(f"  verdict: near = reading within {low:g}x..{high:g}x of the truth; refused = the tool declined;"
                 f" caught = near or refused")
    lines += ["", f"Caught (near or refused), per tool, of {len(report['workloads'])} workloads"]
    for tool in report["tools"]:
        done = report["summary"][tool["id"]]
        lines.append(f"  {tool['name']:14s} caught     {len(done['caught']):2d}: {', '.join(done['caught']) or '-'}")
        lines.append(f"  {'':14s} not caught {len(done['not_caught']):2d}: {', '.join(done['not_caught']) or '-'}")
    lines += ["", "The tools"]
    for tool in report["tools"]:
        lines.append(f"  {tool['name']:14s} {tool['method']}")
    if "wrong_values" in report:  # {"<tool or truth>/<workload>": wrong elements of c after timing}
        bad = [f"{where} ({count})" for where, count in report["wrong_values"].items() if count]
        lines += ["", f"Every output against torch.add after timing ({len(report['wrong_values'])} checks): "
                  + ("all right" if not bad else "WRONG in " + ", ".join(bad))]
    return [line.rstrip() for line in lines]


def unavailable_reason():
    """Why the script cannot run here (no PyTorch, no CUDA GPU, no triton), or None."""
    reason = lab_chapters.no_gpu_reason()
    if reason:
        return reason
    return "triton is not installed" if triton is None else None


# --- The gallery in PyTorch (GPU) ----------------------------------------------------------

if triton is not None:

    @triton.jit
    def first_launch_add(a, b, c, n, SALT: tl.constexpr, BLOCK: tl.constexpr):
        """c = a + b. SALT, unused in the body, makes each value a new specialisation: the
        first call with a new SALT compiles the kernel (or loads it from triton's cache) and
        launches it for the first time in the process."""
        offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offsets < n
        tl.store(c + offsets, tl.load(a + offsets, mask=mask) + tl.load(b + offsets, mask=mask), mask=mask)


class Gallery:
    """Chapter 13's workloads in PyTorch: one method per workload id, each queuing on the
    current stream (and on the streams it owns) what chapter 13's call does."""

    def __init__(self, seed=1):
        import torch

        import gpu_sleep

        generator = torch.Generator(device="cuda").manual_seed(seed)
        self.arrays = {}
        for w in WORKLOADS:
            n = N_LARGE if w.id == "late_copy" else N
            a = torch.rand(n, device="cuda", generator=generator) * 2 - 1
            b = torch.rand(n, device="cuda", generator=generator) * 2 - 1
            self.arrays[w.id] = (a, b, torch.empty_like(a))
        self.scratch = torch.empty(N_LARGE, device="cuda")
        self.cache = torch.empty(N, device="cuda")
        l2_bytes = getattr(torch.cuda.get_device_properties(0), "L2_cache_size", 0) or (128 << 20)
        self.flush_buffer = torch.empty(2 * l2_bytes // 4, device="cuda")
        self.side, self.copy, self.own, self.hidden = (torch.cuda.Stream() for _ in range(4))
        self.side_done = torch.cuda.Event()
        self.side_pending = False
        self.cached_address = None
        self.warmup = torch.cuda.Stream()  # the warm-up before a capture runs here
        self.salt = 0
        self.spin_cycles = int(LONG_MS * gpu_sleep.cycles_per_ms())
        torch.cuda.synchronize()

    def fresh(self, workload_id):
        """The workload's call with its state reset: the cache empty, a first launch's kernel new."""
        if workload_id == "cached":
            self.cached_address = None
        if workload_id == "first_launch":
            self.salt += 1
        return getattr(self, workload_id)

    def _spin(self):
        import torch

        torch.cuda._sleep(self.spin_cycles)  # about LONG_MS on the GPU (gpu_sleep's calibration)

    # The honest calls.
    def short(self):
        import torch

        a, b, c = self.arrays["short"]
        torch.add(a, b, out=c)

    def long(self):
        import torch

        a, b, c = self.arrays["long"]
        torch.add(a, b, out=c)
        self._spin()

    def first_launch(self):
        a, b, c = self.arrays["first_launch"]
        n = a.numel()
        first_launch_add[(triton.cdiv(n, TRITON_BLOCK),)](a, b, c, n, SALT=self.salt, BLOCK=TRITON_BLOCK)

    def l2_resident(self):
        import torch

        a, b, c = self.arrays["l2_resident"]
        torch.add(a, b, out=c)

    # The adversaries.
    def side_stream(self):
        import torch

        a, b, c = self.arrays["side_stream"]
        caller = torch.cuda.current_stream()
        if self.side_pending:
            caller.wait_event(self.side_done)  # the previous call's join, made only now
        self.side.wait_stream(caller)  # fork: the side stream starts after the caller's earlier work
        with torch.cuda.stream(self.side):
            torch.add(a, b, out=c)
            self._spin()
        self.side_done.record(self.side)
        self.side_pending = True

    def late_copy(self):
        import torch

        a, b, c = self.arrays["late_copy"]
        torch.add(a, b, out=self.scratch)
        self.copy.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.copy):  # nothing on the caller's stream waits for the copy
            c.copy_(self.scratch)

    def cached(self):
        import torch

        a, b, c = self.arrays["cached"]
        if self.cached_address != a.data_ptr():  # inputs at a new address: compute, and keep the result
            torch.add(a, b, out=self.cache)
            self._spin()
            self.cached_address = a.data_ptr()
        c.copy_(self.cache)  # the same address as last time: the kept result, whatever the inputs hold

    def cpu_bound(self):
        import torch

        a, b, c = self.arrays["cpu_bound"]
        lab_chapters.cpu_work(CPU_MS)
        torch.add(a, b, out=c)

    def wrong_stream(self):
        import torch

        a, b, c = self.arrays["wrong_stream"]
        with torch.cuda.stream(self.own):  # the workload's own stream: the caller's sees nothing
            torch.add(a, b, out=c)
            self._spin()

    def left_queued(self):
        import torch

        a, b, c = self.arrays["left_queued"]
        with torch.cuda.stream(self.hidden):  # returns with the work still queued there
            self._spin()
            torch.add(a, b, out=c)

    # The harness's own work.
    def prepare_truth_call(self, workload_id):
        """Before a truth call: the short kernel's L2 flushed, the L2-resident inputs rewritten."""
        if workload_id == "short":
            self.flush_buffer.zero_()
        elif workload_id == "l2_resident":
            a, b, _ = self.arrays["l2_resident"]
            a.mul_(1.0)
            b.mul_(1.0)

    def poison(self, workload_id):
        """c filled with NaN, and the device idle: an element no call wrote shows."""
        import torch

        self.arrays[workload_id][2].fill_(float("nan"))
        torch.cuda.synchronize()

    def unwritten(self, workload_id):
        """Elements of c still NaN (the poison); waits for the device."""
        import torch

        torch.cuda.synchronize()
        return int(torch.isnan(self.arrays[workload_id][2]).sum().item())

    def wrong(self, workload_id):
        """Elements of c that differ from torch.add(a, b) (NaN counts); waits for the device."""
        import torch

        torch.cuda.synchronize()
        a, b, c = self.arrays[workload_id]
        return int((c != torch.add(a, b)).sum().item())


# --- The truth and the tools (GPU) -----------------------------------------------------------

def _is_device_event(event):
    return str(getattr(event, "device_type", "")).endswith("CUDA")


def record_truth(gallery, w, samples):
    """torch.profiler's device time of each call (us): one profiler record, each call and each
    preparation in its own record_function range, the device idle between them."""
    import torch
    from torch.profiler import ProfilerActivity, profile, record_function

    call = gallery.fresh(w.id)
    calls = 1 if w.truth_first_call else samples
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for i in range(calls):
            with record_function(f"lab_prep_{i}"):
                gallery.prepare_truth_call(w.id)
                torch.cuda.synchronize()
            with record_function(f"lab_call_{i}"):
                call()
                torch.cuda.synchronize()  # the whole device: every stream the call used
    ranges, device = [], []
    for event in prof.events():
        if event.name.startswith("lab_"):
            if not _is_device_event(event):  # Kineto also shows each range on the GPU's timeline
                kind, index = event.name[4:].rsplit("_", 1)
                ranges.append((event.time_range.start, kind, int(index)))
        elif _is_device_event(event) and "Activity Buffer" not in event.name:
            device.append((event.time_range.start, event.time_range.end))
    spans = spans_by_call(ranges, device)
    return [spans.get(i) for i in range(calls)]


def _pair():
    import torch

    return torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)


def time_event_pair(gallery, w, samples, calls=1):
    """The event pair (calls=1) and events / N: @calls calls between the events, the GPU idle
    before each sample; synchronize as PyTorch's documentation shows, elapsed_time / @calls."""
    import torch

    call = gallery.fresh(w.id)
    gallery.poison(w.id)
    readings = []
    for _ in range(samples):
        if w.fresh_each_sample:
            call = gallery.fresh(w.id)
        torch.cuda.synchronize()
        start, end = _pair()
        start.record()
        for _ in range(calls):
            call()
        end.record()
        torch.cuda.synchronize()
        readings.append(start.elapsed_time(end) * 1e3 / calls)
    return readings


def time_do_bench(gallery, w):
    """triton.testing.do_bench with its default arguments, once: [its return value in us]."""
    import triton.testing

    call = gallery.fresh(w.id)
    gallery.poison(w.id)
    return [triton.testing.do_bench(call) * 1e3]


def time_graph_replay(gallery, w, samples):
    """(readings, refusal): the call captured with torch.cuda.graph after warm-up calls on a
    side stream (PyTorch's CUDA Graphs notes), each replay timed with an event pair."""
    import torch

    if w.capture_refusal:
        return [], w.capture_refusal
    call = gallery.fresh(w.id)
    torch.cuda.synchronize()
    side = gallery.warmup
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(WARMUP_BEFORE_CAPTURE):
            call()
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    try:
        with torch.cuda.graph(graph):
            call()
        torch.cuda.synchronize()
        gallery.poison(w.id)
        graph.replay()  # the first replay may upload the graph
    except RuntimeError as error:
        torch.cuda.synchronize()
        return [], f"{type(error).__name__}: {str(error).splitlines()[0]}"
    if gallery.unwritten(w.id) == gallery.arrays[w.id][2].numel():
        return [], "a replay wrote none of the output: the capture recorded none of the call's work"
    gallery.poison(w.id)
    readings = []
    for _ in range(samples):
        torch.cuda.synchronize()
        start, end = _pair()
        start.record()
        graph.replay()
        end.record()
        torch.cuda.synchronize()
        readings.append(start.elapsed_time(end) * 1e3)
    return readings, None


def measure(samples, seed=1):
    """(truth_samples, readings, refusals, wrong): every workload's truth, each tool on each
    workload, and the wrong values each left in the workload's output (after timing)."""
    import torch
    from torch.profiler import ProfilerActivity, profile

    gallery = Gallery(seed)
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]):  # the first start sets CUPTI up
        gallery.short()
        torch.cuda.synchronize()
    truth, wrong = {}, {}
    readings = {tool.id: {} for tool in TOOLS}
    refusals = {tool.id: {} for tool in TOOLS}
    for w in WORKLOADS:
        gallery.poison(w.id)
        truth[w.id] = record_truth(gallery, w, samples)
        wrong[f"truth/{w.id}"] = gallery.wrong(w.id)
        readings["event_pair"][w.id] = time_event_pair(gallery, w, samples)
        wrong[f"event_pair/{w.id}"] = gallery.wrong(w.id)
        readings["do_bench"][w.id] = time_do_bench(gallery, w)
        wrong[f"do_bench/{w.id}"] = gallery.wrong(w.id)
        readings["events_n"][w.id] = time_event_pair(gallery, w, samples, CALLS_PER_PAIR)
        wrong[f"events_n/{w.id}"] = gallery.wrong(w.id)
        values, refusal = time_graph_replay(gallery, w, samples)
        if refusal:
            refusals["graph_replay"][w.id] = refusal
        else:
            readings["graph_replay"][w.id] = values
            wrong[f"graph_replay/{w.id}"] = gallery.wrong(w.id)
    return truth, readings, refusals, wrong


def positive_int(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=positive_int, default=20, help="calls per workload and tool (default 20)")
    parser.add_argument("--json", metavar="PATH", help="also write the table's record as JSON to PATH")
    args = parser.parse_args(argv)
    reason = unavailable_reason()
    if reason:
        print(f"skipped: {reason}")
        return 77
    import inspect

    import torch
    import triton.testing

    signature = f"do_bench{inspect.signature(triton.testing.do_bench)}"
    print(f"triton {triton.__version__}: {signature}")
    truth, readings, refusals, wrong = measure(args.samples)
    meta = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__,
            "do_bench_signature": signature, "samples": args.samples, "wrong_values": wrong}
    report = build_report(truth, readings, refusals, meta)
    print("\n".join(render(report)))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(report, out, indent=1)
    return 1 if any(wrong.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
