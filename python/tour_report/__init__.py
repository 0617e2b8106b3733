"""scripts/report: your tour's JSON beside the kept runs, as a folder that opens offline.

  scripts/report build/release/tour                 your tour against the kept H200 and H100 runs
  scripts/report RUN --reference OTHER [OTHER ...]  against other run folders (any kept run)
  scripts/report RUN --out DIR --no-figures         into DIR, without the redrawn figures

Writes DIR/index.html, DIR/summary.json (every cell of the page, for scripts) and DIR/assets/
(the figures python/figures.py draws from your JSON, the kept run's figures, plotly.min.js for the
interactive timelines of the CUPTI traces in your folder), and prints one line per chapter. Exit
codes: 0 the report was written, 2 a folder it cannot read (no chapter JSON, another JSON schema).
"""
import argparse
import json
import pathlib
import shutil
import sys

from . import page, timelines
from .runs import Run, RunRefused

ROOT = pathlib.Path(__file__).resolve().parents[2]
KEPT_RUNS = [ROOT / "docs" / "results" / "h200-2026-12-02e", ROOT / "docs" / "results" / "h100-2026-11-25" / "run5"]
TIMELINE_TITLES = {"ch02_sync_pitfalls": "Chapter 02: which calls waited",
                   "ch04_streams": "Chapter 04: ten arrays on one stream and on ten",
                   "ch05_overlap": "Chapter 05: sequential, V1 and V2",
                   "ch06_pinned_memory": "Chapter 06: the four copies",
                   "ch13_trustworthy_timer": "Chapter 13: two cheats between a naive event pair"}


def draw_figures(yours, assets, notes):
    """{chapter: [[(src, caption)]]}: every figure drawn from your JSON, beside the kept run's figure."""
    sys.path.insert(0, str(ROOT / "python"))
    import figures  # matplotlib, pinned in python/requirements-tools.txt
    mine = assets / "figures" / "yours"
    kept = assets / "figures" / "kept"
    mine.mkdir(parents=True)
    kept.mkdir(parents=True)
    drawn, missed = figures.any_run_figures(yours.folder, mine)
    same_run = yours.folder.resolve() == figures.RUN.resolve()
    cells = {}
    for name, path in drawn:
        pair = [(f"assets/figures/yours/{path.name}", f"your GPU: {path.name}")]
        committed = figures.FIGURES / path.name
        if committed.exists() and not same_run:
            shutil.copyfile(committed, kept / path.name)
            pair.append((f"assets/figures/kept/{path.name}", f"the kept run ({figures.RUN.name}): {path.name}"))
        cells.setdefault(name, []).append(pair)
    notes.extend(f"{file_name} not drawn from your run: {why}" for _, file_name, why in missed)
    return cells


def draw_timelines(yours, assets):
    """{chapter: [div]}: an interactive timeline of every CUPTI trace in your folder."""
    divs = {}
    for name, trace in yours.traces().items():
        title = TIMELINE_TITLES.get(name, name) + ", as CUPTI recorded it on your GPU"
        divs.setdefault(name, []).append(timelines.figure_div(timelines.timeline(trace, title), f"timeline-{name}"))
    blocks = yours.chapters.get("ch11_who_gets_the_gpu")
    fig = blocks and timelines.block_timeline(blocks.path, "Chapter 11: when the urgent blocks began, "
                                              "as the block recorder read them on your GPU")
    if fig:
        divs.setdefault(blocks.name, []).append(timelines.figure_div(fig, "timeline-ch11_who_gets_the_gpu"))
    if divs:
        timelines.write_plotly_js(assets)
    return divs


def prepare(out):
    """An empty folder at @out; a folder holding something other than an earlier report is refused."""
    if out.exists() and any(out.iterdir()) and not (out / "summary.json").exists():
        raise RunRefused(f"{out} is not empty and holds no earlier report: choose another --out")
    shutil.rmtree(out, ignore_errors=True)
    (out / "assets").mkdir(parents=True)


def size_of(folder):
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def main(argv=None):
    parser = argparse.ArgumentParser(prog="scripts/report", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tour", help="a folder of chapters' JSON: your tour (build/release/tour) or a kept run")
    parser.add_argument("--out", default=str(ROOT / "build" / "report"), help="the report's folder (build/report)")
    parser.add_argument("--reference", nargs="+", help="the runs to compare with (the kept H200 and H100 runs)")
    parser.add_argument("--no-figures", action="store_true", help="leave out the figures (a smaller folder)")
    args = parser.parse_args(argv)
    try:
        yours = Run(args.tour)
        folders = [pathlib.Path(f) for f in (args.reference or KEPT_RUNS)]
        references = [Run(f) for f in folders if f.resolve() != yours.folder.resolve()]
        labels = [r.label for r in references]
        for r in references:  # two runs of one GPU on one day (the H100's runs 5 and 6) keep apart
            if labels.count(r.label) > 1:
                r.label += f" ({r.folder.name})"
        out = pathlib.Path(args.out)
        prepare(out)
    except RunRefused as refused:
        print(f"report: {refused}", file=sys.stderr)
        return 2
    names = sorted(set(yours.chapters).union(*(r.chapters for r in references)))
    rows = [page.chapter_rows(yours, references, name) for name in names]
    notes = []
    figure_cells = {} if args.no_figures else draw_figures(yours, out / "assets", notes)
    timeline_divs = draw_timelines(yours, out / "assets")
    (out / "index.html").write_text(page.index_html(yours, references, rows, figure_cells, timeline_divs, notes),
                                    encoding="utf-8")
    describe = lambda run: {"folder": run.shown, "device": run.device, "driver": run.driver,  # noqa: E731
                            "date": run.date, "label": run.label}
    summary = {"yours": describe(yours), "references": [describe(r) for r in references], "chapters": rows}
    (out / "summary.json").write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for row in rows:
        print(page.summary_line(row, references))
    for note in notes:
        print(f"report: {note}")
    print(f"report: wrote {out / 'index.html'} ({size_of(out) / 1e6:.1f} MB in all); open it in a browser")
    return 0
