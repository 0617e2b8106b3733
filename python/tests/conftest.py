"""Shared set-up: python/ on the import path, and chapter 01's extension built once.
Each test module skips itself (never passes) without PyTorch or a CUDA GPU."""
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))


@pytest.fixture(scope="session")
def lab_add():
    """Chapter 01's extension, built once per session (skipped with the reason when it cannot be)."""
    import add_extension

    reason = add_extension.unavailable_reason()
    if reason:
        pytest.skip(reason)
    return add_extension.load()
