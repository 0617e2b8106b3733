#!/usr/bin/env python3
"""The figures of the chapter pages, drawn from the kept runs.

  python/figures.py                 every figure, from the runs named in RUN and KEPT, into docs/figures/
  python/figures.py --check         draws them into a temporary folder and fails when one
                                    differs from the committed SVG (CI runs this)
  python/figures.py --run DIR --out OUT
                                    every figure of any run folder of schema 2 (your tour:
                                    build/release/tour) into OUT; scripts/report uses this
  python/figures.py gantt TRACE.json [--out FILE.svg]
                                    a Gantt chart of any trace a chapter wrote with --trace
                                    (your own run: build/.../ch05_overlap --trace my.trace.json)

Reads the chapters' JSON of schema 2 (common/harness/report.hpp), finding each table by its stable
table_id, never by its title; a JSON of another schema is refused with a message. Every
figure is captioned with the GPU, the driver, the date and the file it came from. Needs
matplotlib (python/requirements-tools.txt; scripts/tools installs it into build/tools).
"""
import argparse
import json
import pathlib
import sys
import tempfile
import textwrap

import matplotlib

matplotlib.use("svg")
import matplotlib.lines  # noqa: E402
import matplotlib.patches  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

import lab_chapters  # noqa: E402  (the same median as the PyTorch and Numba sides)

ROOT = pathlib.Path(__file__).resolve().parent.parent
RUN = ROOT / "docs" / "results" / "h200-2026-12-02e"
# Chapters drawn from another run than RUN's (none today: every chapter is in RUN).
KEPT = {}
FIGURES = ROOT / "docs" / "figures"
SCHEMA = 2
COLOURS = {"HtoD": "#1f77b4", "DtoH": "#2ca02c", "kernel": "#ff7f0e", "memset": "#9467bd", "host": "#8c564b",
           "DtoD": "#17becf", "PtoP": "#e377c2"}
LABELS = {"HtoD": "copy host to device", "DtoH": "copy device to host", "host": "the host's call",
          "DtoD": "copy device to device", "PtoP": "copy between GPUs"}

plt.rcParams.update({"svg.hashsalt": "cuda-async-lab", "svg.fonttype": "path", "font.size": 9,
                     "axes.spines.top": False, "axes.spines.right": False, "figure.dpi": 100})


def save(fig, path, source):
    """Writes @fig as SVG with no date in it, so the same inputs give the same bytes."""
    box = fig.get_tightbbox()  # in inches: put the caption under everything
    fig.text(0.01, box.y0 / fig.get_figheight() - 0.02, source, fontsize=7, color="#555555", ha="left", va="top")
    fig.savefig(path, format="svg", metadata={"Date": None}, bbox_inches="tight")
    plt.close(fig)


# --- the chapters' JSON -----------------------------------------------------------------

def load_report(path):
    report = json.loads(pathlib.Path(path).read_text())
    if report.get("schema") != SCHEMA:
        raise SystemExit(f"figures: {path} has JSON schema {report.get('schema', '1 (none given)')}; "
                         f"this script reads schema {SCHEMA}")
    return report


def rows(report, table_id):
    """The rows of the table @table_id, in order; an error when there are none."""
    found = [r for r in report["results"] if r.get("table_id") == table_id]
    if not found:
        ids = sorted({r.get("table_id", "") for r in report["results"]})
        raise SystemExit(f"figures: {report['chapter']} has no table '{table_id}' (its tables: {', '.join(ids)})")
    return found


def caption(report, path):
    d = report["device"]
    return f"{d['name']}, driver {d['driver_release']}, {report['date'][:10]}; data: {shown(path)}"


def finding(report, finding_id):
    """The check or finding @finding_id of @report, or None when the run did not print it."""
    return next((f for f in report["checks"] + report["findings"] if f["finding_id"] == finding_id), None)


def log_if_wide(ax, values, axis="y"):
    """A log scale where the values span more than a factor 100 (a 0.01 ms call beside a 40 ms copy)."""
    if min(values) > 0 and max(values) > 100 * min(values):
        (ax.set_yscale if axis == "y" else ax.set_xscale)("log")


def shown(path):
    """@path relative to the repository where it lies inside it."""
    path = pathlib.Path(path).resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


# --- Gantt charts from a CUPTI trace ------------------------------------------------------

def trace_events(path):
    events = json.loads(pathlib.Path(path).read_text())["traceEvents"]
    names = {e["tid"]: e["args"]["name"] for e in events if e.get("ph") == "M" and e["name"] == "thread_name"}
    device = next((e["args"]["name"] for e in events if e.get("ph") == "M" and e["name"] == "process_name"), "")
    slices = [e for e in events if e.get("ph") == "X"]
    return slices, names, device


def natural(text):
    """'stream 10' after 'stream 2': the numbers in a name compared as numbers."""
    import re
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


def kind_of(event):
    if event.get("cat") == "memcpy":
        return event.get("args", {}).get("direction", "HtoD")
    return event.get("cat", "kernel")


def gantt(trace, out, title=None, source=None):
    """One panel per region of the trace (a schedule, a variant), one lane per stream, time from
    the region's start; copies coloured by direction, kernels, memsets and host spans by kind."""
    slices, names, device = trace_events(trace)
    regions = [e for e in slices if e.get("cat") == "region"] or [
        {"name": pathlib.Path(trace).stem, "ts": min(e["ts"] for e in slices),
         "dur": max(e["ts"] + e["dur"] for e in slices) - min(e["ts"] for e in slices)}]
    work = [e for e in slices if e.get("cat") != "region"]
    inside_of = [[e for e in work if r["ts"] <= e["ts"] < r["ts"] + r["dur"]] for r in regions]
    lanes_of = [sorted({e["tid"] for e in inside}, key=lambda t: natural(names.get(t, str(t)))) for inside in inside_of]
    heights = [0.6 + 0.22 * max(1, len(lanes)) for lanes in lanes_of]
    fig, axes = plt.subplots(len(regions), 1, figsize=(9, 0.9 + sum(heights)), squeeze=False,
                             gridspec_kw={"height_ratios": heights})
    seen = set()
    for ax, region, inside, lanes in zip(axes[:, 0], regions, inside_of, lanes_of):
        # Each panel starts at its first recorded slice and ends at its last: the time before
        # the first slice (the host queuing the work) is in the title, not an empty band.
        first = min((e["ts"] for e in inside), default=region["ts"])
        last = max((e["ts"] + e["dur"] for e in inside), default=region["ts"] + region["dur"])
        span = max(last - first, 1e-3)
        shortest = span / 1000.0 / 250  # a slice is drawn at least this wide, or a 5 us copy is invisible
        for lane, tid in enumerate(lanes):
            for e in (e for e in inside if e["tid"] == tid):
                kind = kind_of(e)
                seen.add(kind)
                ax.broken_barh([((e["ts"] - first) / 1000.0, max(e["dur"] / 1000.0, shortest))],
                               (lane - 0.4, 0.8), facecolors=COLOURS.get(kind, "#7f7f7f"), edgecolor="none")
        ax.set_yticks(range(len(lanes)), [names.get(t, str(t)) for t in lanes], fontsize=7 if len(lanes) > 4 else 9)
        ax.invert_yaxis()
        ax.set_xlim(0, span / 1000.0)
        ax.set_title(f"{region['name']}: {span / 1000.0:.3f} ms from the first slice to the last "
                     f"(the region: {region['dur'] / 1000.0:.3f} ms)", loc="left", fontsize=9)
    axes[-1, 0].set_xlabel("time from each panel's first recorded slice [ms] (CUPTI); slices under 0.4 % of a panel "
                           "are drawn at that width")
    handles = [matplotlib.patches.Patch(color=COLOURS.get(k, "#7f7f7f"), label=LABELS.get(k, k)) for k in sorted(seen)]
    fig.legend(handles=handles, loc="upper right", ncol=len(handles), frameon=False, fontsize=8)
    fig.suptitle(title or f"{pathlib.Path(trace).name} ({device})", x=0.01, ha="left", fontsize=10)
    fig.tight_layout(rect=(0, 0.03, 1, 0.95))
    save(fig, out, source or f"{device}; data: {trace}")


# --- the chapters' figures ----------------------------------------------------------------

def strip(ax, position, values, colour, label=None):
    """Every sample as a dot (jittered a little sideways), the median as a bar."""
    import random
    jitter = random.Random(position)  # the same dots on every run
    ax.scatter([position + jitter.uniform(-0.18, 0.18) for _ in values], values, s=7, color=colour, alpha=0.6,
               linewidths=0, label=label, zorder=3)
    ax.hlines(lab_chapters.median(values), position - 0.3, position + 0.3, color="black", linewidth=1.2, zorder=4)


