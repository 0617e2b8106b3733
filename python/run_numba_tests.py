"""Runs the Numba side's tests (python/tests_numba) with pytest.

Exit 77 with the reason when pytest or Numba is missing, or Numba sees no GPU (and
NUMBA_ENABLE_CUDASIM=1 is not set: the simulator runs the correctness tests on the
CPU). Otherwise pytest's own exit code; pytest's 5 (no tests ran) becomes 1.
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from run_tests import missing, run_suite  # noqa: E402  (the runner of the PyTorch side, shared)

if __name__ == "__main__":
    sys.exit(run_suite("tests_numba", missing("numba_lab"), "numba tests", ["-p", "no:cacheprovider"]))
