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


def missing():
    try:
        import pytest  # noqa: F401
    except ImportError:
        return "pytest is not installed"
    sys.path.insert(0, str(HERE))
    import add_extension
    return add_extension.unavailable_reason()


def main():
    reason = missing()
    if reason:
        print(f"python.pytest skipped: {reason}")
        return SKIPPED
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", str(HERE / "tests"), *sys.argv[1:]],
                          cwd=HERE.parent, env=dict(os.environ))
    return 1 if done.returncode == 5 else done.returncode


if __name__ == "__main__":
    sys.exit(main())