def ch01_bandwidth(path, out):
    """The three ways to cover n elements against the device-to-device copy, in GB/s per sample."""
    report = load_report(path)
    table = rows(report, "variants")
    fig, ax = plt.subplots(figsize=(8.5, 3.4))
    for i, row in enumerate(table):
        gbps = [row["bytes"] / (ms * 1e6) for ms in row["samples"]]
        strip(ax, i, gbps, "#7f7f7f" if i == 0 else "#1f77b4")
        ax.annotate(f"{row['bandwidth_gbps']:.0f} GB/s\n{row['percent_of_copy']:.1f} %", (i + 0.32, row["bandwidth_gbps"]),
                    fontsize=8, va="center")
    ax.set_xticks(range(len(table)), [r["name"].replace(" ", "\n", 1) if len(r["name"]) > 12 else r["name"]
                                      for r in table])
    ax.set_xlim(-0.5, len(table) - 0.2)
    ax.set_ylabel("bandwidth [GB/s] (bytes moved / time)")
    ax.set_title(f"c = a + b at n = {report['options']['n']:,} floats, {table[0]['count']} samples each; "
                 "bar: median, % of the copy's", loc="left", fontsize=9)
    save(fig, out, caption(report, path))


def ch06_bandwidth(path, out):
    """Copy bandwidth against size: pageable and pinned, both directions, behind a held stream and isolated."""
    report = load_report(path)
    table = rows(report, "sweep")
    sizes = [r["bytes"] for r in table]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.4), sharey=True)
    for ax, direction, title in [(axes[0], "h2d", "host to device"), (axes[1], "d2h", "device to host")]:
        for key, colour, label in [(f"pinned_{direction}_isolated", "#1f77b4", "pinned, isolated"),
                                   (f"pinned_{direction}", "#17becf", "pinned, behind a held stream"),
                                   (f"pageable_{direction}", "#d62728", "pageable (each copy alone)")]:
            if not all(f"{key}_ms" in r for r in table):
                continue
            for r in table:
                ax.scatter([r["bytes"]] * len(r[f"{key}_ms"]), [r["bytes"] / (ms * 1e6) for ms in r[f"{key}_ms"]],
                           s=5, color=colour, alpha=0.35, linewidths=0)
            ax.plot(sizes, [r[f"{key}_gbps"] for r in table], marker="o", markersize=3, color=colour, label=label)
        ax.set_xscale("log", base=2)
        ax.set_xticks(sizes, [size_label(b) for b in sizes], rotation=45, fontsize=7)
        ax.set_title(title, loc="left", fontsize=9)
        ax.set_xlabel("copy size")
    axes[0].set_ylabel("bandwidth [GB/s]")
    fig.suptitle("Copy bandwidth against size: every sample a dot, the line through the medians", x=0.01,
                 ha="left", fontsize=10)
    axes[0].legend(fontsize=7, frameon=False, loc="upper left")
    save(fig, out, caption(report, path))


def ch03_events_vs_cupti(path, out):
    """Each event method's samples against CUPTI's kernel durations of the same launches, at both sizes."""
    report = load_report(path)
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
    for ax, table_id, size in [(axes[0], "launch_gap_n", "--n"), (axes[1], "launch_gap_n_large", "--n-large")]:
        table = [r for r in rows(report, table_id) if r.get("samples")]
        for i, r in enumerate(table):
            strip(ax, i, r["samples"], "#1f77b4")
            if r.get("cupti_samples_us"):
                ax.scatter([i + 0.3] * len(r["cupti_samples_us"]), r["cupti_samples_us"], marker="_", s=60,
                           color="#ff7f0e", linewidths=1, zorder=3)
        ax.set_xticks(range(len(table)), [r["name"].replace(", ", ",\n") for r in table], fontsize=7)
        values = [v for r in table for v in r["samples"]]
        if max(values) > 10 * min(values):
            ax.set_yscale("log")  # a lone launch's outliers would flatten the rest
        n = table[0].get("n", 0)
        ax.set_title(f"{n / (1 << 20):g}Mi floats ({size})", loc="left", fontsize=9)
    axes[0].set_ylabel("time [us] (log scale where the range needs it)")
    handles = [matplotlib.lines.Line2D([], [], marker="o", linestyle="", color="#1f77b4", label="event pair, every sample"),
               matplotlib.lines.Line2D([], [], marker="_", linestyle="", color="#ff7f0e", markersize=10,
                                       label="CUPTI: the same launches' kernels"),
               matplotlib.lines.Line2D([], [], color="black", label="median of the events")]
    fig.legend(handles=handles, loc="upper right", ncol=3, frameon=False, fontsize=8)
    fig.suptitle("c = a + b timed with events four ways, beside CUPTI", x=0.01, ha="left", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.9))
    save(fig, out, caption(report, path))


def ch05_chunks(path, out):
    """Time against chunk count for sequential, V1 and V2, with the pipeline model and the bound."""
    report = load_report(path)
    table = rows(report, "schedules")
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6), sharey=True)
    for ax, kernel in zip(axes, ["light", "heavy"]):
        mine = [r for r in table if r["kernel"] == kernel]
        sequential = [r for r in mine if r["schedule"] == "sequential"]
        for schedule, colour, shift in [("V1", "#1f77b4", -0.04), ("V2", "#2ca02c", 0.04)]:
            these = sorted((r for r in mine if r["schedule"] == schedule), key=lambda r: r["chunks"])
            for r in these:
                ax.scatter([r["chunks"] * (1 + shift)] * len(r["samples"]), r["samples"], s=8, color=colour,
                           alpha=0.5, linewidths=0)
            ax.plot([r["chunks"] * (1 + shift) for r in these], [r["median"] for r in these], marker="o",
                    markersize=3, color=colour, label=f"{schedule} (median; dots: every sample)")
        model = sorted({(r["chunks"], r["predicted_ms"]) for r in mine if r["schedule"] != "sequential"})
        ax.plot([c for c, _ in model], [m for _, m in model], linestyle="--", color="black", label="pipeline model")
        ax.axhline(mine[0]["bound_ms"], color="#d62728", linestyle=":", label="bound (copies at their fastest)")
        if sequential:
            ax.axhline(sequential[0]["median"], color="#7f7f7f", linewidth=0.8, label="sequential, 1 chunk")
        ax.set_xscale("log", base=2)
        chunks = sorted({r["chunks"] for r in mine})
        ax.set_xticks(chunks, [str(c) for c in chunks])
        ax.set_xlabel("chunks")
        ax.set_title(f"{kernel} kernel", loc="left", fontsize=9)
    axes[0].set_ylabel("time per run [ms]")
    axes[0].set_ylim(bottom=0)
    axes[1].legend(fontsize=7, frameon=False, loc="upper right")
    fig.suptitle("Sequential, V1 and V2 against the number of chunks", x=0.01, ha="left", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.93))
    save(fig, out, caption(report, path))


def ch07_samples(path, out):
    """The 200 samples of one kernel: their histogram with the median and Tukey's fences, and each
    sample's time beside the SM clock measured inside it."""
    report = load_report(path)
    r = rows(report, "samples")[0]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.4))
    left.hist(r["samples"], bins=24, color="#1f77b4", alpha=0.8)
    for x, style, label in [(r["median"], "-", "median"), (r["low_fence_ms"], ":", "Tukey's fences"),
                            (r["high_fence_ms"], ":", None)]:
        left.axvline(x, color="black", linestyle=style, linewidth=1, label=label)
    left.set_xlabel("time per sample [ms]")
    left.set_ylabel("samples")
    left.legend(fontsize=7, frameon=False)
    left.set_title(f"{r['count']} samples of the {r['name']}", loc="left", fontsize=9)
    index = range(1, len(r["samples"]) + 1)
    right.scatter(index, r["samples"], s=6, color="#1f77b4")
    right.set_xlabel("sample")
    right.set_ylabel("time [ms]", color="#1f77b4")
    clock = right.twinx()
    clock.plot(index, r["clock_mhz_per_sample"], color="#ff7f0e", linewidth=0.8)
    clock.set_ylabel("SM clock measured in the kernel [MHz]", color="#ff7f0e")
    clock.spines["right"].set_visible(True)
    right.set_title("each sample, and the clock it ran at", loc="left", fontsize=9)
    fig.tight_layout()
    save(fig, out, caption(report, path))


def ch08_graphs(path, out):
    """Per-kernel cost of K kernels launched on a stream against one graph launch, for each K."""
    report = load_report(path)
    table = rows(report, "graphs")
    k = [r["kernels"] for r in table]
    fig, ax = plt.subplots(figsize=(7, 3.4))
    for key, colour, label in [("stream_per_kernel_us", "#d62728", "stream launches (host timer, per kernel)"),
                               ("graph_per_kernel_us", "#1f77b4", "one graph launch (host timer, per kernel)"),
                               ("stream_gpu_per_kernel_us", "#d62728", "stream launches (events, per kernel)"),
                               ("graph_gpu_per_kernel_us", "#1f77b4", "graph (events, per kernel)")]:
        ax.plot(k, [r[key] for r in table], marker="o", markersize=3, color=colour, label=label,
                linestyle="-" if "gpu" not in key else "--")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks(k, [str(x) for x in k])
    ax.set_xlabel("kernels K in the chain")
    ax.set_ylabel("time per kernel [us]")
    ax.legend(fontsize=7, frameon=False)
    ax.set_title("K small kernels: one launch each, or one graph", loc="left", fontsize=9)
    save(fig, out, caption(report, path))


WAITED, RETURNED = "#fdb863", "#9ecae1"  # light orange / light blue: the matrix's two outcomes, readable under text
SERIES = [("#1f77b4", "o"), ("#ff7f0e", "s"), ("#2ca02c", "^"), ("#9467bd", "D")]  # colour and marker per series


