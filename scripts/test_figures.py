#!/usr/bin/env python3
"""CPU tests of python/figures.py's figures drawn from a trace (TRACE_FIGURES): chapter 13's cheats
drawn from a small made-up trace in the format common/timeline/trace.cpp writes, and the note when a
run has no trace. Registered with ctest as tools.figures (label cpu); needs matplotlib, from this
Python or build/tools (scripts/tools installs it): python3 scripts/test_figures.py
"""
import io
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.dont_write_bytecode = True  # no __pycache__ in the source tree

try:
    import matplotlib  # noqa: F401
except ImportError:
    if os.environ.get("LAB_FIGURES_TEST_REEXEC"):
        sys.exit("test_figures: matplotlib is missing even in build/tools (python/requirements-tools.txt)")
    tools = subprocess.run([str(ROOT / "scripts" / "tools")], check=True, capture_output=True, text=True)
    python = pathlib.Path(tools.stdout.strip()) / "python"
    os.environ["LAB_FIGURES_TEST_REEXEC"] = "1"
    os.execv(str(python), [str(python), str(pathlib.Path(__file__).resolve()), *sys.argv[1:]])

sys.path.insert(0, str(ROOT / "python"))
import figures  # noqa: E402

CH13 = "ch13_trustworthy_timer"


def made_up_trace():
    """Two recorded cheats as chapter 13 writes them: the side stream's 1 ms kernel, the late
    copy's add and copy, and the host's wait, on one time axis (us)."""
    def meta(name, tid, value):
        return {"name": name, "ph": "M", "pid": 0, "tid": tid, "args": {"name": value}}

    def piece(name, cat, ts, dur, tid, **args):
        return {"name": name, "cat": cat, "ph": "X", "ts": ts, "dur": dur, "pid": 0, "tid": tid, "args": args}

    wait = "cudaEventRecord(start) until cudaEventSynchronize(stop) returned; the pair read {} us"
    return {"traceEvents": [
        {"name": "process_name", "ph": "M", "pid": 0, "args": {"name": "device 0: Made-up GPU"}},
        meta("thread_name", 0, "chapter"), meta("thread_name", 1, "the side stream"),
        meta("thread_name", 2, "the host"), meta("thread_name", 3, "the caller's stream"),
        meta("thread_name", 4, "the copy stream"),
        piece("side stream, joined late: one call between a naive event pair", "region", 0, 1100, 0),
        piece("add_then_spin", "kernel", 20, 1000, 1, stream="the side stream"),
        piece(wait.format("4.10"), "host", 5, 30, 2),
        piece("output copied late: one call between a naive event pair", "region", 2000, 100, 0),
        piece("add", "kernel", 2010, 5, 3, stream="the caller's stream"),
        piece("copy DtoD 32 MiB", "memcpy", 2016, 40, 4, stream="the copy stream", bytes=33554432,
              direction="DtoD"),
        piece(wait.format("6.20"), "host", 2004, 20, 2)]}


class TraceFigures(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = pathlib.Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def test_ch13_cheats_from_a_made_up_trace(self):
        (self.dir / f"{CH13}.trace.json").write_text(json.dumps(made_up_trace()))
        jobs = {file_name: draw for name, file_name, draw in figures.figure_jobs(self.dir) if name == CH13}
        self.assertIn(f"{CH13}.cheats.svg", jobs)
        self.assertEqual(figures.trace_notes(self.dir), [])
        out = self.dir / "cheats.svg"
        jobs[f"{CH13}.cheats.svg"](out)
        svg = out.read_text()
        self.assertTrue(svg.startswith("<?xml"))
        # Two panels, each titled with its region; text is drawn as paths, so look at the titles'
        # ids, one per axes: two axes, and the legend's shaded stop-event stretch.
        self.assertEqual(svg.count('id="axes_'), 2)

    def test_a_region_without_work_is_refused(self):
        trace = made_up_trace()
        trace["traceEvents"] = [e for e in trace["traceEvents"] if e.get("cat") in (None, "region")]
        path = self.dir / f"{CH13}.trace.json"
        path.write_text(json.dumps(trace))
        with self.assertRaises(SystemExit):
            figures.ch13_cheats(path, self.dir / "cheats.svg")

    def test_a_run_without_the_trace_is_noted(self):
        jobs = [file_name for name, file_name, _ in figures.figure_jobs(self.dir) if name == CH13]
        self.assertEqual(jobs, [])
        notes = figures.trace_notes(self.dir)
        self.assertEqual(len(notes), 1)
        self.assertIn(f"{CH13}.cheats.svg not drawn", notes[0])
        self.assertIn(f"no {CH13}.trace.json", notes[0])

    def test_the_kept_runs_note_or_draw(self):
        # Today no kept run holds chapter 13's trace: figures.py says so instead of drawing.
        kept = figures.KEPT.get(CH13, figures.RUN)
        has_trace = (kept / f"{CH13}.trace.json").exists()
        self.assertEqual(bool(figures.trace_notes(figures.RUN, figures.KEPT)), not has_trace)
        with redirect_stdout(io.StringIO()):
            names = [file_name for _, file_name, _ in figures.figure_jobs(figures.RUN, figures.KEPT)]
        self.assertEqual(f"{CH13}.cheats.svg" in names, has_trace)


if __name__ == "__main__":
    unittest.main()
