"""A run folder (a learner's tour, a kept run in docs/results/) and what each chapter's JSON says.

Reads the chapters' JSON of schema 2 (common/harness/report.hpp); a folder holding another schema is
refused (RunRefused) rather than shown as wrong cells. Verdicts are the chapters' own: a check's
"passed" and "judged" as the chapter computed and printed them; nothing here judges a number.
"""
import json
import pathlib
import re

SCHEMA = 2
REQUIRED = ("schema", "chapter", "date", "device", "results", "checks", "findings", "passed")
CHAPTER_FILE = re.compile(r"^ch\d\d_[a-z0-9_]+\.json$")  # not chNN_name.trace.json, not .one-device.json
SKIPPED_SUFFIX = ".skipped"  # lab::skipped (common/harness/report.hpp)
PARTLY_SKIPPED = "partly skipped"  # chapter 09 sums its skipped sections up itself


class RunRefused(Exception):
    """A folder the report cannot read: no chapter JSON, or JSON of another shape."""


def base_id(finding_id):
    """The finding's id without the branch it took: "both_directions.one_copy_engine" -> "both_directions"."""
    return finding_id.split(".", 1)[0]


class Chapter:
    """One chapter's JSON: its checks, findings, skipped sections and results."""

    def __init__(self, path, data):
        self.path = path
        self.data = data
        self.name = path.stem  # "ch05_overlap"
        self.checks = data["checks"]
        self.findings = data["findings"]

    @property
    def date(self):
        return self.data["date"]

    def skipped(self):
        """The names and texts of what the chapter did not run here, as it printed them."""
        return [f for f in self.findings if f["finding_id"].endswith(SKIPPED_SUFFIX) or f["name"] == PARTLY_SKIPPED]

    def observations(self):
        return [f for f in self.findings if f not in self.skipped()]

    def held(self):
        """(checks held, checks judged): a check holds when the chapter judged it and it passed."""
        judged = [c for c in self.checks if c["judged"]]
        return sum(1 for c in judged if c["passed"]), len(judged)

    def status(self):
        """"failed", "in part" or "in full", from the chapter's own verdict and skipped findings."""
        if not self.data["passed"]:
            return "failed"
        return "in part" if self.skipped() else "in full"

    def same_finding(self, finding_id):
        """This run's check or finding of the same id, else of the same id without its branch."""
        every = self.checks + self.findings
        exact = next((f for f in every if f["finding_id"] == finding_id), None)
        return exact or next((f for f in every if base_id(f["finding_id"]) == base_id(finding_id)), None)

    def row(self, table_id, name):
        return next((r for r in self.data["results"] if r.get("table_id") == table_id and r["name"] == name), None)


class Run:
    """A folder of chapters' JSON: its chapters by name, its device, driver and date."""

    def __init__(self, folder, label=None):
        self.folder = pathlib.Path(folder)
        if not self.folder.is_dir():
            raise RunRefused(f"{folder} is not a folder")
        files = sorted(p for p in self.folder.iterdir() if CHAPTER_FILE.match(p.name))
        if not files:
            raise RunRefused(f"{folder} holds no chapter JSON (chNN_name.json, as the tour writes)")
        self.chapters = {}
        for path in files:
            self.chapters[path.stem] = Chapter(path, read_chapter(path))
        first = next(iter(self.chapters.values())).data
        self.device = first["device"].get("name", "unknown GPU")
        self.driver = first["device"].get("driver_release", "unknown")
        self.cuda = first["device"].get("driver_cuda_version", "")
        self.date = min(c.date for c in self.chapters.values())[:10]
        self.label = label or f"{self.device}, {self.date}"
        root = pathlib.Path(__file__).resolve().parents[2]
        where = self.folder.resolve()
        self.shown = str(where.relative_to(root)) if where.is_relative_to(root) else str(self.folder)

    def traces(self):
        """{chapter name: trace path} for the CUPTI traces written with --trace."""
        return {p.name[: -len(".trace.json")]: p for p in sorted(self.folder.glob("ch[0-9][0-9]_*.trace.json"))}


def read_chapter(path):
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise RunRefused(f"{path} is not readable JSON ({error})") from None
    if not isinstance(data, dict):
        raise RunRefused(f"{path} is not a chapter's --json output (not an object)")
    if data.get("schema") != SCHEMA:
        raise RunRefused(f"{path} has JSON schema {data.get('schema', '1 (none given)')}; this report reads "
                         f"schema {SCHEMA} (common/harness/report.hpp): run the tour of this code again")
    missing = [key for key in REQUIRED if key not in data]
    if missing:
        raise RunRefused(f"{path} lacks {', '.join(missing)}: not a chapter's --json output of schema {SCHEMA}")
    for check in data["checks"]:
        lacking = [k for k in ("finding_id", "name", "passed", "judged", "detail") if k not in check]
        if lacking:
            raise RunRefused(f"{path}: a check lacks {', '.join(lacking)}: not schema {SCHEMA}")
    return data