def ch02_timers(path, out):
    """Sections 1 and 2: every reading of the four host timers as a dot on a log axis, the first ringed,
    beside the kernel's own time (events on a held stream) and the backlog the warm-up left in flight;
    on the right, what each timer contained, as the run computed it."""
    report = load_report(path)
    fig, axes = plt.subplots(2, 1, figsize=(12.5, 5.4))
    for ax, table_id in zip(axes, ["host_timer_add", "host_timer_long_kernel"]):
        table = rows(report, table_id)
        for i, r in enumerate(table):
            colour = COLOURS["host"] if "backlog_ms" in r else COLOURS["kernel"]  # the events row has no backlog
            ax.scatter(r["samples"], [i] * len(r["samples"]), s=10, color=colour, alpha=0.6, linewidths=0, zorder=3)
            ax.scatter([r["first_ms"]], [i], s=45, facecolors="none", edgecolors="black", linewidths=0.8, zorder=4)
            ax.vlines(r["median"], i - 0.3, i + 0.3, color="black", linewidth=1.2, zorder=4)
            ax.text(1.02, i, r["contained"], transform=ax.get_yaxis_transform(), fontsize=7, va="center")
        for r in (r for r in table if "backlog_ms" not in r):
            ax.axvline(r["median"], color=COLOURS["kernel"], linestyle="--", linewidth=0.8)
        backlog = [r["backlog_ms"] for r in table if "backlog_ms" in r]
        if backlog:
            ax.axvline(lab_chapters.median(backlog), color="#7f7f7f", linestyle=":", linewidth=1)
        ax.set_xscale("log")
        ax.set_yticks(range(len(table)), [r["name"] for r in table])
        ax.set_ylim(len(table) - 0.5, -0.5)
        ax.set_title(table[0]["table"], loc="left", fontsize=9)
    axes[-1].set_xlabel("host timer reading [ms], log scale")
    line = matplotlib.lines.Line2D
    handles = [line([], [], marker="o", linestyle="", color=COLOURS["host"], label="host timer, every reading"),
               line([], [], marker="o", linestyle="", color="black", markerfacecolor="none", label="first reading"),
               line([], [], color="black", label="median"),
               line([], [], color=COLOURS["kernel"], linestyle="--", label="the kernel (events, median)"),
               line([], [], color="#7f7f7f", linestyle=":", label="backlog in flight (median)")]
    fig.legend(handles=handles, loc="upper left", ncol=5, frameon=False, fontsize=7, bbox_to_anchor=(0.0, 1.0))
    fig.tight_layout(rect=(0, 0, 0.7, 0.95))
    save(fig, out, caption(report, path))


def ch02_waits(path, out):
    """Section 3 as a matrix: each call (row) in each of the four setups (column), coloured by whether it
    returned after the queued GPU work was done, with the time it took then and alone; hatched where
    what it read was stale."""
    report = load_report(path)
    tables = [rows(report, f"implicit_sync_{setup}") for setup in "abcd"]
    calls = list(dict.fromkeys(r["name"] for table in tables for r in table))
    fig, ax = plt.subplots(figsize=(8.5, 0.8 + 0.45 * len(calls)))
    for column, table in enumerate(tables):
        for r in table:
            row, stale = calls.index(r["name"]), r.get("values_wrong", 0) > 0
            ax.add_patch(matplotlib.patches.Rectangle(
                (column - 0.48, row - 0.45), 0.96, 0.9, facecolor=WAITED if r["waited"] else RETURNED,
                edgecolor="#777777" if stale else "white", hatch="//" if stale else None, linewidth=0.5))
            ax.text(column, row, f"{r['returned_after_ms']:.3f} ms\n(alone {r['alone_ms']:.3f})",
                    ha="center", va="center", fontsize=7, bbox={"facecolor": "white", "alpha": 0.8, "edgecolor": "none",
                                                                "pad": 1})
    ax.set_xlim(-0.5, len(tables) - 0.5)
    ax.set_ylim(len(calls) - 0.5, -0.5)
    ax.set_xticks(range(len(tables)), [f"({t[0]['table_id'][-1]})" for t in tables])
    ax.xaxis.tick_top()
    ax.set_yticks(range(len(calls)), calls)
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_xlabel("\n".join(textwrap.fill(t[0]["table"], 110, subsequent_indent="    ") for t in tables), fontsize=7,
                  loc="left")
    handles = [matplotlib.patches.Patch(color=WAITED, label="returned after the queued work was done (waited)"),
               matplotlib.patches.Patch(color=RETURNED, label="returned before it was done"),
               matplotlib.patches.Patch(facecolor="white", edgecolor="#777777", hatch="//",
                                        label="read stale values (wrong > 0)")]
    ax.legend(handles=handles, loc="lower left", bbox_to_anchor=(0, 1.07), ncol=3, frameon=False, fontsize=7)
    ax.set_title(f"Which calls waited for {lab_chapters.median([r['work_ms'] for t in tables for r in t]):.1f} ms of work queued on "
                 "another stream", loc="left", fontsize=9, pad=34)
    save(fig, out, caption(report, path))


def ch05_queues(path, out):
    """Section 3: V1 against V2 per CUDA_DEVICE_MAX_CONNECTIONS (every sample), and streams queued depth
    first or breadth first against the model, in kernel lengths, per connection count."""
    report = load_report(path)
    pairs, orders = rows(report, "queue_schedules"), rows(report, "stream_orders")
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 3.8), gridspec_kw={"width_ratios": [1.2, 1]})
    for i, r in enumerate(pairs):
        for schedule, shift, (colour, _) in [("v1", -0.17, SERIES[0]), ("v2", 0.17, SERIES[2])]:
            left.scatter([i + shift] * len(r[f"{schedule}_samples_ms"]), r[f"{schedule}_samples_ms"], s=9,
                         color=colour, alpha=0.6, linewidths=0, zorder=3)
            left.hlines(r[f"{schedule}_ms"], i + shift - 0.13, i + shift + 0.13, color=colour, linewidth=1.5)
        top = max(r["v1_samples_ms"] + r["v2_samples_ms"])
        left.annotate(f"{r['v1_over_v2_percent']:+.1f} %", (i, top), xytext=(0, 3), textcoords="offset points",
                      ha="center", fontsize=7)
    left.set_xticks(range(len(pairs)), [f"{r['connections_asked'] or 'default'}\n{r['chunks']} ch." for r in pairs],
                    fontsize=7)
    left.set_xlabel("CUDA_DEVICE_MAX_CONNECTIONS, chunks")
    left.set_ylabel("time per run [ms]")
    left.legend(handles=[matplotlib.lines.Line2D([], [], marker="o", color=SERIES[0][0], label="V1"),
                         matplotlib.lines.Line2D([], [], marker="o", color=SERIES[2][0], label="V2")],
                fontsize=7, frameon=False, loc="lower left")
    left.set_title("V1 and V2, every sample, the median as a bar; V1 vs V2 above", loc="left", fontsize=9)
    stream_orders_panel(right, orders)
    fig.tight_layout()
    save(fig, out, caption(report, path))


def stream_orders_panel(ax, orders):
    connections = list(dict.fromkeys(r["connections_seen"] for r in orders))
    for (colour, marker), seen in zip(SERIES * len(connections), connections):
        mine = sorted((r for r in orders if r["connections_seen"] == seen), key=lambda r: r["streams"])
        streams = [r["streams"] for r in mine]
        ax.plot(streams, [r["depth_first_lengths"] for r in mine], marker=marker, markersize=4, color=colour,
                label=f"{seen or 'default (unset)'}: depth first")
        ax.plot(streams, [r["model_lengths"] for r in mine], linestyle="--", color=colour, linewidth=0.8)
        ax.plot(streams, [r["breadth_first_lengths"] for r in mine], marker=marker, markersize=3, color=colour,
                linestyle="", alpha=0.4)
    ax.set_xscale("log", base=2)
    counts = sorted({r["streams"] for r in orders})
    ax.set_xticks(counts, [str(c) for c in counts])
    ax.set_yscale("log", base=2)
    lengths = sorted({r["model_lengths"] for r in orders})
    ax.set_yticks(lengths, [f"{v:g}" for v in lengths])
    ax.set_xlabel("streams (two spin kernels each)")
    ax.set_ylabel("time [lengths of one spin kernel]")
    ax.legend(fontsize=7, frameon=False, title="connections", title_fontsize=7)
    ax.set_title("depth first (solid), model ceil(streams / connections) + 1 (dashed), breadth first (pale)",
                 loc="left", fontsize=8)


