#!/usr/bin/env python3
"""The figures of the chapter pages, drawn from the kept runs (issue 22).

  python/figures.py                 every figure, from the run named in RUN, into docs/figures/
  python/figures.py --check         draws them into a temporary folder and fails when one
                                    differs from the committed SVG (CI runs this)
  python/figures.py gantt TRACE.json [--out FILE.svg]
                                    a Gantt chart of any trace a chapter wrote with --trace
                                    (your own run: build/.../ch05_overlap --trace my.trace.json)

Reads the chapters' JSON of schema 2 (common/report.hpp), finding each table by its stable
table_id, never by its title; a JSON of another schema is refused with a message. Every
figure is captioned with the GPU, the driver, the date and the file it came from. Needs
matplotlib (python/requirements-tools.txt; scripts/tools installs it into build/tools).
"""
import argparse
import json
import pathlib
import sys
import tempfile

import matplotlib

matplotlib.use("svg")
import matplotlib.lines  # noqa: E402
import matplotlib.patches  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
RUN = ROOT / "docs" / "results" / "h100-2026-11-25"
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
        shortest = region["dur"] / 1000.0 / 250  # a slice is drawn at least this wide, or a 5 us copy is invisible
        for lane, tid in enumerate(lanes):
            for e in (e for e in inside if e["tid"] == tid):
                kind = kind_of(e)
                seen.add(kind)
                ax.broken_barh([((e["ts"] - region["ts"]) / 1000.0, max(e["dur"] / 1000.0, shortest))],
                               (lane - 0.4, 0.8), facecolors=COLOURS.get(kind, "#7f7f7f"), edgecolor="none")
        ax.set_yticks(range(len(lanes)), [names.get(t, str(t)) for t in lanes], fontsize=7 if len(lanes) > 4 else 9)
        ax.invert_yaxis()
        ax.set_xlim(0, region["dur"] / 1000.0)
        ax.set_title(f"{region['name']}: {region['dur'] / 1000.0:.3f} ms", loc="left", fontsize=9)
    axes[-1, 0].set_xlabel("time from the start of each panel [ms] (CUPTI); slices under 0.4 % of a panel are drawn at "
                           "that width")
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
    median = sorted(values)[len(values) // 2] if len(values) % 2 else sum(sorted(values)[len(values) // 2 - 1:
                                                                                      len(values) // 2 + 1]) / 2
    ax.hlines(median, position - 0.3, position + 0.3, color="black", linewidth=1.2, zorder=4)


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
    """Time against chunk count for sequential, V1 and V2, with the pipeline model and the lower bound."""
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
        ax.axhline(mine[0]["bound_ms"], color="#d62728", linestyle=":", label="lower bound (copies at their fastest)")
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


def size_label(size):
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale:
            return f"{size / scale:g} {unit}"
    return f"{size} B"


# --- every committed figure --------------------------------------------------------------

def chapter_figures(run, out):
    """(figure file, function) for every figure the pages show."""
    made = []
    for name, figure, draw in [("ch01_kernel_launch", "bandwidth", ch01_bandwidth),
                               ("ch03_events", "vs_cupti", ch03_events_vs_cupti),
                               ("ch05_overlap", "chunks", ch05_chunks),
                               ("ch06_pinned_memory", "bandwidth", ch06_bandwidth),
                               ("ch07_cache_and_clock", "samples", ch07_samples),
                               ("ch08_launch_and_graphs", "graphs", ch08_graphs)]:
        data = run / f"{name}.json"
        if data.exists():
            target = out / f"{name}.{figure}.svg"
            draw(data, target)
            made.append(target)
    for name, title in [("ch02_sync_pitfalls", "Chapter 02: which calls waited, as CUPTI recorded them"),
                        ("ch04_streams", "Chapter 04: ten arrays on one stream and on ten"),
                        ("ch05_overlap", "Chapter 05: sequential, V1 and V2 as CUPTI recorded them"),
                        ("ch06_pinned_memory", "Chapter 06: the four copies as CUPTI recorded them")]:
        trace = run / f"{name}.trace.json"
        if trace.exists():
            target = out / f"{name}.gantt.svg"
            gantt(trace, target, title, f"data: {shown(trace)}")
            made.append(target)
    return made


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", nargs="?", default="all", choices=["all", "gantt"])
    parser.add_argument("trace", nargs="?", help="for gantt: a trace written with --trace")
    parser.add_argument("--out", help="for gantt: the SVG to write (default: the trace's name with .svg)")
    parser.add_argument("--check", action="store_true", help="compare with the committed figures instead")
    parser.add_argument("--run", default=str(RUN), help="the kept run to draw from")
    args = parser.parse_args()
    if args.command == "gantt":
        if not args.trace:
            parser.error("gantt needs a trace file")
        out = args.out or str(pathlib.Path(args.trace).with_suffix(".svg"))
        gantt(args.trace, out)
        print(f"figures: wrote {out}")
        return 0
    run = pathlib.Path(args.run)
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            made = chapter_figures(run, pathlib.Path(tmp))
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
    made = chapter_figures(run, FIGURES)
    print(f"figures: wrote {len(made)} figures into {FIGURES.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
