#!/usr/bin/env bash
# Chapter 09 on a machine with two or more GPUs: build what the chapter and its
# tests need, run the chapter on all GPUs and on one, its tests (the two-GPU ones
# included) and its exercise checks, and the chapter's small run under each of
# compute-sanitizer's four tools. Every output goes to <results>/.
# Usage: scripts/two-gpu-check.sh [results-folder]   (default: build/two-gpu/results)
# Environment: BUILD_DIR (default build/two-gpu), JOBS (default: all cores).
# It changes no GPU setting and leaves the machine's environment (NCCL_* and the like) as it is.
set -u
cd "$(dirname "$0")/.." || exit 1
build=${BUILD_DIR:-build/two-gpu}
results=${1:-$build/results}
mkdir -p "$results"
results=$(cd "$results" && pwd)
jobs=${JOBS:-$(nproc)}
failed=0
run() {  # run <name> <command...>: output to <results>/<name>.txt, failure remembered
  local name=$1 rc=0
  shift
  echo "==> $name"
  "$@" >"$results/$name.txt" 2>&1 </dev/null || rc=$?
  echo "    exit $rc"
  ((rc == 0)) || failed=1
}
nvidia-smi --query-gpu=index,name,driver_version,pci.bus_id,clocks.sm,clocks.max.sm,power.draw,power.limit \
  --format=csv >"$results/nvidia-smi.csv" 2>&1
nvidia-smi topo -m >"$results/nvidia-smi-topo.txt" 2>&1
export LAB_PRISTINE_FROM=tree
run configure cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release
run build cmake --build "$build" -j "$jobs" --target ch09_multi_gpu ch09_cpu_test ch09_gpu_test ch09_two_gpu_test \
  ch09_exercise_check ch09_solution_check ch09_pristine_check ch09b_exercise_check ch09b_solution_check ch09b_pristine_check
chapter="$build/chapters/09_multi_gpu/ch09_multi_gpu"
run ch09_multi_gpu "$chapter" --json "$results/ch09_multi_gpu.json"
run ch09_multi_gpu.one-device "$chapter" --devices 1 --json "$results/ch09_multi_gpu.one-device.json"
# Not the learner's check (label exercise): it runs the exercise as handed out, which fails.
run tests ctest --test-dir "$build" -R 'ch09' -LE '^exercise$' --output-on-failure
smoke=$(awk -F '\t' '$1 == "ch09_multi_gpu" { print $3 }' "$build/chapters.tsv")
for tool in memcheck racecheck synccheck initcheck; do
  # shellcheck disable=SC2086  # smoke holds several arguments
  run "sanitizer.$tool" compute-sanitizer --tool "$tool" --error-exitcode 99 --print-limit 50 --report-api-errors no \
    "$chapter" $smoke --instrumented
  grep -E "(ERROR|RACECHECK) SUMMARY" "$results/sanitizer.$tool.txt"
done
echo "two-gpu-check: $([[ $failed == 0 ]] && echo PASS || echo FAIL)"
exit "$failed"