def ch06_calls(path, out):
    """Section 2: for each of the four copies, when the call returned and when the copy was done
    (every sample a dot, the median a bar), on a log axis where the times span a factor over 100."""
    report = load_report(path)
    table = rows(report, "calls")
    fig, ax = plt.subplots(figsize=(8.5, 0.9 + 0.6 * len(table)))
    for i, r in enumerate(table):
        for key, shift, colour in [("returned", -0.19, COLOURS["host"]), ("done", 0.19, COLOURS["HtoD"])]:
            ax.barh(i + shift, r[f"{key}_ms"], height=0.36, color=colour, alpha=0.3)
            ax.scatter(r[f"{key}_samples_ms"], [i + shift] * len(r[f"{key}_samples_ms"]), s=9, color=colour,
                       linewidths=0, zorder=3)
        right_end = max(r["done_samples_ms"] + r["returned_samples_ms"])
        ax.annotate(f"returned at {r['returned_percent']:.1f} % of the copy's time", (right_end, i + 0.19),
                    xytext=(6, 0), textcoords="offset points", va="center", fontsize=7)
    log_if_wide(ax, [v for r in table for v in r["returned_samples_ms"] + r["done_samples_ms"]], axis="x")
    ax.set_yticks(range(len(table)), [r["name"] for r in table])
    ax.set_ylim(len(table) - 0.5, -0.5)
    ax.set_xlabel("host timer from the call [ms]")
    patch = matplotlib.patches.Patch
    ax.legend(handles=[patch(color=COLOURS["host"], label="the call returned"),
                       patch(color=COLOURS["HtoD"], label="the copy was done (device synchronised)")],
              fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(0, -0.12 - 0.5 / len(table)), ncol=2)
    ax.set_title(table[0]["table"], loc="left", fontsize=9)
    save(fig, out, caption(report, path))


def ch07_clock(path, out):
    """Section 2: the SM clock measured in each load launch and NVML's clock during the load, marked
    where NVML gave a slowdown reason, and NVML's power (a one-second average) against the limit."""
    report = load_report(path)
    table = rows(report, "clock")
    load = next(r for r in table if r.get("nvml_at_ms"))  # the only row with NVML's series
    step = report["options"]["load-ms"] / load["count"]  # each reading spans one launch; the JSON keeps no time
    fig, (clock, power) = plt.subplots(2, 1, figsize=(11, 5), sharex=True)
    clock.scatter([(i + 0.5) * step for i in range(load["count"])], load["samples"], s=7, color=COLOURS["HtoD"],
                  label="in kernel, one reading per load launch\n(placed evenly over the load)", zorder=3)
    clock.plot(load["nvml_at_ms"], load["nvml_sm_clock_mhz"], color=COLOURS["kernel"], linewidth=1,
               label="NVML's SM clock")
    capped = [(t, mhz) for t, mhz, why in zip(load["nvml_at_ms"], load["nvml_sm_clock_mhz"], load["nvml_clock_reasons"])
              if why]
    clock.scatter([t for t, _ in capped], [m for _, m in capped], marker="x", s=14, color=COLOURS["kernel"],
                  label="NVML gave a slowdown reason", zorder=4)
    for (colour, _), r in zip(SERIES[2:], (r for r in table if r is not load)):
        clock.axhline(r["median"], color=colour, linestyle=":", linewidth=1, label=f"in kernel, {r['name']}")
    clock.set_ylabel("SM clock [MHz]")
    clock.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1))
    clock.set_title(table[0]["table"], loc="left", fontsize=9)
    averaged = load.get("power_averaged_1s", True)  # run 1 lacks the field: an H100's NVML averages over 1 s
    power.plot(load["nvml_at_ms"], load["nvml_power_watts"], marker=".", color="#9467bd", linewidth=1,
               label=f"NVML's power draw ({'a one-second average' if averaged else 'instantaneous'})")
    power.axhline(load["power_limit_watts"], color="#7f7f7f", linestyle="--", linewidth=1, label="power limit")
    power.set_ylabel("power [W]")
    power.set_xlabel("time from the start of the load [ms]")
    power.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.tight_layout()
    save(fig, out, caption(report, path))


def ch07_warm_cold(path, out):
    """Section 1: each case's samples and median (a bar) for the working set inside the L2 and the one
    several times its size, labelled with its time over the warm case's."""
    report = load_report(path)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, table_id in zip(axes, ["working_set_small", "working_set_large"]):
        table = rows(report, table_id)
        for i, r in enumerate(table):
            ax.bar(i, r["median_us"], width=0.7, color=COLOURS["HtoD"], alpha=0.3)
            strip(ax, i, [ms * 1000 for ms in r["samples"]], COLOURS["HtoD"])
            ax.annotate(f"x{r['vs_warm']:.2f}", (i, r["max_us"]), xytext=(0, 3), textcoords="offset points",
                        ha="center", fontsize=7)
        ax.set_xticks(range(len(table)), [r["name"].replace(", ", "\n") for r in table], fontsize=7, rotation=40,
                      ha="right", rotation_mode="anchor")
        ax.set_title(table[0]["table"], loc="left", fontsize=9)
    axes[0].set_ylabel("kernel time [us] (events)")
    fig.suptitle("Warm and cold L2: what ran before each timed kernel, isolated or behind a blocked stream; "
                 "above each bar: its median over the warm case's", x=0.01,
                 ha="left", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.94))
    save(fig, out, caption(report, path))


def ch08_queue(path, out):
    """Section 2: every launch call into a held stream against the number queued before it (the table's
    groups hold the calls in order), the depth the finding measured, and the pace of launches on a free stream."""
    report = load_report(path)
    times = [us for r in rows(report, "queue_fill") for us in r["samples"]]
    depth = finding(report, "queue_depth.blocked")
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 3.6), gridspec_kw={"width_ratios": [2, 1]})
    queued = depth["values"]["depth_count"] if depth else len(times)
    for first, last, colour, size, label in [
            (1, queued, COLOURS["HtoD"], 4, "returned while the stream was held"),
            (queued + 1, queued + 1, COLOURS["kernel"], 30, f"call {queued + 1}: blocked, {queued} launches queued"),
            (queued + 2, len(times), "#7f7f7f", 4, "after the stream was released")]:
        calls = range(first, min(last, len(times)) + 1)
        if calls:
            left.scatter(calls, times[first - 1:calls[-1]], s=size, color=colour, alpha=0.6, linewidths=0, label=label)
    left.legend(fontsize=7, frameon=False, loc="upper left", markerscale=2)
    left.set_xscale("log")
    log_if_wide(left, times)
    left.set_xlabel("launch call (number queued before it + 1)")
    left.set_ylabel("launch call [us] (host timer)")
    left.set_title("Launch calls into a held stream, every call", loc="left", fontsize=9)
    pace = rows(report, "queue_pace")
    right.bar(range(len(pace)), [r["per_launch_us"] for r in pace], color=COLOURS["HtoD"], width=0.6)
    right.axhline(report["options"]["kernel-us"], color=COLOURS["kernel"], linestyle="--", linewidth=1,
                  label="each kernel spins (--kernel-us)")
    right.set_ylim(0, 1.3 * max([r["per_launch_us"] for r in pace] + [report["options"]["kernel-us"]]))
    right.set_xticks(range(len(pace)), [f"{r['launches']} launches" for r in pace])
    right.set_ylabel("launch loop / launches [us]")
    right.legend(fontsize=7, frameon=False, loc="upper left")
    right.set_title("Spin kernels on a free stream", loc="left", fontsize=9)
    fig.tight_layout()
    save(fig, out, caption(report, path))


def ch09_one_gpu(path, out):
    """Section 4 on one GPU: the host link's rates in each direction (event pairs), and every sample of the
    chunked pipeline against its bound; what needs two GPUs is not in the run, and the figure says so."""
    report = load_report(path)
    links, pipeline = rows(report, "host_link"), rows(report, "pipeline")
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.6), gridspec_kw={"width_ratios": [1, 1.3]})
    for i, r in enumerate(links):
        for key, shift, direction in [("h2d_gbps", -0.2, "HtoD"), ("d2h_gbps", 0.2, "DtoH")]:
            left.bar(i + shift, r[key], width=0.36, color=COLOURS[direction], label=LABELS[direction] if i == 0 else None)
            left.annotate(f"{r[key]:.1f}", (i + shift, r[key]), xytext=(0, 3), textcoords="offset points",
                          ha="center", fontsize=7)
    left.set_xticks(range(len(links)), [r["name"] for r in links])
    left.set_xlim(-0.6, len(links) - 0.4)
    left.set_ylabel("pinned copy rate [GB/s] (events)")
    left.set_ylim(0, 1.25 * max(r[k] for r in links for k in ("h2d_gbps", "d2h_gbps")))  # room for the legend
    left.legend(fontsize=7, frameon=False, loc="upper center", ncol=2)
    left.set_title(links[0]["table"], loc="left", fontsize=9)
    for i, r in enumerate(pipeline):
        strip(right, i, r["samples"], COLOURS["HtoD"])
        right.hlines(r["bound_ms"], i - 0.4, i + 0.4, color="#d62728", linestyle=":", linewidth=1.5, zorder=4)
        right.annotate(f"median {r['median']:.3f} ms\nbound {r['bound_ms']:.3f} ms\nfastest "
                       f"{100 * (r['bound_ms'] - r['min']) / r['bound_ms']:.1f} % under it", (i + 0.42, r["median"]),
                       fontsize=7, va="center")
    right.set_xticks(range(len(pipeline)), [r["name"] for r in pipeline])
    right.set_xlim(-0.5, len(pipeline) + 0.1)
    right.set_ylabel("time per run [ms] (host wall time)")
    right.legend(handles=[matplotlib.lines.Line2D([], [], marker="o", linestyle="", color=COLOURS["HtoD"],
                                                  label=f"every run ({pipeline[0]['count']})"),
                          matplotlib.lines.Line2D([], [], color="black", label="median"),
                          matplotlib.lines.Line2D([], [], color="#d62728", linestyle=":", label="bound")],
                 fontsize=7, frameon=False, loc="center left")
    right.set_title(pipeline[0]["table"], loc="left", fontsize=9)
    if len(rows(report, "devices")) == 1:
        fig.suptitle("One GPU only: not drawn are the rows that need two GPUs (peer copies, both GPUs' host links "
                     "at once, the pipeline over two), which this run skipped", x=0.01, ha="left", fontsize=9)
    fig.tight_layout(rect=(0, 0, 1, 0.93))
    save(fig, out, caption(report, path))


