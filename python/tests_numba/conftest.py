"""The Numba side's tests: python/ on the import path. Each test skips itself (never
passes) where Numba cannot run: not installed, not importable, no GPU and no simulator."""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
