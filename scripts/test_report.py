#!/usr/bin/env python3
"""CPU tests of scripts/report on the two kept runs: the H200 run of 2026-12-02 as "yours", run 5 of
the H100 (2026-11-25) as the reference. Pins the verdict cells (held on your GPU, did not hold, not
judged, not in this run), the chapter run in part, the chapter not run, the interactive timelines
(CUPTI traces, chapter 11's block recorder) with plotly.min.js in the folder and no network
address, a figure redrawn from your JSON beside the kept run's, and the refusal (exit 2) of a
folder of another JSON schema. Registered with ctest as tools.report (label cpu); runs anywhere
with PyPI or build/tools: python3 scripts/test_report.py
"""
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parent.parent
REPORT = ROOT / "scripts" / "report"
H200 = ROOT / "docs" / "results" / "h200-2026-12-02e"
H100 = ROOT / "docs" / "results" / "h100-2026-11-25" / "run5"


def report(*args):
    return subprocess.run([sys.executable, str(REPORT), *map(str, args)], capture_output=True, text=True,
                          timeout=600)


def copy_run(source, target, names=None):
    """The chapters' JSON and traces of @source (only @names when given) in a new folder @target."""
    target.mkdir()
    for path in source.glob("ch[0-9][0-9]_*.json"):
        if names is None or path.name.split(".")[0] in names:
            shutil.copyfile(path, target / path.name)
    return target


def edit(path, change):
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


class KeptRuns(unittest.TestCase):
    """The H200 run against the H100 run, every chapter, no figures (the figures are tested below)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.out = pathlib.Path(cls.tmp.name) / "report"
        cls.made = report(H200, "--reference", H100, "--out", cls.out, "--no-figures")
        cls.summary = json.loads((cls.out / "summary.json").read_text()) if cls.made.returncode == 0 else None
        cls.html = (cls.out / "index.html").read_text() if cls.made.returncode == 0 else ""

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def chapter(self, name):
        return next(c for c in self.summary["chapters"] if c["chapter"] == name)

    def check(self, chapter, finding_id):
        return next(c for c in self.chapter(chapter)["checks"] if c["finding_id"] == finding_id)

    def test_written(self):
        self.assertEqual(self.made.returncode, 0, self.made.stderr)
        self.assertEqual(self.summary["yours"]["device"], "NVIDIA H200")
        self.assertEqual(self.summary["yours"]["driver"], "580.159.04")
        self.assertEqual([r["device"] for r in self.summary["references"]], ["NVIDIA H100 80GB HBM3"])
        self.assertEqual(self.summary["references"][0]["date"], "2026-11-25")

    def test_every_check_held_on_the_h200(self):
        chapters = self.summary["chapters"]
        self.assertEqual(len(chapters), 13)
        cells = [c["yours"] for ch in chapters for c in ch["checks"]]
        self.assertEqual(set(cells), {"held"})
        self.assertEqual(self.html.count('verdict">held on your GPU</td>'), len(cells))
        for ch in chapters:
            self.assertEqual(ch["held"], ch["judged"], ch["chapter"])

    def test_h100_cells(self):
        # A check whose id took another branch on the H100 is matched by its id without the branch.
        self.assertEqual(self.check("ch07_cache_and_clock", "cooling_small")["references"][0]["verdict"], "held")
        # A check the H100 run did not print yet.
        self.assertEqual(self.check("ch06_pinned_memory", "unified_addressing")["references"][0]["verdict"],
                         "not in this run")
        self.assertEqual(self.check("ch05_overlap", "overlap_heavy")["references"][0]["verdict"], "held")
        self.assertIn("[PASS] overlap saves >= 10 %", self.check("ch05_overlap", "overlap_heavy")["printed"])

    def test_chapter_in_part(self):
        ch09 = self.chapter("ch09_multi_gpu")
        self.assertEqual(ch09["status"], "in part")
        self.assertTrue(any("needs 2 GPUs" in text for text in ch09["skipped"]))
        self.assertRegex(self.made.stdout, r"(?m)^ch09_multi_gpu: 2 of 2 checks held on your GPU \(in part\).*"
                                          r"partly skipped: 1\. ")
        self.assertEqual(self.chapter("ch05_overlap")["status"], "in full")

    def test_headlines(self):
        cells = {h["what"]: h for h in self.chapter("ch04_streams")["headlines"]}
        self.assertEqual(cells["speed-up of 10 streams"]["yours"], "1.70 x")
        self.assertEqual(cells["speed-up of 10 streams"]["references"], ["1.62 x"])
        two = {h["what"]: h for h in self.chapter("ch09_multi_gpu")["headlines"]}["chunked pipeline on 2 GPUs"]
        self.assertEqual(two["yours"], "not in this run")

    def test_one_line_per_chapter(self):
        lines = [line for line in self.made.stdout.splitlines() if re.match(r"ch\d\d_", line)]
        self.assertEqual(len(lines), 13)
        self.assertIn("ch05_overlap: 4 of 4 checks held on your GPU (in full) "
                      "[NVIDIA H100 80GB HBM3, 2026-11-25: 4 of 4]", lines)

    def test_timelines_offline(self):
        # The five CUPTI traces, and chapter 11's block recorder from its JSON.
        for name in ("ch02_sync_pitfalls", "ch04_streams", "ch05_overlap", "ch06_pinned_memory",
                     "ch11_who_gets_the_gpu", "ch13_trustworthy_timer"):
            self.assertIn(f'id="timeline-{name}"', self.html)
        self.assertTrue((self.out / "assets" / "plotly.min.js").stat().st_size > 1_000_000)
        self.assertIn('<script src="assets/plotly.min.js"></script>', self.html)
        self.assertNotRegex(self.html, r"""src=["']https?:""")
        self.assertNotIn("cdn.plot.ly", self.html)


