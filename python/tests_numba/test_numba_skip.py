"""Without Numba every script says why and exits 77 (CTest's and the checks' "skipped"),
never 0 or a traceback (Numba is hidden by a package of the same name that fails to import);
and every C++ row the scripts print exists in a kept run (no Numba needed)."""
import os
import pathlib
import subprocess
import sys

import pytest

PYTHON_DIR = pathlib.Path(__file__).resolve().parent.parent
SCRIPTS = ["numba_ch03_events.py", "numba_ch04_streams.py", "numba_ch06_pinned_memory.py"]


@pytest.mark.parametrize("script", SCRIPTS)
def test_script_skips_with_77_without_numba(tmp_path, script):
    hidden = tmp_path / "numba"
    hidden.mkdir()
    (hidden / "__init__.py").write_text("raise ImportError('numba hidden by the test')\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    done = subprocess.run([sys.executable, str(PYTHON_DIR / script), "--no-chapter"],
                          capture_output=True, text=True, env=env, cwd=PYTHON_DIR.parent)
    assert done.returncode == 77, done.stdout + done.stderr
    assert done.stdout.startswith("skipped: ") and "numba hidden by the test" in done.stdout


KEPT_RUN = PYTHON_DIR.parent / "docs" / "results" / "h200-2026-12-02e"
CPP_ROWS = [  # (chapter, table id, row, key): every C++ figure the Numba scripts print
    ("ch01_kernel_launch", "launch_return", "the launch call returned after", "ms"),
    *[("ch03_events", "launch_gap_n", name, "median") for name in ("back to back", "isolated", "blocked stream")],
    *[("ch03_events", "bracketing", name, "median")
      for name in ("start; copy; kernel; stop", "copy; start; kernel; stop", "start; copy; stop")],
    *[("ch04_streams", "streams", name, "median") for name in ("1 stream", "10 streams")],
    *[("ch06_pinned_memory", "calls", f"{memory} {call}", key) for memory in ("pageable", "pinned")
      for call in ("cudaMemcpy", "cudaMemcpyAsync") for key in ("returned_ms", "done_ms")],
    *[("ch06_pinned_memory", "cpu_freed", f"{memory}, cudaMemcpyAsync, CPU work, sync", "median")
      for memory in ("pinned", "pageable")],
]


@pytest.mark.parametrize("chapter, table_id, name, key", CPP_ROWS)
def test_every_cpp_row_the_scripts_read_is_in_a_kept_run(chapter, table_id, name, key):
    import json

    sys.path.insert(0, str(PYTHON_DIR))
    import numba_lab

    report = json.loads((KEPT_RUN / f"{chapter}.json").read_text())
    assert isinstance(numba_lab.cpp_value(report, table_id, name, key), float)
