#!/usr/bin/env bash
# The PyTorch side, in one command, on a machine with a GPU, PyTorch (with CUDA),
# ninja and an nvcc of PyTorch's CUDA major version, after the C++ build exists:
#   1. build chapter 01's extension (torch.utils.cpp_extension.load, JIT) into build/torch-ext
#   2. the pytest suite (python/run_tests.py) but its three tests that run the scripts of
#      chapters 10 to 12 end to end at small sizes (main_prints: step 3 runs those scripts)
#   3. every python/ script once (and, if ncu is installed, ch01_add_profile.py under it), at the
#      counts of the kept logs the pages quote (docs/pytorch.md), each beside the C++ chapter's
#      figures from BUILD_DIR (or from a kept run with the same options: LAB_CHAPTER_TOUR and
#      LAB_CHAPTER_RUNS, python/lab_chapters.py); output to <results>/<script>.log
# Ends with one line per step, each step's wall time (slowest first; also at the end of its log
# and in <results>/steps.tsv) and a summary; exits non-zero if a step failed.
# A step that exits 77 (PyTorch, a GPU, ninja or triton missing) is reported as skipped.
#
# Usage: scripts/torch-check.sh <results-folder>
# Environment: BUILD_DIR (the C++ build tree with chapters, default build/gpu-check),
#              PYTHON (default python3).
set -u
cd "$(dirname "$0")/.." || exit 1
results=${1:?usage: scripts/torch-check.sh <results-folder>}
export BUILD_DIR=${BUILD_DIR:-build/gpu-check}
export LAB_TORCH_EXT_DIR=${LAB_TORCH_EXT_DIR:-$PWD/build/torch-ext}
python=${PYTHON:-python3}
mkdir -p "$results"
# shellcheck source=scripts/side-steps.sh
source scripts/side-steps.sh

[[ -d $BUILD_DIR/chapters ]] || echo "torch-check: no chapters in $BUILD_DIR: the C++ columns will be '-'"
# One process for both (each import costs seconds); triton's line says why it is missing, if it is.
"$python" - >"$results/versions.txt" 2>&1 <<'EOF'
import torch
print("PyTorch", torch.__version__, "CUDA", torch.version.cuda, "GPU", torch.cuda.is_available(), flush=True)
try:
    import triton
    print("triton", triton.__version__)
except Exception as error:  # noqa: BLE001  (the record says what happened, whatever it was)
    print(f"triton: {type(error).__name__}: {error}")
EOF
head -n 1 "$results/versions.txt"
command -v ninja >>"$results/versions.txt" 2>&1 || echo "ninja: not found" >>"$results/versions.txt"

step extension "$python" python/add_extension.py
# -k: the main_prints tests run the scripts of chapters 10-12 (and their C++ chapters) at small
# sizes; the steps below run the same scripts at full size. CTest's python.pytest runs them all.
# --durations: the slowest tests' times in the log, for the next cut of gpu-check's time.
step pytest "$python" python/run_tests.py -k "not main_prints" --durations=10
step ch01_add_extension "$python" python/ch01_add_extension.py --n 64Mi --samples 20
step ch01_add_profile "$python" python/ch01_add_profile.py --n 64Mi --samples 20
if command -v ncu >/dev/null; then  # each kernel's launch and loads, as ncu counts them (read-only counters)
  step ch01_add_profile.ncu ncu --clock-control none --metrics launch__grid_size,launch__block_size,\
launch__registers_per_thread,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,\
dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,\
gpu__time_duration.sum "$python" python/ch01_add_profile.py --n 64Mi --once
fi
step ch02_host_timers "$python" python/ch02_host_timers.py --runs 10
step ch03_events "$python" python/ch03_events.py --samples 20
step ch04_streams "$python" python/ch04_streams.py --reps 5 --race-runs 20
step ch06_pinned_memory "$python" python/ch06_pinned_memory.py --mib 256 --reps 5
step ch07_l2_flush "$python" python/ch07_l2_flush.py --samples 50
step ch10_graph_replay "$python" python/ch10_graph_replay.py --samples 20
step ch11_stream_priority "$python" python/ch11_stream_priority.py --samples 20
step ch12_triton_stages "$python" python/ch12_triton_stages.py --reps 10 --cpp-reps 3
step ch13_timer_tools "$python" python/ch13_timer_tools.py --samples 20 --json "$results/ch13_timer_tools.json"
step bench_measure_vs_do_bench "$python" python/bench_measure_vs_do_bench.py

side_summary torch-check
echo "torch-check: $failed step(s) failed; logs in $results"
((failed == 0))