class ChangedRuns(unittest.TestCase):
    """Hand-made changes to a copy of the H200 run: a check that failed, an instrumented run, a
    chapter that did not run, another schema."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = pathlib.Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def test_did_not_hold_and_not_judged(self):
        yours = copy_run(H200, self.dir / "yours", {"ch05_overlap", "ch01_kernel_launch", "ch03_events"})

        def fail(data):
            next(c for c in data["checks"] if c["finding_id"] == "overlap_heavy")["passed"] = False
            data["passed"] = False

        def instrumented(data):
            for c in data["checks"]:
                c["judged"] = c["kind"] != "timing"
        edit(yours / "ch05_overlap.json", fail)
        edit(yours / "ch01_kernel_launch.json", instrumented)
        (yours / "ch03_events.json").unlink()
        run = report(yours, "--reference", H100, "--out", self.dir / "out", "--no-figures")
        self.assertEqual(run.returncode, 0, run.stderr)
        summary = json.loads((self.dir / "out" / "summary.json").read_text())
        chapters = {c["chapter"]: c for c in summary["chapters"]}
        ch05 = chapters["ch05_overlap"]
        self.assertEqual(ch05["status"], "failed")
        self.assertEqual({c["finding_id"]: c["yours"] for c in ch05["checks"]}["overlap_heavy"], "did not hold")
        self.assertIn("ch05_overlap: 3 of 4 checks held on your GPU (failed)", run.stdout)
        ch01 = {c["finding_id"]: c["yours"] for c in chapters["ch01_kernel_launch"]["checks"]}
        self.assertEqual(ch01["launch_returns_early"], "not judged")
        self.assertEqual(ch01["error_reported"], "held")
        self.assertEqual(chapters["ch03_events"]["status"], "not run")
        self.assertEqual({c["references"][0]["verdict"] for c in chapters["ch03_events"]["checks"]}, {"held"})
        self.assertIn("ch03_events: not run on your GPU", run.stdout)
        html = (self.dir / "out" / "index.html").read_text()
        self.assertIn('<td class="not-held verdict">did not hold</td>', html)

    def test_refuses_another_schema(self):
        yours = copy_run(H200, self.dir / "yours", {"ch01_kernel_launch", "ch02_sync_pitfalls"})
        edit(yours / "ch02_sync_pitfalls.json", lambda data: data.update(schema=1))
        run = report(yours, "--reference", H100, "--out", self.dir / "out", "--no-figures")
        self.assertEqual(run.returncode, 2)
        self.assertIn("ch02_sync_pitfalls.json has JSON schema 1; this report reads schema 2", run.stderr)
        self.assertFalse((self.dir / "out" / "index.html").exists())

    def test_refuses_a_reference_of_another_schema(self):
        old = copy_run(H200, self.dir / "old", {"ch01_kernel_launch"})
        edit(old / "ch01_kernel_launch.json", lambda data: data.pop("schema"))
        run = report(H200, "--reference", old, "--out", self.dir / "out", "--no-figures")
        self.assertEqual(run.returncode, 2)
        self.assertIn("has JSON schema 1 (none given)", run.stderr)

    def test_refuses_a_folder_without_chapters(self):
        (self.dir / "empty").mkdir()
        run = report(self.dir / "empty", "--out", self.dir / "out")
        self.assertEqual(run.returncode, 2)
        self.assertIn("holds no chapter JSON", run.stderr)

    def test_two_runs_of_one_day(self):
        yours = copy_run(H200, self.dir / "yours", {"ch11_who_gets_the_gpu"})
        run = report(yours, "--reference", H100, H100.parent / "run6", "--out", self.dir / "out", "--no-figures")
        self.assertEqual(run.returncode, 0, run.stderr)
        labels = [r["label"] for r in json.loads((self.dir / "out" / "summary.json").read_text())["references"]]
        self.assertEqual(labels, ["NVIDIA H100 80GB HBM3, 2026-11-25 (run5)",
                                  "NVIDIA H100 80GB HBM3, 2026-11-25 (run6)"])

    def test_figures_beside_the_kept_run(self):
        yours = copy_run(H100, self.dir / "yours", {"ch01_kernel_launch"})
        run = report(yours, "--reference", H200, "--out", self.dir / "out")
        self.assertEqual(run.returncode, 0, run.stderr)
        assets = self.dir / "out" / "assets" / "figures"
        self.assertTrue((assets / "yours" / "ch01_kernel_launch.bandwidth.svg").exists())
        self.assertTrue((assets / "kept" / "ch01_kernel_launch.bandwidth.svg").exists())
        self.assertIn("NVIDIA H100 80GB HBM3", (assets / "yours" / "ch01_kernel_launch.bandwidth.svg").read_text())
        self.assertFalse((self.dir / "out" / "assets" / "plotly.min.js").exists())  # no trace, no timeline


if __name__ == "__main__":
    unittest.main(verbosity=2)
