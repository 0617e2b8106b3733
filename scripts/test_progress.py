#!/usr/bin/env python3
"""CPU tests of scripts/progress: every verdict it can print, on hand-made
doctest reports, compiler output and fake checks (small shell scripts that pass,
fail, find no GPU, crash or never finish). Registered with ctest as
exercises.progress (label cpu); runs anywhere: python3 scripts/test_progress.py
"""

import importlib.machinery
import importlib.util
import stat
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


class CheckExercise(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        root = Path(self.folder.name)
        (root / "exercises" / "01_x").mkdir(parents=True)
        (root / "pristine" / "01_x").mkdir(parents=True)
        (root / "exercises" / "01_x" / "x.cu").write_text("// TODO\n")
        (root / "pristine" / "01_x" / "x.cu").write_text("// TODO\n")
        self.root = root
        self.manifest = {"source_dir": str(root), "pristine_dir": str(root / "pristine"), "timeout_s": 1,
                         "no_gpu_exit_code": 77}
        self.builds = []

    def tearDown(self):
        self.folder.cleanup()

    def run_with(self, body, build_code=0, build_output=""):
        exercise = {"chapter": "ch01", "folder": "01_x", "files": ["x.cu"], "target": "ch01_exercise_check",
                    "executable": fake_check(self.folder.name, body), "working_directory": self.folder.name}

        def build(target):
            self.builds.append(target)
            return build_code, build_output

        gpu_seen = []
        return progress.check_exercise(exercise, self.manifest, build, gpu_seen), gpu_seen

    def solve(self):
        (self.root / "exercises" / "01_x" / "x.cu").write_text("int done;\n")

    def test_not_started_builds_and_runs_nothing(self):
        result, gpu_seen = self.run_with("exit 0")
        self.assertEqual(result["status"], "not_started")
        self.assertEqual(self.builds, [])
        self.assertEqual(gpu_seen, [])

    def test_solved(self):
        self.solve()
        result, gpu_seen = self.run_with("exit 0")
        self.assertEqual(result["status"], "solved")
        self.assertEqual(self.builds, ["ch01_exercise_check"])
        self.assertEqual(gpu_seen, [True])

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


class SummaryLine(unittest.TestCase):
    def test_the_usual_three_counts(self):
        results = [{"status": s} for s in ["solved"] * 3 + ["not_yet"] + ["not_started"] * 3]
        self.assertEqual(progress.summary_line(results)[1], "exercises: 3 of 7 solved, 1 not yet, 3 not started")

    def test_compile_errors_and_no_gpu_are_counted_when_there_are_some(self):
        results = [{"status": s} for s in ["does_not_compile", "not_checked", "not_checked", "not_started"]]
        self.assertEqual(progress.summary_line(results)[1],
                         "exercises: 0 of 4 solved, 0 not yet, 1 does not compile, 2 not checked (no usable GPU), "
                         "1 not started")


if __name__ == "__main__":
    unittest.main()
