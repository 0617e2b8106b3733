"""Interactive timelines of the CUPTI traces a chapter writes with --trace (Chrome trace format,
common/timeline/trace.hpp), and of chapter 11's block recorder, drawn with plotly: one panel per
region of the trace (a schedule, a variant), one lane per stream, a bar per kernel, copy or memset
that shows its name, stream, start and duration on hover; zoom and pan are plotly's own. The page
loads plotly.min.js from the report's folder (copied from the pinned plotly package), never from the
network."""
import json
import pathlib
import re

import plotly.graph_objects as go
import plotly.offline
from plotly.subplots import make_subplots

# The same colours as the static Gantt charts (python/figures.py), so the two read alike.
COLOURS = {"HtoD": "#1f77b4", "DtoH": "#2ca02c", "kernel": "#ff7f0e", "memset": "#9467bd", "host": "#8c564b",
           "DtoD": "#17becf", "PtoP": "#e377c2"}
LABELS = {"HtoD": "copy host to device", "DtoH": "copy device to host", "host": "the host's call",
          "DtoD": "copy device to device", "PtoP": "copy between GPUs"}


def natural(text):
    """'stream 10' after 'stream 2'."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


def kind_of(event):
    if event.get("cat") == "memcpy":
        return event.get("args", {}).get("direction", "HtoD")
    return event.get("cat", "kernel")


def read_trace(path):
    """(regions, work, lane names, device) of a trace; a trace without regions is one region."""
    events = json.loads(pathlib.Path(path).read_text(encoding="utf-8"))["traceEvents"]
    names = {e["tid"]: e["args"]["name"] for e in events if e.get("ph") == "M" and e["name"] == "thread_name"}
    device = next((e["args"]["name"] for e in events if e.get("ph") == "M" and e["name"] == "process_name"), "")
    slices = [e for e in events if e.get("ph") == "X"]
    work = [e for e in slices if e.get("cat") != "region"]
    regions = [e for e in slices if e.get("cat") == "region"]
    if not regions and work:
        first = min(e["ts"] for e in work)
        regions = [{"name": pathlib.Path(path).stem, "ts": first, "dur": max(e["ts"] + e["dur"] for e in work) - first}]
    return regions, work, names, device


def timeline(path, title):
    """A plotly figure of the trace at @path: time in ms from each region's first slice."""
    regions, work, names, device = read_trace(path)
    inside_of = [[e for e in work if r["ts"] <= e["ts"] < r["ts"] + r["dur"]] for r in regions]
    lanes_of = [sorted({names.get(e["tid"], str(e["tid"])) for e in inside}, key=natural) for inside in inside_of]
    heights = [max(1, len(lanes)) + 1.5 for lanes in lanes_of]
    fig = make_subplots(rows=len(regions), cols=1, subplot_titles=[r["name"] for r in regions],
                        row_heights=heights, vertical_spacing=min(0.4 / max(1, len(regions) - 1), 0.15))
    shown = set()
    for row, (inside, lanes) in enumerate(zip(inside_of, lanes_of), start=1):
        first = min((e["ts"] for e in inside), default=0.0)
        span = max((e["ts"] + e["dur"] for e in inside), default=first + 1.0) - first
        shortest = span / 1000.0 / 300  # drawn at least this wide, or a 5 µs copy is invisible; hover tells the truth
        for kind in sorted({kind_of(e) for e in inside}):
            of_kind = [e for e in inside if kind_of(e) == kind]
            fig.add_trace(go.Bar(
                orientation="h", base=[(e["ts"] - first) / 1000.0 for e in of_kind],
                x=[max(e["dur"] / 1000.0, shortest) for e in of_kind],
                y=[names.get(e["tid"], str(e["tid"])) for e in of_kind],
                marker_color=COLOURS.get(kind, "#7f7f7f"), name=LABELS.get(kind, kind), legendgroup=kind,
                showlegend=kind not in shown,
                customdata=[[e["name"], names.get(e["tid"], str(e["tid"])), (e["ts"] - first) / 1000.0,
                             e["dur"]] for e in of_kind],
                hovertemplate="<b>%{customdata[0]}</b><br>%{customdata[1]}<br>start %{customdata[2]:.4f} ms"
                              "<br>duration %{customdata[3]:.1f} µs<extra></extra>"), row=row, col=1)
            shown.add(kind)
        fig.update_yaxes(categoryorder="array", categoryarray=list(reversed(lanes)), row=row, col=1)
    fig.update_xaxes(title_text="ms from the region's first recorded slice (each panel)", row=len(regions), col=1)
    fig.update_layout(title=dict(text=f"{title}<br><sup>{device}; data: {pathlib.Path(path).name}</sup>", x=0.01),
                      barmode="overlay", height=int(120 + 34 * sum(heights)), hovermode="closest",
                      margin=dict(l=10, r=10, t=90, b=40), legend=dict(orientation="h", y=-0.08),
                      template="plotly_white", autosize=True)
    return fig


