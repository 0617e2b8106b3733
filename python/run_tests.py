"""Runs the PyTorch side's tests (python/tests) with pytest, for CTest's `python.pytest`.

Exit 77 (CTest: skipped) with the reason when something they need is missing:
pytest, PyTorch, a CUDA GPU, or what the extension's JIT build needs (ninja, an nvcc
whose major version matches PyTorch's). Otherwise pytest's own exit code; pytest's
5 (no tests ran) becomes 1, since every test was expected to run.
"""
import os
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
SKIPPED = 77


def missing(module_name="add_extension"):
    """Why the suite cannot run here ('' when it can): pytest, then @p module_name's unavailable_reason()."""
    try:
        import pytest  # noqa: F401
    except ImportError:
        return "pytest is not installed"
    sys.path.insert(0, str(HERE))
    module = __import__(module_name)
    return module.unavailable_reason()


def run_suite(folder, reason, label, pytest_args=()):
    """Runs pytest on python/@p folder, or prints '@p label skipped: @p reason' and returns 77."""
    if reason:
        print(f"{label} skipped: {reason}")
        return SKIPPED
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", *pytest_args, str(HERE / folder),
                           *sys.argv[1:]], cwd=HERE.parent, env=dict(os.environ))
    return 1 if done.returncode == 5 else done.returncode


def main():
    return run_suite("tests", missing(), "python.pytest")


if __name__ == "__main__":
    sys.exit(main())
