#!/usr/bin/env python3
"""CPU tests of scripts/progress: every verdict it can print, on hand-made
doctest reports, compiler output and fake checks (small shell scripts that pass,
fail, find no GPU, crash, end early or never finish); "not started" against the
manifest of the exercises as handed out; one hint at a time; the next exercise;
the grader's flag for files changed outside the exercises; and the result file
that tests/support/gpu_test_main.cpp writes (compiled here with a stand-in for
the device query, where a C++ compiler and doctest are installed). Registered
with ctest as exercises.progress (label cpu); runs anywhere:
python3 scripts/test_progress.py
"""

import contextlib
import hashlib
import importlib.machinery
import io
import importlib.util
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
loader = importlib.machinery.SourceFileLoader("progress", str(HERE / "progress"))
spec = importlib.util.spec_from_loader("progress", loader)
progress = importlib.util.module_from_spec(spec)
loader.exec_module(progress)

CHECK_MESSAGE_REPORT = """\
[doctest] doctest version is "2.4.9"
===============================================================================
/src/exercises/01_kernel_launch/check.cu:45:
TEST CASE:  exercise 01: every element of c = a + b

/src/exercises/01_kernel_launch/check.cu:58: ERROR: CHECK( result.passed() ) is NOT correct!
  values: CHECK( false )
  logged: n := 1
          n = 1: 1 of 1 elements of c are wrong; c[0] is NaN (the poison value): no thread wrote it

/src/exercises/01_kernel_launch/check.cu:58: ERROR: CHECK( result.passed() ) is NOT correct!
  values: CHECK( false )
  logged: n := 511
          the second failure, not shown
===============================================================================
"""

FAIL_REPORT = """\
===============================================================================
check.cu:13:
TEST CASE:  fail

check.cu:13: FATAL ERROR: n = 4: a CUDA error while your kernel ran
  logged: n := 4
"""

EXCEPTION_REPORT = """\
check.cu:12:
TEST CASE:  exercise 03: the stopwatch

check.cu:12: ERROR: test case THREW exception: events.cu:9: cudaEventElapsedTime failed: cudaErrorNotReady
"""

BARE_CHECK_REPORT = """\
check.cu:20:
TEST CASE:  exercise 03: work on another stream is not timed

check.cu:31: ERROR: CHECK( yours < 20.0 ) is NOT correct!
  values: CHECK( 41.2 < 20.0 )
  logged: yours := 41.2
"""


class FirstCheckFailure(unittest.TestCase):
    def test_the_message_of_check_message_without_the_captures(self):
        test_case, message = progress.first_check_failure(CHECK_MESSAGE_REPORT)
        self.assertEqual(test_case, "exercise 01: every element of c = a + b")
        self.assertEqual(message, "n = 1: 1 of 1 elements of c are wrong; c[0] is NaN (the poison value): "
                                  "no thread wrote it")

    def test_the_text_of_fail(self):
        self.assertEqual(progress.first_check_failure(FAIL_REPORT)[1],
                         "n = 4: a CUDA error while your kernel ran")

    def test_an_exception_is_named(self):
        self.assertEqual(progress.first_check_failure(EXCEPTION_REPORT)[1],
                         "the check stopped on an error: events.cu:9: cudaEventElapsedTime failed: "
                         "cudaErrorNotReady")

    def test_a_check_without_message_shows_the_condition_and_the_captures(self):
        self.assertEqual(progress.first_check_failure(BARE_CHECK_REPORT)[1],
                         "CHECK( yours < 20.0 ) is NOT correct! (yours := 41.2)")

    def test_no_failure_in_the_output(self):
        self.assertIsNone(progress.first_check_failure("[doctest] Status: SUCCESS!\n")[1])