def figure_div(fig, div_id):
    """@fig as a <div> and its <script>, for a page that loads plotly.min.js itself."""
    return fig.to_html(full_html=False, include_plotlyjs=False, div_id=div_id,
                       config={"responsive": True, "displaylogo": False})


def write_plotly_js(folder):
    """Copies the pinned plotly's plotly.min.js into @folder; returns its path."""
    target = pathlib.Path(folder) / "plotly.min.js"
    target.write_text(plotly.offline.get_plotlyjs(), encoding="utf-8")
    return target


def block_timeline(chapter_json, title, others=3):
    """Chapter 11's block recorder (table priority_urgent): for equal and the greatest priority, the last
    sample's blocks, one lane per SM (those that ran an urgent block and the @others lowest-numbered that
    did not, as python/figures.py's static figure), time from the long kernel's first block; None when the
    run has no such rows."""
    data = json.loads(pathlib.Path(chapter_json).read_text(encoding="utf-8"))
    cases = [r for r in data["results"] if r.get("table_id") == "priority_urgent"
             and r["name"] in ("equal_priority", "greatest_priority") and r.get("urgent_start_us")]
    if not cases:
        return None
    fig = make_subplots(rows=len(cases), cols=1, subplot_titles=[r["name"].replace("_", " ") for r in cases],
                        vertical_spacing=0.12)
    colours = {"long": "#9e9e9e", "urgent": "#d62728"}
    for row, case in enumerate(cases, start=1):
        urgent_sms = sorted({int(s) for s in case["urgent_sm"]})
        rest = sorted({int(s) for s in case["long_sm"]} - set(urgent_sms))[:others]
        lanes = set(urgent_sms + rest)
        for kind in ("long", "urgent"):
            blocks = [(s, e, int(m)) for s, e, m in zip(case[f"{kind}_start_us"], case[f"{kind}_end_us"],
                                                        case[f"{kind}_sm"]) if int(m) in lanes]
            fig.add_trace(go.Bar(
                orientation="h", base=[s for s, _, _ in blocks], x=[e - s for s, e, _ in blocks],
                y=[f"SM {m}" for _, _, m in blocks], marker_color=colours[kind],
                opacity=0.9 if kind == "urgent" else 0.5,
                name=f"{kind} kernel's blocks", legendgroup=kind, showlegend=row == 1,
                customdata=[[kind, m, s, e - s] for s, e, m in blocks],
                hovertemplate="<b>a block of the %{customdata[0]} kernel</b><br>SM %{customdata[1]}<br>"
                              "start %{customdata[2]:.3f} µs<br>duration %{customdata[3]:.3f} µs<extra></extra>"),
                row=row, col=1)
        fig.update_yaxes(categoryorder="array", categoryarray=[f"SM {m}" for m in sorted(lanes, reverse=True)],
                         row=row, col=1)
        if isinstance(case.get("launch_us"), (int, float)):  # when the GPU saw the urgent launch's flag
            fig.add_vline(x=case["launch_us"], line_dash="dash", line_width=1, row=row, col=1,
                          annotation_text="launch flag seen", annotation_position="top left")
    fig.update_xaxes(title_text="µs from the long kernel's first block", row=len(cases), col=1)
    device = data["device"].get("name", "")
    fig.update_layout(title=dict(text=f"{title}<br><sup>{device}; data: {pathlib.Path(chapter_json).name}, "
                                      "table priority_urgent</sup>", x=0.01),
                      barmode="overlay", height=int(160 + 22 * sum(len(set(c['urgent_sm'])) + others for c in cases)),
                      hovermode="closest", margin=dict(l=10, r=10, t=90, b=40), legend=dict(orientation="h", y=-0.08),
                      template="plotly_white", autosize=True)
    return fig
