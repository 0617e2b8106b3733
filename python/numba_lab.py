"""The Numba side's shared part: numba.cuda imported with the one workaround this
machine needs, the reason it cannot run (or None), and the Numba-beside-C++ table.

    cuda = numba_lab.load()          # raises numba_lab.Unavailable(reason)
    numba_lab.side_by_side(title, [(what, numba_value, cpp_value)], unit)

The workaround (docs/numba.md): numba-cuda 0.30.4 registers an overload for
np.row_stack (numba_cuda/numba/cuda/np/arrayobj.py), a function NumPy 2.5 removed, so
importing that module (numba.cuda imports it on the first kernel compile) fails with
AttributeError (NVIDIA/numba-cuda issue 907). row_stack_patch_needed() imports it in a
child process with no patch; only when that fails on row_stack does load() set
np.row_stack = np.vstack (NumPy documented row_stack as an alias of vstack) before
importing numba.cuda. With a numba-cuda that no longer names row_stack, nothing is patched.
"""
import os
import subprocess
import sys
import time

import lab_chapters

PATCH = "np.row_stack = np.vstack"
PROBE = "import numba.cuda.np.arrayobj"  # the module that names np.row_stack
PATCHED = False  # set by load(): whether this process needed the patch


class Unavailable(Exception):
    """Numba cannot run GPU work here; the message says why."""


def simulator():
    """True when NUMBA_ENABLE_CUDASIM=1: kernels run on the CPU, timings mean nothing."""
    return os.environ.get("NUMBA_ENABLE_CUDASIM") == "1"


def row_stack_patch_needed():
    """True when numba-cuda's array module fails to import on np.row_stack (checked in a
    child process, so this one imports cleanly); False when it imports without help.
    Raises Unavailable when it fails for another reason, or numba is not installed."""
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True)
    if done.returncode == 0:
        return False
    last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
    if "row_stack" in last:
        return True
    raise Unavailable(f"numba.cuda cannot be imported ({last})")


def load():
    """numba.cuda, imported once, with np.row_stack aliased only if the probe says so."""
    global PATCHED
    # sum_partials runs one block on purpose: keep Numba's low-occupancy warning out of the logs.
    os.environ.setdefault("NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS", "0")
    if "numba.cuda" not in sys.modules:
        import numpy as np

        if row_stack_patch_needed():
            np.row_stack = np.vstack
            PATCHED = True
    from numba import cuda

    return cuda


def unavailable_reason():
    """Why Numba cannot run GPU work here, or None (the simulator counts as a GPU)."""
    try:
        cuda = load()
    except Unavailable as error:
        return str(error)
    except ImportError as error:
        return f"Numba cannot be imported ({error}; see docs/numba.md)"
    if not simulator() and not cuda.is_available():
        return "Numba sees no CUDA GPU (numba.cuda.is_available() is False)"
    return None


def versions():
    """One line: numba, numba-cuda, NumPy, whether the patch was applied, the device."""
    import numba
    import numpy as np
    from importlib import metadata

    cuda = load()
    device = "the CUDA simulator (NUMBA_ENABLE_CUDASIM=1)" if simulator() else cuda.get_current_device().name
    if isinstance(device, bytes):
        device = device.decode()
    patch = f"patched: {PATCH}" if PATCHED else "no patch needed"
    return (f"numba {numba.__version__}, numba-cuda {metadata.version('numba-cuda')}, NumPy {np.__version__} "
            f"({patch}); device: {device}")


def skip(reason):
    print(f"skipped: {reason}")
    return 77


def chapter(name, args, build_dir, enabled=True):
    """The C++ chapter's report from this run, or None (not built, or --no-chapter)."""
    if not enabled:
        return None
    return lab_chapters.run_chapter(name, args, lab_chapters.find_build_dir(build_dir))


def cpp_value(report, table_id, name, key="median"):
    row = lab_chapters.find_row(report, table_id, name)
    return row.get(key) if row else None


def side_by_side(title, rows, unit):
    """Rows of (what, Numba value, C++ value) with the difference; None prints as '-'."""
    lab_chapters.side_by_side(title, rows, unit, label="Numba", width=max([52] + [len(what) for what, _, _ in rows]))


def host_ms(work):
    """Host milliseconds that @work() took to return."""
    start = time.perf_counter()
    work()
    return (time.perf_counter() - start) * 1e3


def event_times_ms(cuda, work, stream, samples, warmup=3, isolated=False):
    """Times @work (queues GPU work on @stream) with numba.cuda.event pairs recorded on
    @stream: @warmup untimed calls, then @samples timed ones; back to back (one wait at
    the end) or isolated (the host waits after each sample: each pair brackets a lone
    launch into an idle GPU, the launch gap included)."""
    for _ in range(warmup):
        work()
    stream.synchronize()
    pairs = []
    for _ in range(samples):
        start, end = cuda.event(), cuda.event()
        start.record(stream)
        work()
        end.record(stream)
        pairs.append((start, end))
        if isolated:
            end.synchronize()
    stream.synchronize()
    return [start.elapsed_time(end) for start, end in pairs]