class FirstCompilerError(unittest.TestCase):
    def test_nvcc(self):
        output = ("[ 50%] Building CUDA object exercises/x.cu.o\n"
                  f"{progress.ROOT}/exercises/04_streams/wait_for_producer.cu(10): error: identifier \"p\" is undefined\n"
                  "1 error detected in the compilation of \"x.cu\".\n"
                  "make[2]: *** [exercises/CMakeFiles/x.dir/build.make:76: x.cu.o] Error 2\n")
        self.assertEqual(progress.first_compiler_error(output),
                         "exercises/04_streams/wait_for_producer.cu(10): error: identifier \"p\" is undefined")

    def test_gcc(self):
        output = "make[2]: Entering directory\nx.cpp:3:5: error: 'y' was not declared in this scope\n"
        self.assertEqual(progress.first_compiler_error(output), "x.cpp:3:5: error: 'y' was not declared in this scope")

    def test_linker(self):
        output = "/usr/bin/ld: check.cu.o: in function `f':\ncheck.cu:(.text+0x1): undefined reference to `g()'\n"
        self.assertIn("undefined reference to `g()'", progress.first_compiler_error(output))

    def test_no_error_line_gives_the_last_line(self):
        self.assertEqual(progress.first_compiler_error("something odd\nmake: *** Error 2\n"), "make: *** Error 2")


def fake_check(folder, body):
    path = Path(folder) / "fake_check"
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


RESULT_ALL_PASSED = ("printf '{\"format\": 1, \"test_cases_run\": 1, \"test_cases_failed\": 0, "
                     "\"passed\": [\"a\"], \"failed\": []}' > \"$LAB_CHECK_RESULT\"")


