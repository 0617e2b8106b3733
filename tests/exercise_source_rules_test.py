#!/usr/bin/env python3
"""The source rules of the exercise checks, on the CPU (ctest exercises.source_rules, label cpu).

    tests/exercise_source_rules_test.py CMAKE

Some known wrong answers give the right output and timing, so only their
source can tell (docs/instructors.md): exercise 05 done by one call of
chapter 05's own schedule, 11b's host wait and second launch, 12's
synchronous double buffer, 12b's whole-tile copy. Their check.cu names
"source rules" that exercises/source_rules.cmake reads from the learner's
files when the check is built. This test runs that script, as the build does:

  - on every solution with rules: no rule broken (the solution builds and its
    check has no finding);
  - on every exercise as handed out: no refuse rule broken (it must build);
  - on each wrong answer of scripts/grade-selftest's WRONG_ANSWERS caught by a
    rule (the same edits its fake students get): the build refused with the
    rule's message, as "FILE:LINE: error: ...", or the finding in the header
    the check reports from;
  - on made-up files: a call in a comment is not a call, a call split over
    lines is one, the line reported is the call's.

It needs solutions/ (exercises/CMakeLists.txt registers it only then). Each
line it prints says which part ran; it exits 1 if any part failed. Python 3
standard library only.
"""

import importlib.machinery
import importlib.util
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "exercises" / "source_rules.cmake"

loader = importlib.machinery.SourceFileLoader("grade_selftest", str(ROOT / "scripts" / "grade-selftest"))
spec = importlib.util.spec_from_loader("grade_selftest", loader)
grade_selftest = importlib.util.module_from_spec(spec)
loader.exec_module(grade_selftest)

failures = 0


def report(ok, what):
    global failures
    failures += not ok
    print(f"{'ok  ' if ok else 'FAIL'} {what}", flush=True)


def scan(cmake, folder, text, name, work):
    """(build refused?, its output, the findings) of check.cu's rules on one file holding text."""
    source = work / name
    source.write_text(text)
    header = work / "source_findings.h"
    header.unlink(missing_ok=True)
    run = subprocess.run([cmake, f"-DCHECK={ROOT / 'exercises' / folder / 'check.cu'}", f"-DFILES={source}",
                          f"-DOUT={header}", "-P", str(SCRIPT)], capture_output=True, text=True)
    output = run.stdout + run.stderr
    findings = re.findall(r'^    "(.*)",$', header.read_text(), re.M) if header.exists() else []
    return run.returncode != 0, output, findings


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__.split("\n\n")[1])
    cmake = sys.argv[1]
    ruled = sorted(p.parent.name for p in (ROOT / "exercises").glob("*/check.cu")
                   if "// source rule: " in p.read_text())
    report(bool(ruled), f"exercises with source rules: {', '.join(ruled)}")
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        for folder in ruled:
            for kind in ("solutions", "exercises"):
                for path in sorted((ROOT / kind / folder).glob("*.cu")):
                    if path.name == "check.cu":
                        continue
                    refused, output, findings = scan(cmake, folder, path.read_text(), path.name, work)
                    if kind == "solutions":
                        broken = (findings or [output])[0] if findings or refused else ""
                        report(not refused and not findings, f"{kind}/{folder}/{path.name}: no rule broken "
                               f"(rules read on the CPU){': ' + broken if broken else ''}")
                    else:
                        report(not refused, f"{kind}/{folder}/{path.name} as handed out: builds "
                               f"({len(findings)} finding(s) for its check to report)")

        for name, answer in grade_selftest.WRONG_ANSWERS.items():
            where = f"{name} ({answer['folder']})"
            if answer["rule"] is None:
                print(f"--   {where}: no source rule; only its check on a GPU tells "
                      f"(\"{answer['message']}\")", flush=True)
                continue
            text = grade_selftest.wrong_answer_text(ROOT, answer)
            refused, output, findings = scan(cmake, answer["folder"], text, answer["file"], work)
            if answer["rule"] == "refuse":
                line = next((l for l in output.splitlines() if ": error: " in l), "")
                report(refused and answer["message"] in line and line.startswith(str(work / answer["file"]) + ":"),
                       f"{where}: the build refuses it, on the CPU: {line.replace(str(work) + '/', '')[:150]}")
            else:
                report(not refused and bool(findings) and answer["message"] in findings[0],
                       f"{where}: its check fails with the finding read on the CPU: "
                       f"{(findings or ['(none)'])[0][:150]}")

        # The reading itself, on made-up files against exercise 05's refuse rule.
        lines = ["#include \"schedule_v2.cuh\"", "// ch05::queue_v2(problem, stream, iterations);",
                 "/* ch05::queue_v2(problem, stream, iterations);", "*/", "void f() {}"]
        refused, output, _ = scan(cmake, "05_overlap", "\n".join(lines) + "\n", "comment.cu", work)
        report(not refused, "made-up file: a call in a comment (// and /* */) is not a call")
        split = lines + ["void g(ch05::OverlapProblem& p, const std::vector<cudaStream_t>& s) {",
                         "  ch05::", "      queue_v2 (p, s, 1);", "}"]
        refused, output, _ = scan(cmake, "05_overlap", "\n".join(split) + "\n", "split.cu", work)
        report(refused and "split.cu:8: error: " in output,
               "made-up file: a call split over two lines is refused, at the call's line (8)")
        refused, output, _ = scan(cmake, "05_overlap", "void my_queue_v2(int);\nvoid h() { my_queue_v2(1); }\n",
                                  "names.cu", work)
        report(not refused, "made-up file: a name that only ends in queue_v2 is not the chapter's")
    print(f"exercise source rules: {failures} failure(s)", flush=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