PDL_COLOURS = {"plain": "#7f7f7f", "pdl": "#1f77b4", "early_trigger": "#ff7f0e", "edges": "#9467bd"}


def ch10_pdl(path, out):
    """Sections 1 and 2: each chain's time per kernel on a stream and as a graph, every sample with the
    median, and the overlap of every consecutive pair (kernel k's last block end less k+1's first start)."""
    report = load_report(path)
    groups = [(rows(report, "pdl_stream"), rows(report, "pdl_stream_overlap")),
              (rows(report, "pdl_graph"), rows(report, "pdl_graph_overlap"))]
    times = [r for timed, _ in groups for r in timed]
    overlaps = {r["name"]: r for _, pairs in groups for r in pairs}
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 3.8))
    for i, r in enumerate(times):
        colour = next((c for k, c in PDL_COLOURS.items() if r["name"].endswith(k)), "#7f7f7f")
        strip(left, i, r["samples"], colour)
        left.annotate(f"{r['median']:.2f}", (i, max(r["samples"])), xytext=(0, 3), textcoords="offset points",
                      ha="center", fontsize=7)
        if r["name"] in overlaps:
            strip(right, i, overlaps[r["name"]]["samples"], colour)
    right.axhline(0, color="black", linestyle="--", linewidth=0.8)
    right.annotate("> 0: kernel k+1 began\nbefore k ended", (-0.45, 0), xytext=(0, 3), textcoords="offset points",
                   fontsize=7)
    for ax in (left, right):
        ax.set_xticks(range(len(times)), [r["name"] for r in times], fontsize=7, rotation=30, ha="right",
                      rotation_mode="anchor")
        ax.set_xlim(-0.5, len(times) - 0.5)
        ax.axvline(len(groups[0][0]) - 0.5, color="#bbbbbb", linewidth=0.8)
        for x, label in [(-0.45, "on a stream"), (len(groups[0][0]) - 0.45, "as a graph")]:
            ax.text(x, 1.0, label, transform=ax.get_xaxis_transform(), fontsize=7, color="#555555", va="top")
        ax.set_ylim(top=ax.get_ylim()[1] + 0.12 * (ax.get_ylim()[1] - ax.get_ylim()[0]))  # room for the labels
    left.set_ylim(bottom=0)
    left.set_ylabel("time per kernel [us] (events / kernels)")
    left.set_title(f"{report['options']['kernels']} dependent kernels: every sample, the median as a bar", loc="left",
                   fontsize=9)
    step = next((r["step_us"] for r in overlaps.values() if "step_us" in r), None)
    right.set_ylabel("overlap per pair [us]" + (f"\n(in steps of {step:.3f} us)" if step else ""))
    right.set_title("Every consecutive pair: k's last block end less k+1's first start", loc="left", fontsize=9)
    fig.tight_layout()
    save(fig, out, caption(report, path))


def ch10_jacobi(path, out):
    """Section 3: the Jacobi solve's time per sweep under the three controls (every solve's time over its
    sweeps, the median as a bar), each with the CUDA calls the host made per solve."""
    report = load_report(path)
    table = rows(report, "jacobi")
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for i, r in enumerate(table):
        scale = {"ms": 1000.0, "us": 1.0}[r.get("unit", "ms")] / r["iterations"]  # per solve to us per sweep
        per_sweep = [ms * scale for ms in r.get("samples", [r["median"]])]
        ax.bar(i, lab_chapters.median(per_sweep), width=0.7, color=COLOURS["HtoD"], alpha=0.3)
        strip(ax, i, per_sweep, COLOURS["HtoD"])
        if isinstance(r.get("kernel_us_per_iteration"), (int, float)):
            ax.hlines(r["kernel_us_per_iteration"], i - 0.35, i + 0.35, color=COLOURS["kernel"], linestyle=":",
                      linewidth=1.5, zorder=4)
        cupti = "" if isinstance(r.get("kernel_us_per_iteration"), (int, float)) else "\nCUPTI: not recorded"
        ax.annotate(f"{lab_chapters.median(per_sweep):.1f} us\n{r['host_calls']:,} CUDA calls\nper solve{cupti}",
                    (i + 0.37, lab_chapters.median(per_sweep)), fontsize=7, va="center")
    ax.set_xticks(range(len(table)), [r["name"] for r in table])
    ax.set_xlim(-0.5, len(table) - 0.1)
    ax.set_ylim(bottom=0)
    ax.set_ylabel("time per sweep [us] (solve / sweeps)")
    handles = [matplotlib.lines.Line2D([], [], marker="o", linestyle="", color=COLOURS["HtoD"], label="every solve"),
               matplotlib.lines.Line2D([], [], color="black", label="median")]
    if any(isinstance(r.get("kernel_us_per_iteration"), (int, float)) for r in table):
        handles.append(matplotlib.lines.Line2D([], [], color=COLOURS["kernel"], linestyle=":",
                                               label="its kernels (CUPTI)"))
    ax.legend(handles=handles, fontsize=7, frameon=False, loc="upper right")
    ax.set_title(f"Jacobi, {report['options']['jacobi-n']:,} unknowns, {table[0]['iterations']} sweeps", loc="left",
                 fontsize=9)
    save(fig, out, caption(report, path))


def ch10_queue_scale(path, out):
    """Section 6: the launch queue's depth per CUDA_SCALE_LAUNCH_QUEUES value (a child process each), beside
    the documented factor times the unset depth."""
    report = load_report(path)
    table = rows(report, "queue_scale")
    unset = next((r["depth"] for r in table if r["name"] == "unset" and isinstance(r.get("depth"), (int, float))), None)
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for i, r in enumerate(table):
        if not isinstance(r.get("depth"), (int, float)):  # "timed out", "> N" or not measured
            ax.annotate(str(r.get("depth", r.get("seen", "not measured"))), (i, 1), xycoords=("data", "axes fraction"),
                        ha="center", va="top", fontsize=7, rotation=90)
            continue
        ax.bar(i, r["depth"], width=0.6, color=COLOURS["HtoD"], alpha=0.6)
        ratio = f" ({r['ratio_to_unset']:.2f}x)" if "ratio_to_unset" in r else ""
        ax.annotate(f"{r['depth']:,.0f}{ratio}", (i, r["depth"]), xytext=(0, 7), textcoords="offset points",
                    ha="center", fontsize=7)
    if unset:
        ax.scatter(range(len(table)), [r["documented_ratio"] * unset for r in table], marker="D", s=28,
                   facecolors="none", edgecolors=COLOURS["kernel"], linewidths=1.2, zorder=4,
                   label="documented factor x the unset depth")
        ax.legend(fontsize=7, frameon=False, loc="upper left")
    ax.set_yscale("log", base=2)  # 0.25x to 4x: equal steps
    ax.yaxis.set_major_formatter(matplotlib.ticker.StrMethodFormatter("{x:g}"))
    depths = [r["depth"] for r in table if isinstance(r.get("depth"), (int, float))]
    ax.set_ylim(min(depths) / 2 if depths else 1, 2.5 * max(depths) if depths else 2)
    read_as_one = [r["documented_ratio"] == 1 and r["name"] != "unset" for r in table]  # not a documented value
    ax.set_xticks(range(len(table)), [r["name"] + ("\n(read as 1x)" if one else "") for r, one in zip(table, read_as_one)])
    ax.set_xlabel("CUDA_SCALE_LAUNCH_QUEUES")
    ax.set_ylabel("queue depth [launches], log scale")
    ax.set_title("Empty kernels queued into a held stream until a launch waits", loc="left", fontsize=9)
    save(fig, out, caption(report, path))


URGENT, LONG_BEFORE, LONG_AFTER = "#d62728", "#c6dbef", "#2171b5"  # ch11: the urgent kernel; long blocks by start


def lanes_of(blocks):
    """(start, end, kind) blocks of one SM dealt into lanes, each block into the first lane free at its start:
    the slots the SM ran them in, as far as the stamps tell."""
    ends, dealt = [], []
    for start, end, kind in sorted(blocks):
        lane = next((i for i, e in enumerate(ends) if e <= start), len(ends))
        if lane == len(ends):
            ends.append(end)
        else:
            ends[lane] = end
        dealt.append((lane, start, end, kind))
    return dealt, max(1, len(ends))