class CheckExercise(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        root = Path(self.folder.name)
        (root / "exercises" / "01_x").mkdir(parents=True)
        (root / "exercises" / "01_x" / "x.cu").write_text("// TODO: write it\n")
        (root / "exercises" / "01_x" / "check.cu").write_text('TEST_CASE("a") {}\n// TEST_CASE("commented out")\n')
        self.root = root
        self.handed_out = {"files": {"x.cu": hashlib.sha256(b"// TODO: write it\n").hexdigest()}}
        self.manifest = {"source_dir": str(root), "timeout_s": 1, "no_gpu_exit_code": 77}
        self.builds = []

    def tearDown(self):
        self.folder.cleanup()

    def run_with(self, body, build_code=0, build_output=""):
        exercise = {"chapter": "ch01", "folder": "01_x", "files": ["x.cu"], "target": "ch01_exercise_check",
                    "test": "ch01_exercise_check", "executable": fake_check(self.folder.name, body),
                    "working_directory": self.folder.name}

        def build(target):
            self.builds.append(target)
            return build_code, build_output

        gpu_seen = []
        return progress.check_exercise(exercise, self.manifest, self.handed_out, build, gpu_seen), gpu_seen

    def solve(self, text="int done;\n"):
        (self.root / "exercises" / "01_x" / "x.cu").write_text(text)

    def test_not_started_builds_and_runs_nothing(self):
        result, gpu_seen = self.run_with("exit 0")
        self.assertEqual(result["status"], "not_started")
        self.assertEqual(self.builds, [])
        self.assertEqual(gpu_seen, [])

    def test_an_answer_that_keeps_its_todo_comment_is_started(self):
        # Not started is the manifest's SHA-256, never "still has a TODO" or the learner's git history.
        self.solve("// TODO: write it\nint done;\n")
        result, _ = self.run_with(RESULT_ALL_PASSED + "\nexit 0")
        self.assertEqual(result["status"], "solved")
        self.assertTrue(result["changed"])

    def test_solved_needs_the_result_file_with_every_test_case_passed(self):
        self.solve()
        result, gpu_seen = self.run_with(RESULT_ALL_PASSED + "\nexit 0")
        self.assertEqual(result["status"], "solved")
        self.assertEqual(result["test_cases"], 1)
        self.assertEqual(self.builds, ["ch01_exercise_check"])
        self.assertEqual(gpu_seen, [True])

    def test_exit_0_without_the_result_file_is_not_solved(self):
        # What std::exit(0) in a static initialiser of the learner's file does: no test case ever ran.
        self.solve()
        result, gpu_seen = self.run_with("exit 0")
        self.assertEqual(result["status"], "not_yet")
        self.assertIn("before its test cases had run", result["message"])
        self.assertEqual(gpu_seen, [])

    def test_fewer_test_cases_than_the_instructors_check_is_not_solved(self):
        self.solve()
        body = ("printf '{\"format\": 1, \"test_cases_run\": 0, \"test_cases_failed\": 0, \"passed\": [], "
                "\"failed\": []}' > \"$LAB_CHECK_RESULT\"\nexit 0")
        result, _ = self.run_with(body)
        self.assertEqual(result["status"], "not_yet")
        self.assertIn("the instructor's check has 1", result["message"])

    def test_not_yet_with_the_checks_message(self):
        self.solve()
        body = "cat <<'EOF'\n" + CHECK_MESSAGE_REPORT + "EOF\nexit 1"
        result, _ = self.run_with(body)
        self.assertEqual(result["status"], "not_yet")
        self.assertIn("c[0] is NaN (the poison value)", result["message"])

    def test_does_not_compile(self):
        self.solve()
        result, gpu_seen = self.run_with("exit 0", build_code=2, build_output="x.cu(3): error: expected a \";\"\n")
        self.assertEqual(result["status"], "does_not_compile")
        self.assertEqual(result["message"], "x.cu(3): error: expected a \";\"")
        self.assertEqual(gpu_seen, [])

    def test_no_gpu_is_not_checked(self):
        self.solve()
        body = "echo 'skipped: no usable CUDA device: cudaErrorNoDevice: no CUDA-capable device is detected'\nexit 77"
        result, gpu_seen = self.run_with(body)
        self.assertEqual(result["status"], "not_checked")
        self.assertEqual(result["message"], "no usable GPU; it compiles, and its check needs a GPU to run "
                                            "(cudaErrorNoDevice: no CUDA-capable device is detected)")
        self.assertEqual(gpu_seen, [False])

    def test_an_endless_loop_is_stopped_and_named(self):
        self.solve()
        result, _ = self.run_with("sleep 30")
        self.assertEqual(result["status"], "not_yet")
        self.assertTrue(result["timed_out"])
        self.assertTrue(result["message"].startswith("did not finish in 1 s: is there an endless loop?"))
        self.assertLess(result["seconds"], 10)

    def test_a_crash_without_a_message(self):
        self.solve()
        result, _ = self.run_with("kill -SEGV $$")
        self.assertEqual(result["status"], "not_yet")
        self.assertTrue(result["message"].startswith("the check crashed (SIGSEGV)"))

    def test_a_missing_file_is_named(self):
        (self.root / "exercises" / "01_x" / "x.cu").unlink()
        result, _ = self.run_with("exit 0")
        self.assertEqual(result["status"], "missing")
        self.assertEqual(result["message"], "exercises/01_x/x.cu is not there")
        self.assertEqual(self.builds, [])


class HandedOut(unittest.TestCase):
    """The committed manifest lists this tree's exercises (the full check: scripts/handed-out --test)."""

    def test_every_exercise_is_in_the_manifest(self):
        manifest = progress.load_handed_out()
        self.assertIsNotNone(manifest)
        folders = sorted(p.name for p in (progress.ROOT / "exercises").iterdir()
                         if p.is_dir() and p.name[:2].isdigit())
        self.assertEqual(sorted(manifest["exercises"]), folders)

    def test_every_check_has_test_cases(self):
        for folder in progress.load_handed_out()["exercises"]:
            check = progress.ROOT / "exercises" / folder / "check.cu"
            self.assertGreaterEqual(progress.expected_test_cases(check), 1, folder)


class Hints(unittest.TestCase):
    def test_numbered_hints_one_at_a_time_then_the_trailer(self):
        text = ("# Hints\n\nRead these one at a time.\n\n1. First,\n   continued.\n\n2. Second.\n"
                "3. Third.\n\nChapter 01's kernel is the same idea.\n")
        hints, trailer = progress.split_hints(text)
        self.assertEqual(hints, ["1. First,\n   continued.", "2. Second.", "3. Third."])
        self.assertEqual(trailer, "Chapter 01's kernel is the same idea.")

    def test_headings(self):
        hints, _ = progress.split_hints("# Hints\n\n## Hint 1\nA.\n\n## Hint 2\nB.\n")
        self.assertEqual(hints, ["## Hint 1\nA.", "## Hint 2\nB."])

    def test_every_hints_file_has_three_or_more(self):
        for path in sorted((progress.ROOT / "exercises").glob("*/HINTS.md")):
            self.assertGreaterEqual(len(progress.split_hints(path.read_text())[0]), 3, str(path))

    def test_the_next_hint_each_call(self):
        with tempfile.TemporaryDirectory() as folder:
            state = Path(folder) / "seen.json"
            for expected in (1, 2):
                with contextlib.redirect_stdout(io.StringIO()) as shown:
                    progress.hint("ch01", state_path=state)
                self.assertIn(f"ch01, hint {expected} of", shown.getvalue())
                self.assertEqual(json.loads(state.read_text())["ch01"], expected)


    def test_after_the_last_hint_it_says_so(self):
        hints = len(progress.split_hints((progress.ROOT / "exercises" / "01_kernel_launch" / "HINTS.md").read_text())[0])
        with tempfile.TemporaryDirectory() as folder:
            state = Path(folder) / "seen.json"
            state.write_text(json.dumps({"ch01": hints}))
            with contextlib.redirect_stdout(io.StringIO()) as shown:
                progress.hint("ch01", state_path=state)
            self.assertIn("that was the last hint of ch01", shown.getvalue())
            self.assertIn(f"ch01, hint {hints} of {hints}", shown.getvalue())
            state.write_text(json.dumps({"ch01": 1}))
            with contextlib.redirect_stdout(io.StringIO()) as shown:
                progress.hint("ch01", state_path=state)
            self.assertNotIn("that was the last hint", shown.getvalue())


class NextExercise(unittest.TestCase):
    def test_the_first_begun_and_not_solved_comes_first(self):
        results = [{"status": s, "chapter": c, "files": [f"{c}.cu"]} for s, c in
                   [("solved", "ch01"), ("not_started", "ch01b"), ("not_yet", "ch02")]]
        self.assertEqual(progress.next_exercise(results)["chapter"], "ch02")
        self.assertIn("ch02.cu", progress.next_line(results))

    def test_a_subset_with_nothing_left_points_at_the_rest(self):
        results = [{"status": "not_checked", "chapter": "ch10", "files": []}]
        self.assertIn("nothing more among the exercises asked for", progress.next_line(results, subset=True))
        self.assertIn("until a GPU", progress.next_line(results))

    def test_then_the_first_not_started(self):
        results = [{"status": s, "chapter": c, "files": []} for s, c in [("solved", "ch01"), ("not_started", "ch01b")]]
        self.assertEqual(progress.next_exercise(results)["chapter"], "ch01b")


class Forgery(unittest.TestCase):
    NAMES = ["exercise 05: V2 is right", "exercise 05: V2 is fast"]

    def forged(self, passed):
        return {"format": 1, "test_cases_run": len(passed), "test_cases_failed": 0, "passed": passed}

    def test_a_result_file_on_a_machine_without_a_gpu_is_not_trusted(self):
        verdict = progress.verdict_of_run(0, "", self.forged(self.NAMES), 2, 30, 77, "check", self.NAMES,
                                          gpu_present=False)
        self.assertEqual(verdict["status"], "not_checked")
        self.assertTrue(verdict["forged"])
        self.assertFalse(verdict["gpu"])

    def test_passed_names_that_are_not_the_instructors_are_not_solved(self):
        verdict = progress.verdict_of_run(0, "", self.forged(["a", "b"]), 2, 30, 77, "check", self.NAMES)
        self.assertEqual(verdict["status"], "not_yet")
        self.assertTrue(verdict["forged"])
        self.assertEqual(progress.verdict_of_run(0, "", self.forged(self.NAMES), 2, 30, 77, "check",
                                                 self.NAMES)["status"], "solved")

    def test_the_names_of_a_check(self):
        with tempfile.TemporaryDirectory() as folder:
            check = Path(folder) / "check.cu"
            check.write_text('TEST_CASE("one") {}\n// TEST_CASE("commented")\nTEST_CASE(\n    "two, \\"quoted\\"") {}\n')
            self.assertEqual(progress.expected_test_names(check), ["one", 'two, \\"quoted\\"'])
            check.write_text('TEST_CASE(NAME) {}\n')
            self.assertIsNone(progress.expected_test_names(check))

    def test_what_a_forger_writes_is_named_and_a_plain_answer_is_not(self):
        with tempfile.TemporaryDirectory() as tree:
            folder = Path(tree) / "exercises" / "05_overlap"
            folder.mkdir(parents=True)
            (folder / "schedule_v2.cu").write_text(
                "static int forge = [] {\n  FILE* f = fopen(getenv(\"LAB_CHECK_RESULT\"), \"w\");\n"
                "  std::_Exit(0);\n}();\n")
            (folder / "plain.cu").write_text("for (int i = 0; i < n; ++i) {\n  queue(i);  // exit early? no\n}\n")
            signs = progress.forgery_signs(tree, "05_overlap", ["schedule_v2.cu", "plain.cu"])
            whats = {s["what"] for s in signs}
            self.assertTrue(any("LAB_CHECK_RESULT" in w for w in whats))
            self.assertTrue(any("ends the program" in w for w in whats))
            self.assertTrue(any("opens a file" in w for w in whats))
            self.assertFalse([s for s in signs if s["file"].endswith("plain.cu")])


class Assignment(unittest.TestCase):
    KNOWN = ["ch01", "ch01b", "ch02", "ch05", "ch05b"]

    def test_names_with_or_without_ch_commas_spaces_lines_and_comments(self):
        text = "01, ch02 05b\n# week 3\nch05  # the V2 schedule\n01\n"
        self.assertEqual(progress.read_assignment(text, self.KNOWN), ["ch01", "ch02", "ch05b", "ch05"])

    def test_an_unknown_exercise_is_a_bad_command_line(self):
        with contextlib.redirect_stderr(io.StringIO()) as err, self.assertRaises(SystemExit) as stop:
            progress.read_assignment("01,99", self.KNOWN)
        self.assertEqual(stop.exception.code, 2)
        self.assertIn("99", err.getvalue())

    def test_an_empty_assignment_is_a_bad_command_line(self):
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit) as stop:
            progress.read_assignment("# nothing yet\n", self.KNOWN)
        self.assertEqual(stop.exception.code, 2)

    def test_next_follows_the_assignment(self):
        results = [{"status": s, "chapter": c, "files": []} for s, c in [("solved", "ch01"), ("solved", "ch05")]]
        self.assertIn("nothing more among the exercises asked for", progress.next_line(results, subset=True))


