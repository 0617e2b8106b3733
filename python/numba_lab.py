"""The Numba side's shared part: numba.cuda imported with the one workaround this
machine needs, the reason it cannot run (or None), and the table that puts Numba's,
the C++ chapter's and PyTorch's figures from one run side by side.

    cuda = numba_lab.load()          # raises numba_lab.Unavailable(reason)
    rows = numba_lab.merge([(key, what)], numba={key: v}, cpp={key: v}, pytorch=Skipped(why) or {key: v})
    numba_lab.print_table(title, rows, unit)

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


class Skipped:
    """A whole column that this run did not measure, and why (no PyTorch, --no-chapter, ...).
    Printed as 'skipped' in every row, never as a number."""

    def __init__(self, reason):
        self.reason = reason

    def __repr__(self):
        return f"Skipped({self.reason!r})"

    def __eq__(self, other):
        return isinstance(other, Skipped) and other.reason == self.reason


COLUMNS = ("Numba", "C++ chapter", "PyTorch")


def pytorch_reason(enabled=True):
    """Why this run has no PyTorch column (--no-pytorch, not installed, not importable,
    no CUDA GPU), or None."""
    if not enabled:
        return "--no-pytorch given"
    try:
        return lab_chapters.no_gpu_reason()
    except Exception as error:  # torch installed but broken (e.g. built for another NumPy)
        return f"PyTorch could not be imported ({type(error).__name__}: {error})"


def pytorch_column(reason, measure):
    """Skipped(@reason) when @reason is set; else @measure(), a dict {row key: value}."""
    return Skipped(reason) if reason else measure()


def cpp_column(report, picks, enabled=True):
    """The C++ chapter's values {row key: value} from @report, for @picks {row key: (table id,
    row name, field)}; Skipped when --no-chapter was given or the chapter wrote no report
    (not built, or failed: the '[C++]' line above says which). A row missing from a report
    is None ('-')."""
    if not enabled:
        return Skipped("--no-chapter given")
    if report is None:
        return Skipped("the chapter gave no report (see the [C++] line above)")
    return {key: cpp_value(report, *pick) for key, pick in picks.items()}


def merge(rows, numba, cpp, pytorch):
    """One (what, Numba, C++, PyTorch) per (key, what) in @rows. Each column is a dict
    {key: value}, where a key left out or None means "not measured for this row" ('-'),
    or a Skipped for the whole column. A column that names a key no row has is an error
    (a renamed row would otherwise drop its figure silently)."""
    keys = [key for key, _ in rows]
    columns = (numba, cpp, pytorch)
    for label, column in zip(COLUMNS, columns):
        if not isinstance(column, (dict, Skipped)):
            raise TypeError(f"the {label} column is {type(column).__name__}, not a dict or Skipped")
        if isinstance(column, dict):
            unknown = [key for key in column if key not in keys]
            if unknown:
                raise KeyError(f"the {label} column has rows no table row names: {unknown}")
    return [(what, *(column if isinstance(column, Skipped) else column.get(key) for column in columns))
            for key, what in rows]


def cell(value):
    if isinstance(value, Skipped):
        return f"{'skipped':>12s}"
    return f"{value:12.3f}" if value is not None else f"{'-':>12s}"


def versus(ours, cpp):
    """(ours - C++) / C++ in percent, or '-' where either is missing or skipped."""
    if isinstance(ours, (int, float)) and isinstance(cpp, (int, float)) and cpp:
        return f"{(ours - cpp) / cpp * 100:+11.1f}%"
    return f"{'-':>12s}"


def table_lines(title, rows, unit):
    """The lines print_table prints: @rows from merge()."""
    width = max([52] + [len(what) for what, *_ in rows])
    lines = ["", title,
             f"  {'what':{width}s} {'Numba':>12s} {'C++ chapter':>12s} {'PyTorch':>12s} {'Numba/C++':>12s} "
             f"{'PyTorch/C++':>12s}"]
    for what, numba, cpp, pytorch in rows:
        lines.append(f"  {what:{width}s} {cell(numba)} {cell(cpp)} {cell(pytorch)} {versus(numba, cpp)} "
                     f"{versus(pytorch, cpp)}")
    lines.append(f"  ({unit}; X/C++ = (X - C++) / C++)")
    skipped = {}
    for row in rows:
        for label, value in zip(COLUMNS, row[1:]):
            if isinstance(value, Skipped):
                skipped.setdefault(label, value.reason)
    lines += [f"  {label} column skipped: {reason}" for label, reason in skipped.items()]
    return lines


def print_table(title, rows, unit):
    print("\n".join(table_lines(title, rows, unit)))


def add_column_options(parser):
    """The options every Numba script shares: where the C++ build is, and which columns to leave out."""
    parser.add_argument("--build-dir", help="the C++ build tree (default: $BUILD_DIR, build/gpu-check, build/release)")
    parser.add_argument("--no-chapter", action="store_true", help="do not run the C++ chapter")
    parser.add_argument("--no-pytorch", action="store_true", help="do not measure the PyTorch column")


def print_versions(args):
    """Prints the Numba and PyTorch versions; returns why the PyTorch column is skipped (None: it is measured)."""
    print(versions())
    reason = pytorch_reason(not args.no_pytorch)
    print(pytorch_versions(reason))
    return reason


def pytorch_versions(reason):
    """One line: the PyTorch column's torch and CUDA versions, or why it is skipped."""
    if reason:
        return f"PyTorch column: skipped ({reason})"
    import torch

    return f"PyTorch column: torch {torch.__version__}, CUDA {torch.version.cuda}"


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