def ch11_priorities(path, out, others=3):
    """Section 2 as a block timeline: the last sample of equal and of the greatest priority, one row per SM
    (those that ran an urgent block and the @others lowest-numbered ones that did not), every block a bar in the
    slot the SM ran it in, time from the long kernel's first block; the long blocks that began after the GPU saw
    the urgent launch and before the first urgent block are drawn dark."""
    report = load_report(path)
    cases = {r["name"]: r for r in rows(report, "priority_urgent")}
    shown_cases = [cases[name] for name in ("equal_priority", "greatest_priority") if name in cases]
    if not shown_cases:
        raise SystemExit(f"figures: {path} has no equal_priority or greatest_priority row")
    picked = []
    for r in shown_cases:
        urgent_sms = sorted({int(s) for s in r["urgent_sm"]})
        rest = sorted({int(s) for s in r["long_sm"]} - set(urgent_sms))[:others]
        picked.append((sorted(urgent_sms + rest), set(urgent_sms), rest))
    heights = [len(sms) for sms, _, _ in picked]
    fig, axes = plt.subplots(len(shown_cases), 1, figsize=(11, 1.6 + 0.28 * sum(heights)), sharex=True,
                             squeeze=False, gridspec_kw={"height_ratios": heights})
    end = max(e for r in shown_cases for e in r["long_end_us"] + r["urgent_end_us"])
    for ax, r, (sms, urgent_sms, rest) in zip(axes[:, 0], shown_cases, picked):
        first_urgent = min(r["urgent_start_us"])
        seen = r["launch_us"]  # when the GPU saw the launch flag, from the long kernel's first block
        went_first = sum(1 for s in r["long_start_us"] if seen <= s < first_urgent)
        after = sum(1 for s in r["long_start_us"] if s >= first_urgent)
        for row, sm in enumerate(sms):
            blocks = [(s, e, "long") for s, e, m in zip(r["long_start_us"], r["long_end_us"], r["long_sm"]) if m == sm]
            blocks += [(s, e, "urgent") for s, e, m in zip(r["urgent_start_us"], r["urgent_end_us"], r["urgent_sm"])
                       if m == sm]
            dealt, count = lanes_of(blocks)
            height = 0.84 / count
            for lane, start, stop, kind in dealt:
                colour = URGENT if kind == "urgent" else LONG_AFTER if seen <= start < first_urgent else LONG_BEFORE
                ax.broken_barh([(start, stop - start)], (row - 0.42 + lane * height, height * 0.92),
                               facecolors=colour, edgecolor=URGENT if kind == "urgent" else "white",
                               linewidth=0.8 if kind == "urgent" else 0.4, zorder=3 if kind == "urgent" else 2)
        ax.axvline(seen, color="black", linestyle="--", linewidth=1, zorder=4)
        ax.axvline(first_urgent, color=URGENT, linestyle=":", linewidth=1.2, zorder=4)
        ax.annotate("", (first_urgent, -0.9), xytext=(seen, -0.9), arrowprops={"arrowstyle": "->", "color": "black",
                                                                              "linewidth": 0.8}, annotation_clip=False)
        ax.text(seen + 0.01 * end, -1.0, f"this sample's start delay: {first_urgent - seen:.1f} us", ha="left",
                va="bottom", fontsize=8, zorder=5,
                bbox={"facecolor": "white", "alpha": 0.8, "edgecolor": "none", "pad": 1})
        ax.set_yticks(range(len(sms)), [f"SM {sm}" + ("" if sm in urgent_sms else " *") for sm in sms], fontsize=8)
        ax.set_ylim(len(sms) - 0.5, -1.6)
        ax.set_xlim(0, end * 1.01)
        ax.set_title(f"{r['name'].replace('_', ' ')} (priority {r['priority']}): start delay {r['median']:.1f} us, "
                     f"median of {r['count']}.\nThis sample: {went_first} long blocks began between the launch and "
                     f"the first urgent block, {after} after it", loc="left", fontsize=9)
    axes[-1, 0].set_xlabel("time from the long kernel's first block start [us] (%globaltimer), the last sample of each")
    patch = matplotlib.patches.Patch
    handles = [patch(color=LONG_BEFORE, label="long block"),
               patch(color=LONG_AFTER, label="long block begun after the launch was seen, before the first urgent one"),
               patch(facecolor=URGENT, edgecolor=URGENT, label="urgent block"),
               matplotlib.lines.Line2D([], [], color="black", linestyle="--", label="the GPU saw the urgent launch"),
               matplotlib.lines.Line2D([], [], color=URGENT, linestyle=":", label="the first urgent block began")]
    height = fig.get_figheight()
    fig.legend(handles=handles, loc="upper left", ncol=3, frameon=False, fontsize=8,
               bbox_to_anchor=(0.0, 1 - 0.35 / height))
    long_row = shown_cases[0]
    options = report["options"]
    fig.suptitle(f"An urgent kernel ({len(long_row['urgent_sm'])} blocks x {options['urgent-block-us']:g} us) launched "
                 f"while a long one runs ({len(long_row['long_sm'])} blocks x {options['long-block-us']:g} us), "
                 "its blocks by SM", x=0.01, y=1 - 0.05 / height,
                 ha="left", va="top", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.55 / height))
    note = (f"Rows: the SMs that ran an urgent block in that sample and (*) the {others} lowest-numbered SMs that ran "
            f"none, of the {len({int(s) for s in long_row['long_sm']})} SMs that ran long blocks; each SM's blocks "
            "dealt into lanes, a block into the first lane free at its start.")
    save(fig, out, note + "\n" + caption(report, path))


def ch11_host_gaps(path, out):
    """Section 4: every idle gap between two kernels of the chain, with no host function, with one, and with a
    host thread that waits on an event; the median as a bar, on a log axis (2 us beside 40 us)."""
    report = load_report(path)
    table = rows(report, "host_chain")
    labels = {"no_host_function": "no host function", "host_function": "a host function\n(cudaLaunchHostFunc)",
              "event_thread": "an event thread\n(a host thread waits\non an event)"}
    fig, ax = plt.subplots(figsize=(8, 3.8))
    for i, r in enumerate(table):
        strip(ax, i, r["samples"], SERIES[i % len(SERIES)][0])
        ax.annotate(f"median {r['median']:.2f} us\n{r['count']} gaps, {r['host_calls']} host calls\n"
                    f"{r['per_kernel_us']:.1f} us per kernel", (i + 0.33, r["median"]), fontsize=8, va="center")
    ax.axhline(report["options"]["kernel-us"], color="#7f7f7f", linestyle=":", linewidth=1)
    ax.annotate(f"one kernel's spin ({report['options']['kernel-us']:g} us)", (-0.45, report["options"]["kernel-us"]),
                xytext=(0, 3), textcoords="offset points", fontsize=7, color="#555555")
    ax.set_yscale("log")
    values = [v for r in table for v in r["samples"]]
    ax.set_yticks([t for t in (1, 2, 5, 10, 20, 50, 100, 200, 500) if min(values) / 2 <= t <= 2 * max(values)])
    ax.yaxis.set_major_formatter(matplotlib.ticker.StrMethodFormatter("{x:g}"))
    ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.set_ylim(min(values) / 1.3, max(values) * 1.3)
    ax.set_xticks(range(len(table)), [labels.get(r["name"], r["name"]) for r in table])
    ax.set_xlim(-0.5, len(table) - 0.5 + 0.55)
    ax.set_ylabel("idle gap between kernels [us], log scale")
    ax.set_title(table[0]["table"] + ";\nevery gap a dot, the median a bar (k+1's first block start less k's last "
                 "block end, %globaltimer)", loc="left", fontsize=9)
    save(fig, out, caption(report, path))


CH12_VERSIONS = [("direct", "#7f7f7f", "o"), ("sync_staged", "#2ca02c", "s"), ("pipeline", "#1f77b4", "^"),
                 ("tma", "#ff7f0e", "D")]