class GraderFlag(unittest.TestCase):
    def test_a_changed_test_support_file_is_flagged_and_the_exercise_file_is_not(self):
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            for root in (a, b):
                (Path(root) / "tests" / "support").mkdir(parents=True)
                (Path(root) / "exercises" / "01_x").mkdir(parents=True)
                (Path(root) / "tests" / "support" / "gpu_test_main.cpp").write_text("return 77;\n")
                (Path(root) / "exercises" / "01_x" / "x.cu").write_text("// TODO\n")
            (Path(b) / "tests" / "support" / "gpu_test_main.cpp").write_text("return 0;\n")
            (Path(b) / "exercises" / "01_x" / "x.cu").write_text("int done;\n")
            changed = progress.outside_changes(b, progress.code_files(a), a, {"exercises/01_x/x.cu"})
            self.assertEqual(changed, ["tests/support/gpu_test_main.cpp"])


DEVICE_STANDIN = """#pragma once
#include <cstdlib>
#include <string>
namespace lab {
inline bool usable_device(std::string* reason) {
  if (std::getenv("STANDIN_NO_GPU")) { *reason = "none here"; return false; }
  return true;
}
}
"""
PROGRAM_STANDIN = """#pragma once
namespace lab { namespace exit_code { constexpr int failure = 1; constexpr int no_device = 77; } }
"""
CHECK_STANDIN = """#include <doctest/doctest.h>
#include <cstdlib>
namespace { const int early = (std::getenv("STANDIN_EXIT_EARLY") ? (std::exit(0), 0) : 0); }
TEST_CASE("one") { CHECK(1 == 1); }
TEST_CASE("two") { CHECK_MESSAGE(std::getenv("STANDIN_FAIL") == nullptr, "the second case failed"); }
TEST_CASE("cpu: three") { CHECK_MESSAGE(std::getenv("STANDIN_CPU_FAIL") == nullptr, "the CPU part failed"); }
"""


