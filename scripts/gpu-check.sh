#!/usr/bin/env bash
# The whole GPU check, in one command, for a machine with an NVIDIA GPU:
#   1. configure and build (Release, for the GPU that is present)
#   2. every test except the exercises; on a GPU machine none may be skipped
#   3. every untouched exercise must FAIL its check (the tree checks itself)
#   4. every chapter once with small sizes and --json (read back by scripts/results_table.py)
#   5. compute-sanitizer --tool memcheck over every chapter, if installed
#   6. the tour: every chapter with its default options, output and JSON kept
#   7. chapter 05 again with CUDA_DEVICE_MAX_CONNECTIONS=1 (its page shows both)
#   8. chapters 02, 04, 05, 06 with --timeline --trace (CUPTI), the traces read back
#   9. a build without CUPTI: --timeline says there is none and the chapter carries on
# Ends with one summary line; exits non-zero if any step failed.
#
# Usage: scripts/gpu-check.sh [results-folder]   (default: build/gpu-check/results)
# Environment: BUILD_DIR (default build/gpu-check), JOBS (default: all cores).
set -u
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build/gpu-check}
results=${1:-$build/results}
jobs=${JOBS:-$(nproc)}
mkdir -p "$results"
failed=()
steps=0

step() {  # step <name> <command...>: run, log, remember failures
  local name=$1
  shift
  steps=$((steps + 1))
  echo "==> $name"
  if "$@" >"$results/$name.log" 2>&1; then
    echo "    ok"
  else
    echo "    FAILED (exit $?), last lines of $results/$name.log:"
    tail -n 25 "$results/$name.log" | sed 's/^/    | /'
    failed+=("$name")
  fi
}

# Read-only facts about the GPU and its current clocks (never changes anything).
nvidia-smi --query-gpu=name,driver_version,pci.bus_id,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,power.limit \
  --format=csv >"$results/nvidia-smi.csv" 2>&1 || true
cat "$results/nvidia-smi.csv"

step configure cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release
step build cmake --build "$build" -j "$jobs"

tests_without_skips() {
  local out rc
  out=$(ctest --test-dir "$build" --output-on-failure -LE exercise --no-tests=error 2>&1)
  rc=$?
  echo "$out"
  ((rc == 0)) || return 1
  # ctest counts a skipped test as "not failed"; on a GPU machine a skip is a failure.
  if grep -q "(Skipped)" <<<"$out"; then
    echo "gpu-check: a test was skipped on a machine with a GPU"
    return 1
  fi
}
step tests tests_without_skips

exercises_fail_untouched() {
  local out
  out=$(ctest --test-dir "$build" -L exercise 2>&1)
  echo "$out"
  # Every exercise check must fail: "0% tests passed, N tests failed out of N".
  [[ $out =~ ([0-9]+)\ tests\ failed\ out\ of\ ([0-9]+) ]] && [[ ${BASH_REMATCH[1]} == "${BASH_REMATCH[2]}" ]] &&
    [[ ${BASH_REMATCH[2]} -gt 0 ]]
}
step exercises-fail-untouched exercises_fail_untouched

if [[ -f $build/chapters.tsv ]]; then
  while IFS=$'\t' read -r name executable smoke; do
    # shellcheck disable=SC2086  # smoke holds several arguments
    step "$name.smoke" "$executable" $smoke --json "$results/$name.smoke.json"
    if command -v python3 >/dev/null; then  # the JSON reads back in the shared shape
      step "$name.json" python3 scripts/results_table.py "$results/$name.smoke.json"
    fi
    if command -v compute-sanitizer >/dev/null; then
      # shellcheck disable=SC2086
      # --report-api-errors no: chapters provoke API errors on purpose (chapter 01's
      # bad launch) and check every call themselves; memcheck is here for memory errors.
      step "$name.memcheck" compute-sanitizer --tool memcheck --error-exitcode 99 --leak-check full \
        --report-api-errors no \
        "$executable" $smoke
    else
      echo "==> $name.memcheck: compute-sanitizer not installed, not run"
    fi
  done <"$build/chapters.tsv"
fi

tour() {
  cmake --build "$build" --target tour || return 1
  cp "$build"/tour/*.json "$results"/
}
step tour tour

# Chapter 05 once more with a single hardware work queue, for its page (does
# the order in which V1 and V2 queue their work matter then?). The log is kept.
one_queue() {
  CUDA_DEVICE_MAX_CONNECTIONS=1 "$build/chapters/05_overlap/ch05_overlap" --json "$results/ch05_overlap.one-queue.json"
}
[[ -x $build/chapters/05_overlap/ch05_overlap ]] && step ch05_overlap.one-queue one_queue

# The CUPTI timelines of the chapters that have them, for their pages; each
# trace must read back as Chrome trace JSON with kernels or copies in it.
timelines() {
  local name
  for name in 02_sync_pitfalls 04_streams 05_overlap 06_pinned_memory; do
    local program="$build/chapters/$name/ch$name"
    "$program" --timeline --trace "$results/ch$name.trace.json" >"$results/ch$name.timeline.txt" 2>&1 || return 1
    grep -q "timeline (CUPTI) of" "$results/ch$name.timeline.txt" || return 1
    python3 - "$results/ch$name.trace.json" <<'PY' || return 1
import json, sys
events = json.load(open(sys.argv[1]))["traceEvents"]
slices = [e for e in events if e["ph"] == "X" and e["cat"] in ("kernel", "memcpy")]
print(sys.argv[1], len(events), "events,", len(slices), "kernels and copies")
sys.exit(0 if slices else 1)
PY
  done
}
command -v python3 >/dev/null && step timelines timelines

# Without CUPTI the chapters still build and run, and say once that there is no timeline.
without_cupti() {
  local other="$build-no-cupti"
  cmake -S . -B "$other" -DCMAKE_BUILD_TYPE=Release -DLAB_WITH_CUPTI=OFF -DLAB_BUILD_TESTS=OFF || return 1
  cmake --build "$other" -j "$jobs" --target ch04_streams || return 1
  local out
  out=$("$other/chapters/04_streams/ch04_streams" --n 100003 --reps 2 --race-reps 3 --timeline 2>&1) || return 1
  echo "$out"
  grep -q "no timeline: this build has no CUPTI" <<<"$out"
}
step without-cupti without_cupti

if ((${#failed[@]} == 0)); then
  echo "gpu-check: PASS: $steps steps passed on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)"
  exit 0
fi
echo "gpu-check: FAIL: ${#failed[@]} of $steps steps failed: ${failed[*]}"
exit 1