def ch12_occupancy(path, out):
    """Section 2: each version's bandwidth as % of the device-to-device copy at each occupancy point; for the
    pipeline and TMA the best stage count (a line, labelled xN) and every stage count (pale dots)."""
    report = load_report(path)
    work = report["options"]["work"]
    table = [r for r in rows(report, "stage_sweep") if r.get("work") == work and "percent_of_copy" in r]
    points = list(dict.fromkeys(r["point"] for r in table))
    fig, ax = plt.subplots(figsize=(9, 4.2))
    for shift, (version, colour, marker) in zip((-0.12, -0.04, 0.04, 0.12), CH12_VERSIONS):
        best = []
        for i, point in enumerate(points):
            mine = [r for r in table if r["version"] == version and r["point"] == point]
            if not mine:
                continue
            top = max(mine, key=lambda r: r["percent_of_copy"])
            best.append((i + shift, top))
            if len(mine) > 1:
                ax.scatter([i + shift] * len(mine), [r["percent_of_copy"] for r in mine], s=12, color=colour,
                           alpha=0.3, linewidths=0, zorder=2)
                ax.annotate(f"x{top['stages']}", (i + shift, top["percent_of_copy"]), xytext=(0, 5),
                            textcoords="offset points", ha="center", fontsize=7, color=colour)
        label = version + (", best stage count (xN); pale: every count" if version in ("pipeline", "tma") else "")
        ax.plot([x for x, _ in best], [r["percent_of_copy"] for _, r in best], marker=marker, markersize=5,
                color=colour, label=label, zorder=3)
    copy = rows(report, "copy")[0]
    ax.axhline(100, color="black", linewidth=0.8)
    ax.annotate(f"the copy: {copy['gbps']:.0f} GB/s", (len(points) - 0.5, 100), xytext=(0, 3),
                textcoords="offset points", ha="right", fontsize=7)
    tiles = {p: sorted({r["tile_kib"] for r in table if r["point"] == p}) for p in points}
    ax.set_xticks(range(len(points)), [f"{p}\n{'/'.join(f'{t:g}' for t in tiles[p])} KiB tiles" for p in points],
                  fontsize=8)
    ax.set_xlim(-0.5, len(points) - 0.5)
    ax.set_ylim(0, 108)
    ax.set_xlabel("occupancy point: blocks launched per SM (1/SM full: tiles that fill shared memory)")
    ax.set_ylabel("bandwidth [% of the copy's]")
    ax.legend(fontsize=7, frameon=False, loc="lower left")
    ax.set_title(f"The staged kernel at {work} FMAs per element, {copy['mib']:g} MiB in and out: medians of "
                 f"{table[0]['count']} launches", loc="left", fontsize=9)
    fewer = {}  # point -> resident count -> runs where an SM holds fewer blocks than the point launches
    for r in table:
        launched = int(r["point"].split("/")[0])
        if r["resident_per_sm"] < launched:
            fewer.setdefault(r["point"], {}).setdefault(r["resident_per_sm"], []).append(r["name"].split(" @ ")[0])
    held = "".join(f"At {point} an SM holds only " + "; ".join(
        f"{count} blocks of {', '.join(names)}" for count, names in counts.items()) + " (the occupancy calculator).\n"
        for point, counts in fewer.items())
    save(fig, out, held + caption(report, path) + "; table stage_sweep")


def ch12_waiting(path, out):
    """Section 3: per version and stage count, the share of a tile's time each block waited and computed, at
    the first and the last occupancy point (thread 0 of each block, %globaltimer)."""
    report = load_report(path)
    table = [r for r in rows(report, "stage_stamps") if "wait_share" in r]
    points = list(dict.fromkeys(r["point"] for r in table))
    fig, axes = plt.subplots(1, len(points), figsize=(11, 4.8), sharey=True, squeeze=False)
    fig.subplots_adjust(left=0.11, right=0.88, top=0.8, bottom=0.17, wspace=0.42)
    names = list(dict.fromkeys(r["name"].split(" @ ")[0] for r in table))
    colours = {v: c for v, c, _ in CH12_VERSIONS}
    for ax, point in zip(axes[0], points):
        mine = {r["name"].split(" @ ")[0]: r for r in table if r["point"] == point}
        for i, name in enumerate(names):
            r = mine.get(name)
            if r is None:
                continue
            waiting = r["wait_share"]
            ax.barh(i, waiting, color=colours.get(r["version"], "#7f7f7f"), height=0.7)
            ax.barh(i, 100 - waiting, left=waiting, color=colours.get(r["version"], "#7f7f7f"), alpha=0.25, height=0.7)
            ax.text(waiting + 1, i, f"{waiting:.0f} %", va="center", fontsize=8)
            ax.text(102, i, f"{r['wait_ns']:,.0f} / {r['compute_ns']:,.0f}", va="center", fontsize=8)
        ax.text(102, -0.7, "wait / compute\na tile [ns]", va="bottom", fontsize=8, color="#555555")
        ax.set_xlim(0, 100)
        ax.set_xticks(range(0, 101, 25))
        ax.set_xlabel("share of each tile's time [%]:\nwaiting (dark), computing (pale)")
        ax.set_title(f"at {point}", loc="left", fontsize=9, pad=16)
    axes[0, 0].set_yticks(range(len(names)), names, fontsize=8)
    axes[0, 0].set_ylim(len(names) - 0.5, -0.5)
    fig.suptitle(f"{table[0]['table']}\nwaiting: from the previous tile done (or the first copy issued) to this "
                 "tile ready; computing: ready to stored", x=0.01, y=0.98, ha="left", va="top", fontsize=9)
    save(fig, out, caption(report, path) + "; table stage_stamps")


def ch13_readings(path, out):
    """Per workload: what a naive event pair read (median) and what the reference harness read,
    against CUPTI's true time; a refused workload shows the refusal instead of a reading."""
    report = load_report(path)
    naive = {r["name"]: r for r in rows(report, "naive")}
    reference = {r["name"]: r for r in rows(report, "reference")}
    names = list(naive)
    fig, ax = plt.subplots(figsize=(10, 4.2))
    for i, name in enumerate(names):
        truth = naive[name]["truth_us"]
        ax.scatter([i], [truth], marker="_", s=400, color="black", linewidths=2, zorder=3)
        ax.scatter([i - 0.15], [naive[name]["naive_median_us"]], marker="o", color="#d62728", zorder=4)
        reading = reference[name].get("reading_us")
        if isinstance(reading, (int, float)) and reading == reading:  # NaN: refused
            ax.scatter([i + 0.15], [reading], marker="s", color="#1f77b4", zorder=4)
            if str(reference[name].get("verdict", "")).startswith("host time"):
                ax.annotate("flagged:\nhost time", (i + 0.15, reading), fontsize=7, color="#1f77b4",
                            ha="left", va="bottom", xytext=(4, 4), textcoords="offset points")
        else:
            ax.annotate("refused", (i + 0.15, truth), fontsize=7, color="#1f77b4", rotation=90,
                        ha="center", va="bottom", xytext=(0, 6), textcoords="offset points")
    ax.set_yscale("log")
    ax.set_xticks(range(len(names)), [textwrap.fill(n, 12) for n in names], fontsize=7)
    ax.axvline(3.5, color="#999999", linewidth=0.8, linestyle=":")
    ax.text(1.5, 1.02, "honest", transform=ax.get_xaxis_transform(), ha="center", fontsize=8)
    ax.text(6.5, 1.02, "adversaries", transform=ax.get_xaxis_transform(), ha="center", fontsize=8)
    ax.set_ylabel("time [us] (log scale)")
    handles = [matplotlib.lines.Line2D([], [], marker="_", linestyle="", color="black", markersize=14,
                                       markeredgewidth=2, label="true time (CUPTI)"),
               matplotlib.lines.Line2D([], [], marker="o", linestyle="", color="#d62728",
                                       label="naive event pair (median)"),
               matplotlib.lines.Line2D([], [], marker="s", linestyle="", color="#1f77b4",
                                       label="reference harness")]
    fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(0.01, 0.93), ncol=3, frameon=False, fontsize=8)
    fig.suptitle("Each workload of the gallery: a naive pair and the reference harness against CUPTI",
                 x=0.01, ha="left", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.86))
    save(fig, out, caption(report, path))


def ch13_cheats(trace, out):
    """Chapter 13's --trace: one panel per recorded cheat (one call between a naive event pair),
    one lane per stream and one for the host's wait, time from the panel's first slice. The host
    span runs from cudaEventRecord(start) to cudaEventSynchronize(stop) returning, so the stop
    event completed inside it, at least the pair's reading (in the span's name) after its start:
    that stretch is shaded; the work still running after it is the cheat."""
    import re
    slices, names, device = trace_events(trace)
    regions = [e for e in slices if e.get("cat") == "region"]
    if not regions:
        raise SystemExit(f"figures: {trace} has no recorded variant (no region slice)")
    fig, axes = plt.subplots(len(regions), 1, figsize=(9, 1.2 + 1.3 * len(regions)), squeeze=False)
    seen = set()
    for ax, region in zip(axes[:, 0], regions):
        inside = [e for e in slices if e.get("cat") != "region" and region["ts"] <= e["ts"] < region["ts"] + region["dur"]]
        if not inside:
            raise SystemExit(f"figures: {trace}: nothing recorded in '{region['name']}'")
        host = [e for e in inside if e.get("cat") == "host"]
        gpu = [e for e in inside if e.get("cat") != "host"]
        lanes = sorted({e["tid"] for e in gpu}, key=lambda t: natural(names.get(t, str(t))))
        lanes += sorted({e["tid"] for e in host})
        first = min(e["ts"] for e in inside)
        span = max(max(e["ts"] + e["dur"] for e in inside) - first, 1e-3)
        for lane, tid in enumerate(lanes):
            for e in (e for e in inside if e["tid"] == tid):
                kind = kind_of(e)
                seen.add(kind)
                ax.broken_barh([(e["ts"] - first, max(e["dur"], span / 250))], (lane - 0.4, 0.8),
                               facecolors=COLOURS.get(kind, "#7f7f7f"), edgecolor="none")
        gpu_end = max((e["ts"] + e["dur"] for e in gpu), default=first)
        title = region["name"]
        for wait in host:
            read = re.search(r"the pair read ([0-9.]+) us", wait.get("name", ""))
            returned = wait["ts"] + wait["dur"] - first
            earliest = wait["ts"] - first + float(read.group(1)) if read else returned
            ax.axvspan(min(earliest, returned), returned, color="#d62728", alpha=0.25, linewidth=0, zorder=0)
            ax.axvline(returned, color="#d62728", linewidth=1, linestyle="--")
            after = gpu_end - first - returned
            title += (f": the pair read {read.group(1)} us; the GPU's work ended {abs(after):.1f} us "
                      f"{'after' if after >= 0 else 'before'} cudaEventSynchronize(stop) returned") if read else ""
        ax.set_yticks(range(len(lanes)), [names.get(t, str(t)) for t in lanes], fontsize=8)
        ax.invert_yaxis()
        ax.set_xlim(0, span)
        ax.set_title(textwrap.fill(title, 110), loc="left", fontsize=8)
    axes[-1, 0].set_xlabel("time from each panel's first recorded slice [us] (CUPTI's clock)")
    handles = [matplotlib.patches.Patch(color=COLOURS.get(k, "#7f7f7f"), label=LABELS.get(k, k)) for k in sorted(seen)]
    handles.append(matplotlib.patches.Patch(color="#d62728", alpha=0.25, label="the stop event completed in here"))
    fig.legend(handles=handles, loc="upper right", bbox_to_anchor=(1, 0.93), ncol=len(handles), frameon=False,
               fontsize=7)
    fig.suptitle("Chapter 13: two cheats, one call each between a naive event pair, against the stop event",
                 x=0.01, ha="left", fontsize=10)
    fig.tight_layout(rect=(0, 0.03, 1, 0.88))
    save(fig, out, f"{device}; data: {shown(trace)}; shaded: from the host's cudaEventRecord(start) plus the "
                   "pair's reading to cudaEventSynchronize(stop) returning")