def find_compiler():
    for name in ("c++", "g++", "clang++"):
        if shutil.which(name):
            return shutil.which(name)
    return None


@unittest.skipUnless(find_compiler() and any(Path(p, "doctest", "doctest.h").exists()
                                             for p in ("/usr/include", "/usr/local/include")),
                     "needs a C++ compiler and doctest installed")
class ResultFileOfGpuTestMain(unittest.TestCase):
    """tests/support/gpu_test_main.cpp, built with a stand-in for the device query: the result file that
    decides "solved" is written only when every test case has run."""

    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()
        folder = Path(cls.folder.name)
        (folder / "device.cuh").write_text(DEVICE_STANDIN)
        (folder / "program.hpp").write_text(PROGRAM_STANDIN)
        (folder / "check.cpp").write_text(CHECK_STANDIN)
        cls.binary = folder / "check"
        subprocess.run([find_compiler(), "-std=c++17", "-I", str(folder), "-x", "c++",
                        str(HERE.parent / "tests" / "support" / "gpu_test_main.cpp"), str(folder / "check.cpp"),
                        "-o", str(cls.binary)], check=True)

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def run_check(self, **env):
        environment = {k: v for k, v in os.environ.items() if not k.startswith("STANDIN_")}
        environment.update(env)
        code, output, result, _ = progress.run_check(str(self.binary), self.folder.name, 30, environment)
        check = Path(self.folder.name) / "check.cpp"
        return progress.verdict_of_run(code, output, result, progress.expected_test_cases(check), 30, 77,
                                       str(self.binary))

    def test_every_case_passed_is_solved(self):
        self.assertEqual(self.run_check()["status"], "solved")

    def test_a_failed_case_is_not_yet_with_its_message(self):
        verdict = self.run_check(STANDIN_FAIL="1")
        self.assertEqual(verdict["status"], "not_yet")
        self.assertIn("the second case failed", verdict["message"])

    def test_an_exit_0_from_a_static_initialiser_is_not_solved(self):
        verdict = self.run_check(STANDIN_EXIT_EARLY="1")
        self.assertEqual(verdict["status"], "not_yet")
        self.assertIn("before its test cases had run", verdict["message"])

    def test_no_gpu_is_not_checked_and_says_its_cpu_part_passed(self):
        verdict = self.run_check(STANDIN_NO_GPU="1")
        self.assertEqual(verdict["status"], "not_checked")
        self.assertIn("CPU-only part passed (1 test case(s))", verdict["message"])
        self.assertFalse(verdict.get("forged"))
        environment = {k: v for k, v in os.environ.items() if not k.startswith("STANDIN_")}
        environment["STANDIN_NO_GPU"] = "1"
        _, _, result, _ = progress.run_check(str(self.binary), self.folder.name, 30, environment)
        self.assertIsNone(result)  # no result file without a GPU: only a run on a GPU can show it solved

    def test_no_gpu_and_a_failed_cpu_part_is_not_yet_with_its_message(self):
        verdict = self.run_check(STANDIN_NO_GPU="1", STANDIN_CPU_FAIL="1")
        self.assertEqual(verdict["status"], "not_yet")
        self.assertIn("the CPU part failed", verdict["message"])


class SummaryLine(unittest.TestCase):
    def test_the_usual_three_counts(self):
        results = [{"status": s} for s in ["solved"] * 3 + ["not_yet"] + ["not_started"] * 3]
        self.assertEqual(progress.summary_line(results)[1], "exercises: 3 of 7 solved, 1 not yet, 3 not started")

    def test_compile_errors_and_no_gpu_are_counted_when_there_are_some(self):
        results = [{"status": s} for s in ["does_not_compile", "not_checked", "not_checked", "missing",
                                           "not_started"]]
        self.assertEqual(progress.summary_line(results)[1],
                         "exercises: 0 of 5 solved, 0 not yet, 1 does not compile, 2 not checked (no usable GPU), "
                         "1 missing a file, 1 not started")


if __name__ == "__main__":
    unittest.main()
