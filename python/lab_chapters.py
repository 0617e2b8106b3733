"""Runs a C++ chapter of this repository and reads its --json report, so that a
Python script can print the chapter's figure beside PyTorch's, from the same
machine and the same run.

    report = run_chapter("ch01_kernel_launch", ["--n", "64Mi", "--reps", "10"], build_dir)
    row = find_row(report, "variants", "grid-stride float4")   # the table's stable id
    row["median"], row["bandwidth_gbps"]

The JSON is common/harness/report.hpp's, schema 2: {"results": [{"table_id", "table", "name", <fields>}], ...};
a row with samples also has "count", "min", "median", "max", "mean".
"""
import json
import os
import pathlib
import subprocess
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parent.parent


def no_gpu_reason():
    """Why PyTorch cannot run GPU work here (not installed, no CUDA GPU), or None."""
    try:
        import torch
    except ImportError:
        return "PyTorch is not installed"
    if not torch.cuda.is_available():
        return "PyTorch sees no CUDA GPU (torch.cuda.is_available() is False)"
    return None


def parse_count(text):
    """'64Mi' -> 67108864, '1000003' -> 1000003 (the chapters' own notation)."""
    units = {"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30}
    for suffix, factor in units.items():
        if text.endswith(suffix):
            return int(text[: -len(suffix)]) * factor
    return int(text)


def find_build_dir(given=None):
    """The C++ build tree: --build-dir, else $BUILD_DIR, else the first of
    build/gpu-check, build/release, build/* that holds chapter executables; None if none does."""
    candidates = [given, os.environ.get("BUILD_DIR"), REPO / "build" / "gpu-check", REPO / "build" / "release"]
    candidates += sorted((REPO / "build").glob("*")) if (REPO / "build").is_dir() else []
    for candidate in candidates:
        if candidate and (pathlib.Path(candidate) / "chapters").is_dir():
            return pathlib.Path(candidate).resolve()
    return None


def chapter_executable(name, build_dir):
    """build/<tree>/chapters/<NN_folder>/<name>, e.g. ch04_streams; None if it is not built."""
    if build_dir is None:
        return None
    for path in (pathlib.Path(build_dir) / "chapters").glob(f"*/{name}"):
        if path.is_file() and os.access(path, os.X_OK):
            return path
    return None


# Runs the scripts may share (scripts/gpu-check.sh sets both): LAB_CHAPTER_TOUR, a folder of the
# tour's JSON (every chapter run once with its default options), and LAB_CHAPTER_RUNS, a folder
# where each chapter run a script makes is kept under its arguments, for the next script that asks
# for the same. Unset, every call runs the chapter.
TOUR_ENV = "LAB_CHAPTER_TOUR"
RUNS_ENV = "LAB_CHAPTER_RUNS"
IGNORED_OPTIONS = {"json", "instrumented", "timeline", "trace"}  # where output goes, not what was measured


def _option_value(text):
    """'64Mi' -> 67108864, '0.5' -> 0.5, 'x' -> 'x': a command-line value as the JSON records it."""
    try:
        return parse_count(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def same_options(report, args):
    """Whether @report (a chapter's JSON) was a run with its default options in which every
    option of @args (["--n", "64Mi", ...]) had the value asked: what a run with @args would
    have measured. Only key-value pairs are compared; a flag or an unknown option never matches."""
    if report is None or report.get("instrumented"):
        return False
    options = report.get("options", {})
    if len(args) % 2:
        return False
    for key, text in zip(args[::2], args[1::2]):
        name = key[2:] if key.startswith("--") else None
        if name is None or name in IGNORED_OPTIONS or name not in options:
            return False
        value, recorded = _option_value(text), options[name]
        if isinstance(recorded, bool) or isinstance(value, str) != isinstance(recorded, str) or value != recorded:
            return False
    return True


def _runs_file(name, args):
    """LAB_CHAPTER_RUNS/<name>.<args joined>.json, or None when the variable is unset."""
    folder = os.environ.get(RUNS_ENV)
    if not folder:
        return None
    key = "_".join(a.lstrip("-") for a in args).replace("/", "-") or "defaults"
    return pathlib.Path(folder) / f"{name}.{key}.json"


def same_chapter(report, name):
    """Whether @report is chapter @name's: its JSON names the chapter's folder ("01_kernel_launch"
    for the program ch01_kernel_launch)."""
    return report is not None and name.startswith("ch") and report.get("chapter") == name[2:]


def shared_run(name, args):
    """A kept run of chapter @name that measured what @args asks (the tour's, or an earlier
    script's with the same arguments), with the file it came from; (None, None) if none."""
    tour = os.environ.get(TOUR_ENV)
    candidates = [(pathlib.Path(tour) / f"{name}.json", True)] if tour else []
    runs = _runs_file(name, args)
    if runs is not None:
        candidates.append((runs, False))
    for path, defaults_only in candidates:
        if not path.is_file():
            continue
        report = json.loads(path.read_text())
        if same_chapter(report, name) and (not defaults_only or same_options(report, args)):
            return report, path
    return None, None


def run_chapter(name, args, build_dir):
    """Runs chapter @name with @args and --json into a temporary file; returns the
    parsed report, or None (with the reason printed) when the chapter is not built
    or wrote no report. Its terminal output is not shown. Where LAB_CHAPTER_TOUR or
    LAB_CHAPTER_RUNS holds a run with the same options (shared_run), that run's
    figures are used instead, and the line printed says which file and when."""
    report, path = shared_run(name, args)
    if report is not None:
        print(f"  [C++] {name} {' '.join(args)}: figures from {path} (run {report.get('date', '?')}, same options)")
        return report
    executable = chapter_executable(name, build_dir)
    if executable is None:
        print(f"  [C++] {name} is not built (give --build-dir, or build it: cmake --build build/release --target {name})")
        return None
    with tempfile.TemporaryDirectory() as folder:
        out = pathlib.Path(folder) / f"{name}.json"
        done = subprocess.run([str(executable), *args, "--json", str(out)], capture_output=True, text=True)
        if done.returncode != 0:
            print(f"  [C++] {name} exited {done.returncode}; last lines:\n" + "\n".join(
                (done.stdout + done.stderr).strip().splitlines()[-5:]))
        if not out.exists():
            return None
        text = out.read_text()
        keep = _runs_file(name, args)
        if keep is not None:  # for the next script that asks for the same run
            keep.parent.mkdir(parents=True, exist_ok=True)
            keep.write_text(text)
        return json.loads(text)  # a failed timing check still leaves its figures


SCHEMA = 2  # the chapters' JSON shape this module reads (common/harness/report.hpp, kJsonSchema)


def find_row(report, table_id, name):
    """The result row called @name in the table whose stable id is @table_id
    (the JSON's "table_id", which no rewording or option changes); None when
    the report or the row is missing. A report of another schema is an error,
    never a wrong row."""
    if report is None:
        return None
    if report.get("schema") != SCHEMA:
        raise ValueError(f"chapter JSON has schema {report.get('schema')}, this script reads schema {SCHEMA}")
    for row in report["results"]:
        if row.get("table_id") == table_id and row["name"] == name:
            return row
    return None


def side_by_side(title, rows, unit, label="PyTorch", width=44):
    """Prints rows of (what, @label's value, C++ value) with the difference;
    a value of None prints as '-' (not measured in this run). @width: of the 'what' column."""
    print(f"\n{title}")
    print(f"  {'what':{width}s} {label:>12s} {'C++ chapter':>12s} {'difference':>12s}")
    for what, ours, theirs in rows:
        def show(v):
            return f"{v:12.3f}" if v is not None else f"{'-':>12s}"
        if ours is not None and theirs:
            diff = f"{(ours - theirs) / theirs * 100:+11.1f}%"
        else:
            diff = f"{'-':>12s}"
        print(f"  {what:{width}s} {show(ours)} {show(theirs)} {diff}")
    print(f"  ({unit}; difference = ({label} - C++) / C++)")


def cpu_work(ms):
    """Keeps this thread busy for @ms milliseconds (a stand-in for preparing the next batch)."""
    end = time.perf_counter() + ms / 1e3
    spins = 0
    while time.perf_counter() < end:
        spins += 1
    return spins


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def event_times_ms(work, samples, warmup=3, isolated=False):
    """Times @work (a function that queues GPU work on the current stream) with
    torch.cuda.Event pairs: @warmup untimed calls, then @samples timed ones.
    Back to back (isolated=False): every pair is queued, then one wait, so the GPU
    runs them one after another. Isolated: the host waits after each sample, so
    each is a lone launch into an idle GPU and its events include the launch gap."""
    import torch

    for _ in range(warmup):
        work()
    torch.cuda.synchronize()
    pairs = []
    for _ in range(samples):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        work()
        end.record()
        pairs.append((start, end))
        if isolated:
            end.synchronize()
    torch.cuda.synchronize()
    return [start.elapsed_time(end) for start, end in pairs]