def size_label(size):
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale:
            return f"{size / scale:g} {unit}"
    return f"{size} B"


# --- every committed figure --------------------------------------------------------------

# (chapter, figure, function) for every chapter figure the pages show, in the order they are drawn.
CHAPTER_FIGURES = [("ch01_kernel_launch", "bandwidth", ch01_bandwidth),
                   ("ch03_events", "vs_cupti", ch03_events_vs_cupti),
                   ("ch05_overlap", "chunks", ch05_chunks),
                   ("ch06_pinned_memory", "bandwidth", ch06_bandwidth),
                   ("ch07_cache_and_clock", "samples", ch07_samples),
                   ("ch08_launch_and_graphs", "graphs", ch08_graphs),
                   ("ch02_sync_pitfalls", "timers", ch02_timers),
                   ("ch02_sync_pitfalls", "waits", ch02_waits),
                   ("ch05_overlap", "queues", ch05_queues),
                   ("ch06_pinned_memory", "calls", ch06_calls),
                   ("ch07_cache_and_clock", "clock", ch07_clock),
                   ("ch07_cache_and_clock", "warm_cold", ch07_warm_cold),
                   ("ch08_launch_and_graphs", "queue", ch08_queue),
                   ("ch09_multi_gpu", "one_gpu", ch09_one_gpu),
                   ("ch10_dependent_launch", "pdl", ch10_pdl),
                   ("ch10_dependent_launch", "jacobi", ch10_jacobi),
                   ("ch10_dependent_launch", "queue_scale", ch10_queue_scale),
                   ("ch11_who_gets_the_gpu", "priorities", ch11_priorities),
                   ("ch11_who_gets_the_gpu", "host_gaps", ch11_host_gaps),
                   ("ch12_async_copies", "occupancy", ch12_occupancy),
                   ("ch12_async_copies", "waiting", ch12_waiting),
                   ("ch13_trustworthy_timer", "readings", ch13_readings)]
# (chapter, title) of every Gantt chart drawn from a trace the chapter wrote with --trace.
GANTT_FIGURES = [("ch02_sync_pitfalls", "Chapter 02: which calls waited, as CUPTI recorded them"),
                 ("ch04_streams", "Chapter 04: ten arrays on one stream and on ten"),
                 ("ch05_overlap", "Chapter 05: sequential, V1 and V2 as CUPTI recorded them"),
                 ("ch06_pinned_memory", "Chapter 06: the four copies as CUPTI recorded them")]
# (chapter, figure, function) of every figure drawn from a trace with marks a generic Gantt does not
# draw; drawn once a kept run holds the trace, else skipped with a note (trace_notes).
TRACE_FIGURES = [("ch13_trustworthy_timer", "cheats", ch13_cheats)]


def figure_jobs(run, kept=None):
    """(chapter, figure file name, function drawing it into a path) for every figure whose data
    lies in @run (a chapter named in @kept is drawn from that folder instead)."""
    kept = kept or {}
    jobs = []
    for name, figure, draw in CHAPTER_FIGURES:
        data = kept.get(name, run) / f"{name}.json"
        if data.exists():
            jobs.append((name, f"{name}.{figure}.svg", lambda target, draw=draw, data=data: draw(data, target)))
    for name, title in GANTT_FIGURES:
        trace = run / f"{name}.trace.json"
        if trace.exists():
            jobs.append((name, f"{name}.gantt.svg",
                         lambda target, trace=trace, title=title: gantt(trace, target, title, f"data: {shown(trace)}")))
    for name, figure, draw in TRACE_FIGURES:
        trace = kept.get(name, run) / f"{name}.trace.json"
        if trace.exists():
            jobs.append((name, f"{name}.{figure}.svg", lambda target, draw=draw, trace=trace: draw(trace, target)))
    return jobs


def trace_notes(run, kept=None):
    """A line for each figure of TRACE_FIGURES whose trace the run (or its kept folder) lacks."""
    kept = kept or {}
    return [f"figures: {name}.{figure}.svg not drawn: {shown(kept.get(name, run))} has no {name}.trace.json "
            "(the chapter writes it with --trace; scripts/gpu-check.sh's step timelines does)"
            for name, figure, _ in TRACE_FIGURES if not (kept.get(name, run) / f"{name}.trace.json").exists()]


def chapter_figures(run, out, kept=None):
    """Draws every figure the pages show into @out and returns their paths; @kept names the
    chapters drawn from another run than @run (KEPT when no --run is given)."""
    made = []
    for _, file_name, draw in figure_jobs(run, kept):
        draw(out / file_name)
        made.append(out / file_name)
    return made


def any_run_figures(run, out):
    """Every figure of a schema-matching run folder (a learner's tour, a kept run) drawn into @out.
    Returns (drawn, not drawn): [(chapter, path)] and [(chapter, file name, why)]; a figure whose
    table this run lacks (an older printout, a section the chapter skipped) is not drawn, and says why."""
    refuse_other_schemas(run)
    drawn, missed = [], []
    for name, file_name, draw in figure_jobs(run):
        try:
            draw(out / file_name)
            drawn.append((name, out / file_name))
        except SystemExit as error:  # rows() and load_report() say what is missing
            plt.close("all")
            missed.append((name, file_name, str(error)))
        except (KeyError, IndexError, ValueError, TypeError, ZeroDivisionError) as error:
            plt.close("all")
            missed.append((name, file_name, f"figures: {name} lacks what this figure draws ({error!r})"))
    return drawn, missed


def refuse_other_schemas(run):
    """Exits with a message when a chapter's JSON in @run is of another schema than SCHEMA."""
    files = sorted(p for p in pathlib.Path(run).glob("ch[0-9][0-9]_*.json") if "." not in p.stem)
    if not files:
        raise SystemExit(f"figures: {run} holds no chapter JSON (chNN_name.json)")
    for path in files:
        load_report(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", nargs="?", default="all", choices=["all", "gantt"])
    parser.add_argument("trace", nargs="?", help="for gantt: a trace written with --trace")
    parser.add_argument("--out", help="for gantt: the SVG to write (default: the trace's name with .svg); "
                        "with --run: the folder to draw that run's figures into (default: docs/figures)")
    parser.add_argument("--check", action="store_true", help="compare with the committed figures instead")
    parser.add_argument("--run", help="the run to draw every chapter from (default: the kept runs, RUN and KEPT)")
    args = parser.parse_args()
    if args.command == "gantt":
        if not args.trace:
            parser.error("gantt needs a trace file")
        out = args.out or str(pathlib.Path(args.trace).with_suffix(".svg"))
        gantt(args.trace, out)
        print(f"figures: wrote {out}")
        return 0
    run, kept = (pathlib.Path(args.run), {}) if args.run else (RUN, KEPT)
    if args.run and args.out and not args.check:
        out = pathlib.Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        drawn, missed = any_run_figures(run, out)
        for _, file_name, why in missed:
            print(f"figures: {file_name} not drawn: {why}")
        print(f"figures: wrote {len(drawn)} figures of {run} into {out}")
        return 0
    for note in trace_notes(run, kept):
        print(note)
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            made = chapter_figures(run, pathlib.Path(tmp), kept)
            stale = [p.name for p in made if not (FIGURES / p.name).exists()
                     or (FIGURES / p.name).read_bytes() != p.read_bytes()]
            extra = sorted({p.name for p in FIGURES.glob("*.svg")} - {p.name for p in made})
            for name in stale:
                print(f"figures: docs/figures/{name} is not what python/figures.py draws from {run}")
            for name in extra:
                print(f"figures: docs/figures/{name} is drawn by nothing")
            print(f"figures: {len(made) - len(stale)} of {len(made)} figures match their data")
            return 1 if stale or extra else 0
    FIGURES.mkdir(parents=True, exist_ok=True)
    made = chapter_figures(run, FIGURES, kept)
    print(f"figures: wrote {len(made)} figures into {FIGURES.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
