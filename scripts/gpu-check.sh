#!/usr/bin/env bash
# The whole GPU check, in one command, for a machine with an NVIDIA GPU:
#   1. configure and build (Release, for the GPU that is present): the chapters first (target
#      lab_chapters), then the rest (the tests, the exercises as handed out) in the background
#      during step 4, followed there by the CPU tests (all at once)
#   2. without compute-sanitizer: every chapter once with small sizes and --json (read back by
#      scripts/results_table.py); with it, step 4's runs are these small runs
#   3. in the background, nice 10 (from the configure step on when compute-sanitizer is there,
#      else after step 2): the student copy: scripts/progress finds every
#      exercise not started; the solutions of STUDENT_COPY_SOLVED (default ch01 ch05 ch08b)
#      copied in and built; the build without CUPTI, chapter 01's PyTorch extension, the
#      report's and Numba's packages
#   4. if compute-sanitizer is installed, every chapter's small run under each of its four
#      tools, SANITIZER_JOBS runs
#      at a time (memcheck, racecheck, synccheck, initcheck), with --instrumented: timing checks
#      are printed as not judged, correctness checks still count. A step fails when the tool
#      reports an error, the chapter exits non-zero, or it runs past SANITIZER_TIMEOUT;
#      then every tool's log must hold a zero summary ("ERROR SUMMARY: 0 errors",
#      racecheck's "RACECHECK SUMMARY: 0 hazards")
#   5. once the background work has ended: the CPU tests' result, then the GPU tests one by one
#      (every solution's check among them), every test but the exercises' and the chapters'
#      smoke tests (steps 2 and 4 run those); on a GPU machine none may be skipped (with one
#      GPU, the tests labelled two_gpus are left out here and below); every exercise as handed
#      out (label pristine) must FAIL its check (the tree checks itself); then, first in part 2,
#      the student copy's solved exercises: progress finds them solved
#   6. the tour: every chapter with its default options, output and JSON kept (read back)
#   7. chapter 05's tour JSON holds V1/V2 measured under 1, 2, the default and 32 connections
#   8. chapters 02 and 06 with their small sizes, 04, 05 and 13 at their default sizes (fewer repetitions),
#      with --timeline --trace (CUPTI), the traces read back; then the learner's report on the
#      results folder (the tour's JSON and these traces: scripts/report into <results>/report),
#      with plotly and matplotlib from this Python or installed offline from the carried wheel
#      folder build/wheels/report (scripts/report-wheels.sh; skipped, with the reason, without either)
#   9. a build without CUPTI: --timeline says there is none and the chapter carries on
#  10. the PyTorch side (scripts/torch-check.sh into <results>/torch): chapter 01's extension
#      (built in part 1) loaded, python/tests run (less the three that run chapters 10-12's
#      scripts end to end, which this step runs at full size), every python/ script once;
#      skipped where PyTorch is missing
#  11. the Numba side (scripts/numba-check.sh into <results>/numba): numba from the carried
#      wheel, its pytest suite (once), every python/numba_*.py script once; skipped where it cannot run
#      (each side's steps.tsv and the end of each of its logs give every step's wall time)
# To fit in 12 minutes on one GPU: what needs no GPU (the rest of the build, the CPU tests,
# the student copy, the other builds and installs) runs in the background during step 4, at a
# lower priority; the sanitizer runs go SANITIZER_JOBS at a time; nothing runs twice (the smoke
# tests are step 2/4, every solution's check is step 5, and steps 10 and 11 take a C++ chapter's
# figures from the tour when they ask for its options). steps.tsv also records the sanitizers'
# wall time and how long part 1 waited for the background work.
# Every step's output goes to <results>/<step>.log. Ends with each step's wall time
# (also in <results>/steps.tsv) and one summary line; exits non-zero if any step failed.
#
# Usage: scripts/gpu-check.sh [results-folder]   (default: build/gpu-check/results)
# Environment: BUILD_DIR (default build/gpu-check), JOBS (default: all cores),
#              SANITIZER_TIMEOUT (seconds per sanitizer run, default 300),
#              SANITIZER_JOBS (sanitizer runs at a time, default 16),
#              STUDENT_COPY_SOLVED (the exercises the student copy solves, default "ch01 ch05 ch08b"),
#              GPU_CHECK_PART: all (default), 1 (steps 1-5), 2 (the student copy's solved
#              exercises and steps 6-9, on the build part 1 left), 3 (steps 10 and 11), or a list (2,3): for a
#              machine that gives a command ten minutes, run part 1, then 2,3 right after, into
#              the same results folder.
#              GPU_CHECK_SKIP: step names to leave out, separated by spaces (e.g.
#              "student-copy"); each is reported and recorded as skipped, never as passed,
#              and the summary line names them.
# shellcheck disable=SC2317  # the step functions are called through step(), which shellcheck cannot follow
set -u
cd "$(dirname "$0")/.." || exit 1
build=${BUILD_DIR:-build/gpu-check}
results=${1:-$build/results}
jobs=${JOBS:-$(nproc)}
sanitizer_timeout=${SANITIZER_TIMEOUT:-300}
mkdir -p "$results"
results=$(cd "$results" && pwd)  # absolute: some steps run in other folders
failed=()
steps=0
skipped=()
part=${GPU_CHECK_PART:-all}
[[ $part =~ ^(all|[123](,[123])*)$ ]] || { echo "gpu-check: GPU_CHECK_PART must be all, 1, 2, 3 or a list such as 2,3 (got '$part')"; exit 2; }
in_part() { [[ $part == all || ,$part, == *",$1,"* ]]; }  # in_part <n>: does this run do part n?
if in_part 1; then
  printf 'step\tresult\tseconds\n' >"$results/steps.tsv"
elif [[ ! -d $build/chapters ]]; then
  echo "gpu-check: part $part needs part 1's build in $build"
  exit 1
fi
steps_part=1  # the part the steps below belong to

step() {  # step [--may-skip] <name> <command...>: run, log, time, remember failures
  local may_skip=0
  [[ $1 == --may-skip ]] && { may_skip=1; shift; }  # exit 77 means "cannot run here": skipped, not failed
  local name=$1 rc=0 start=$SECONDS result=ok
  shift
  in_part "$steps_part" || return 0
  if [[ " ${GPU_CHECK_SKIP:-} " == *" $name "* ]]; then
    echo "==> $name"
    echo "    skipped (GPU_CHECK_SKIP)"
    skipped+=("$name")
    printf '%s\t%s\t%s\n' "$name" "skipped (GPU_CHECK_SKIP)" 0 >>"$results/steps.tsv"
    return 0
  fi
  steps=$((steps + 1))
  echo "==> $name"
  # </dev/null: nothing a step runs may read the chapter list the loop below reads on stdin.
  "$@" >"$results/$name.log" 2>&1 </dev/null || rc=$?
  local seconds=$((SECONDS - start))
  if ((rc == 0)); then
    echo "    ok (${seconds} s)"
  elif ((rc == 77 && may_skip)); then
    steps=$((steps - 1))
    result="skipped: $(grep -m1 -o 'skipped: .*' "$results/$name.log" | cut -c10-)"
    echo "    $result"
    skipped+=("$name")
  else
    result="FAILED (exit $rc)"
    ((rc == 124 || rc == 137)) && result="FAILED (timed out, exit $rc)"
    echo "    $result after ${seconds} s, last lines of $results/$name.log:"
    tail -n 25 "$results/$name.log" | sed 's/^/    | /'
    failed+=("$name")
  fi
  printf '%s\t%s\t%s\n' "$name" "$result" "$seconds" >>"$results/steps.tsv"
}

# Read-only facts about the GPU and its current clocks (never changes anything).
nvidia-smi --query-gpu=name,driver_version,pci.bus_id,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,power.limit \
  --format=csv >"$results/nvidia-smi.csv" 2>&1 || true
cat "$results/nvidia-smi.csv"

# Tests labelled two_gpus (chapter 09's) need two GPUs and exit 77 (skipped) on
# one; on such a machine they are left out of every step below, and said so.
# The PyTorch side (label torch, python/) is step 10, scripts/torch-check.sh, not the
# tests step: a GPU machine may have no PyTorch, and that must not fail this one.
gpu_count=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
# The learner's report (label report: scripts/report, CPU only) needs the pinned PyPI tools
# (plotly, matplotlib), which a GPU machine without network lacks; .ci/run runs its tests.
skip_labels='exercise|pristine|torch|report'
pristine_skip=''
if ((gpu_count < 2)); then
  skip_labels='exercise|pristine|torch|report|two_gpus'
  pristine_skip='two_gpus'
  echo "gpu-check: $gpu_count GPU: tests labelled two_gpus are not run (they need two GPUs)"
fi

# The work that needs no GPU, started in the background at a lower priority (nice 10) while
# the sanitizer runs go, each with its log and exit code in <results>: the rest of the build
# (all cores) and then the CPU tests; the student copies, the build without CUPTI, chapter
# 01's PyTorch extension, the report's and Numba's packages (half the cores each).
student_copy_dir="${TMPDIR:-/tmp}/lab-gpu-check-student/student"  # outside the repository, as make-student-copy requires
no_cupti_dir="$build-no-cupti"
# The exercises the student copy solves: the tests step has already run every solution's
# check in this tree (chNN_solution_check); the copy proves that make-student-copy and
# scripts/progress work in a learner's tree, with one exercise that links its chapter's
# lesson (05) and one with a graph (08b).
read -r -a student_copy_solved <<<"${STUDENT_COPY_SOLVED:-ch01 ch05 ch08b}"
exercise_field() {  # exercise_field <field> <chapter...>: that field of each of these chapters' exercises, a line each
  python3 -c 'import json, sys; [print(e[sys.argv[2]]) for e in json.load(open(sys.argv[1]))["exercises"] if e["chapter"] in sys.argv[3:]]' \
    "$build/exercises/exercises.json" "$@"
}
build_student_checks() {  # build_student_checks <jobs>: the checks of the exercises the copy solves
  local targets
  mapfile -t targets < <(exercise_field target "${student_copy_solved[@]}")
  (cd "$student_copy_dir" && cmake --preset release >/dev/null && cmake --build build/release -j "$1" --target "${targets[@]}")
}
prepare_student_copy() {  # prepare_student_copy <jobs>: a student copy; progress on it as handed out; solved
  rm -rf "$(dirname "$student_copy_dir")"
  mkdir -p "$(dirname "$student_copy_dir")"
  scripts/make-student-copy --working-tree "$student_copy_dir" || return 1
  # As handed out, progress finds every exercise not started: it builds and runs nothing (no GPU).
  # In the copy, the exercises as handed out are its own first commit.
  (cd "$student_copy_dir" && env -u LAB_PRISTINE_FROM scripts/progress --json "$results/progress-student-untouched.json") || return 1
  # Then the solutions of STUDENT_COPY_SOLVED copied in and their checks built (the student-copy step runs them).
  local chapter folder
  for chapter in "${student_copy_solved[@]}"; do
    folder=$(exercise_field folder "$chapter")
    [[ -n $folder && -d solutions/$folder ]] || { echo "gpu-check: STUDENT_COPY_SOLVED names $chapter, no exercise"; return 1; }
    cp solutions/"$folder"/* "$student_copy_dir/exercises/$folder/" || return 1
  done
  build_student_checks "$1" || true  # a check that does not compile is progress's to report
}
rest_of_build() {  # rest_of_build <jobs>: the tests and the exercises as handed out; then the CPU tests
  rm -f "$results/tests-cpu.out" "$results/tests-cpu.rc"
  cmake --build "$build" -j "$1" --target all pristine_checks || return 1
  local rc=0
  ctest --test-dir "$build" --output-on-failure -L cpu -LE "$skip_labels" -j "$1" --no-tests=error >"$results/tests-cpu.out" 2>&1 || rc=$?
  echo "$rc" >"$results/tests-cpu.rc"
}
install_numba() {  # Numba from the carried wheel, for the numba step (scripts/numba-check.sh --install)
  scripts/numba-check.sh --install "$results/numba"
}
warm_python() {  # PyTorch and Triton read once from disk, so part 3's first script does not pay it
  python3 -c 'import torch, triton' || true
}
build_without_cupti() {  # build_without_cupti <jobs>
  cmake -S . -B "$no_cupti_dir" -DCMAKE_BUILD_TYPE=Release -DLAB_WITH_CUPTI=OFF -DLAB_BUILD_TESTS=OFF &&
    cmake --build "$no_cupti_dir" -j "$1" --target ch04_streams
}
build_torch_extension() {  # chapter 01's PyTorch extension (JIT, cached in build/torch-ext); the torch step loads it
  LAB_TORCH_EXT_DIR=${LAB_TORCH_EXT_DIR:-$PWD/build/torch-ext} python3 python/add_extension.py
}
report_site=$build/report-site  # plotly and matplotlib from build/wheels/report, if this Python lacks them
[[ $report_site == /* ]] || report_site=$PWD/$report_site
install_report_packages() {  # for the report step: nothing, or an offline pip install (exit 77: cannot)
  scripts/report-wheels.sh "$report_site"
}
background_pids=()
background_builds() {  # background_builds <job...>
  in_part 1 || return 0
  local half=$(((jobs + 1) / 2)) job cores
  for job in "$@"; do
    cores=$half
    [[ $job == rest_of_build || $job == prepare_student_copy ]] && cores=$jobs  # the two longest (H200, 2026-12-02e: 139 and 165 s)
    (
      renice -n 10 -p "$BASHPID" >/dev/null 2>&1 || true  # the sanitizer runs come first
      rc=0 start=$SECONDS
      "$job" "$cores" >"$results/$job.build.log" 2>&1 </dev/null || rc=$?
      echo "$rc" >"$results/$job.build.rc"
      echo "(built in $((SECONDS - start)) s, in the background, $cores jobs, nice 10)" >>"$results/$job.build.log"
    ) &
    background_pids+=($!)
  done
}
wait_background_builds() {
  ((${#background_pids[@]} > 0)) && wait "${background_pids[@]}"
  background_pids=()
}
background_build_ok() {  # background_build_ok <job>: its log, and whether it built (part 1 started it)
  cat "$results/$1.build.log" 2>/dev/null
  [[ -f $results/$1.build.rc ]] || { echo "gpu-check: $1 never ran (part 1 starts it)"; return 1; }
  return "$(cat "$results/$1.build.rc")"
}

# The exercises as handed out are this tree's (cmake/PristineExercises.cmake): a tree
# copied to a GPU machine may come without its newest git history.
export LAB_PRISTINE_FROM=tree
in_part 1 && rm -rf "$build/exercises/pristine"  # part 1 builds them again
step configure cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release
# With compute-sanitizer (step 4 then runs no timing check), the background work that does not
# need this build starts now, beside the chapters' build; without it, after the small runs.
independent_jobs=(prepare_student_copy build_without_cupti build_torch_extension install_report_packages install_numba warm_python)
early_background=0
if in_part 1 && command -v compute-sanitizer >/dev/null && [[ " ${failed[*]} " != *" configure "* ]]; then
  background_builds "${independent_jobs[@]}"
  early_background=1
fi
# The chapters first (the sanitizer runs need only them); the rest of the build (the tests,
# and the exercises as handed out, so that the pristine step's own build,
# exercises.pristine_build, finds nothing to do) goes on in the background while they run.
step build-chapters cmake --build "$build" -j "$jobs" --target lab_chapters
if [[ " ${failed[*]} " == *" configure "* || " ${failed[*]} " == *" build-chapters "* ]]; then
  echo "gpu-check: FAIL: the build failed (its log: $results/build-chapters.log), so nothing else can run"
  wait_background_builds
  exit 1
fi

tests_without_skips() {
  # The CPU tests all at once; then the GPU tests one by one (their timing checks want
  # the GPU to themselves). The chapters' smoke tests (label smoke) are left to the
  # smoke steps below, which run the same command with --json.
  local out rc=0
  # The CPU tests ran in the background, after the rest of the build (rest_of_build).
  out=$(cat "$results/tests-cpu.out")
  rc=$(cat "$results/tests-cpu.rc")
  out+=$'\n'$(ctest --test-dir "$build" --output-on-failure -LE "cpu|smoke|$skip_labels" --no-tests=error 2>&1) || rc=$?
  echo "$out"
  ((rc == 0)) || return 1
  # ctest counts a skipped test as "not failed"; on a GPU machine a skip is a failure,
  # except the read-only-folder case as root, who can write anywhere (it says so).
  local skipped
  skipped=$(grep "(Skipped)" <<<"$out")
  ((EUID == 0)) && skipped=$(grep -v "check_output_file_a_read_only_folder" <<<"$skipped")
  if [[ -n $skipped ]]; then
    echo "gpu-check: a test was skipped on a machine with a GPU"
    return 1
  fi
}

exercises_fail_untouched() {  # every exercise as handed out fails its check (WILL_FAIL: ctest passes then)
  local out rc expected passed
  out=$(ctest --test-dir "$build" -L pristine ${pristine_skip:+-LE "$pristine_skip"} --output-on-failure --no-tests=error 2>&1)
  rc=$?
  echo "$out"
  ((rc == 0)) || return 1
  if grep -q "(Skipped)" <<<"$out"; then
    echo "gpu-check: a pristine check was skipped"
    return 1
  fi
  expected=$(find solutions -mindepth 1 -maxdepth 1 -type d -name '[0-9][0-9]*_*' | wc -l)
  if [[ -n $pristine_skip ]]; then  # the pristine checks that need two GPUs were not run
    expected=$((expected - $(ctest --test-dir "$build" -N -L "$pristine_skip" | grep -c "_pristine_check")))
  fi
  passed=$(grep -cE "_pristine_check .*Passed" <<<"$out")
  ((passed == expected)) || {
    echo "gpu-check: $passed pristine checks failed as they should, expected $expected"
    return 1
  }
}

# compute-sanitizer, one tool per run. Flags, and why:
#   all tools  --error-exitcode 99: a reported error fails the run even when the chapter exits 0;
#              --print-limit 50: a broken chapter prints 50 reports with backtraces, not thousands
#              (the summary still counts them all), so a failing run stays short too;
#              --report-api-errors no: chapters provoke API errors on purpose (chapter 01's
#              bad launch) and check every call themselves; the tools are here for what the
#              GPU does with memory and barriers, and a failed call fails the chapter anyway.
#   memcheck   --leak-check full: device memory never freed is an error;
#              --track-stream-ordered-races all (where this compute-sanitizer has it): a use of
#              cudaMallocAsync memory before its allocation or after its cudaFreeAsync, in
#              stream order (chapter 04 teaches those).
#   racecheck  --racecheck-report analysis: one report per pair of racing source lines, not one per
#              hazard. The summary must say 0 hazards, so warnings fail as well as errors.
#   synccheck  the defaults: __syncthreads / __syncwarp used where not all threads reach it.
#              Chapter 12 runs it with --no-pipeline: on the H100 of 2026-11-25 (compute-sanitizer
#              of CUDA 13.0) synccheck reported "Barrier error detected. Missing wait" in libcu++'s
#              cuda::pipeline<thread_scope_block> even in a 30-line probe with plain copies and
#              correct results, and none for cuda::barrier with cuda::memcpy_async
#              (docs/results/h100-2026-11-25/run5/synccheck-probe/); memcheck, racecheck and
#              initcheck run every version.
#   initcheck  its defaults: reading device memory nothing wrote, by a kernel or by a copy
#              (a device-to-host cudaMemcpy of uninitialised bytes counts). --track-unused-memory
#              is left off (its default): memory allocated and never used is waste, not a wrong
#              result, and the L2 flusher's sink is never written by design.

sanitizer_logs=()
sanitizer_flags() {  # sanitizer_flags <tool>: prints the flags for that tool, one a line
  printf '%s\n' --error-exitcode 99 --print-limit 50 --report-api-errors no
  case $1 in
    memcheck)
      printf '%s\n' --leak-check full
      if grep -q -- "--track-stream-ordered-races" <<<"$sanitizer_help"; then
        printf '%s\n' --track-stream-ordered-races all
      fi
      ;;
    racecheck) printf '%s\n' --racecheck-report analysis ;;
  esac
}

# sanitize <tool> <executable> <args...>: the chapter's run under one tool, stopped after
# SANITIZER_TIMEOUT seconds (exit 124). timeout signals the whole process group, so the
# chapter that compute-sanitizer started ends with it.
sanitize() {
  local tool=$1
  shift
  local flags extra=()
  mapfile -t flags < <(sanitizer_flags "$tool")
  [[ $tool == synccheck && $(basename "$1") == ch12_async_copies ]] && extra=(--no-pipeline)  # see above
  echo "compute-sanitizer --tool $tool ${flags[*]} $* ${extra[*]} --instrumented"
  timeout --kill-after=15 "$sanitizer_timeout" "${line_buffered[@]}" compute-sanitizer --tool "$tool" "${flags[@]}" "$@" "${extra[@]}" --instrumented
}

# One sanitizer run in the background: its output and exit code go to
# <results>/<name>.<tool>.run and .rc, reported by a step once all have ended.
# Each line of its log starts with the seconds since the run began ("[  12 s] "; the chapter's
# output line-buffered through stdbuf where there is one), so a slow run shows which section
# took the time.
stamp_lines() {  # stamp_lines <start>: prefixes each line of stdin with the seconds since SECONDS was <start>
  local line
  while IFS= read -r line || [[ -n $line ]]; do printf '[%4d s] %s\n' $((SECONDS - $1)) "$line"; done
}
line_buffered=()
command -v stdbuf >/dev/null && line_buffered=(stdbuf -oL -eL)
sanitize_in_background() {  # sanitize_in_background <name> <tool> <executable> <args...>
  local name=$1 tool=$2 start=$SECONDS rc=0
  shift 2
  sanitize "$tool" "$@" </dev/null 2>&1 | stamp_lines "$start" >"$results/$name.$tool.run"
  rc=${PIPESTATUS[0]}
  echo "(ran $((SECONDS - start)) s, $SANITIZER_JOBS runs at a time)" >>"$results/$name.$tool.run"
  echo "$rc" >"$results/$name.$tool.rc"
}
# The sanitizer runs in flight (the background builds are jobs of this shell too, so
# a plain `wait` or `wait -n` would also wait for them).
sanitizer_pids=()
sanitizers_running() { jobs -pr | grep -cxFf <(printf '%s\n' "${sanitizer_pids[@]}") || true; }
wait_sanitizers() { wait "${sanitizer_pids[@]}"; }
sanitizer_result() {  # sanitizer_result <name> <tool>: the background run's output and exit code
  cat "$results/$1.$2.run"
  rm -f "$results/$1.$2.run"
  return "$(cat "$results/$1.$2.rc" && rm -f "$results/$1.$2.rc")"
}

if in_part 1 && [[ -f $build/chapters.tsv ]]; then
  sanitizer_help=""
  if command -v compute-sanitizer >/dev/null; then
    sanitizer_help=$(compute-sanitizer --help 2>&1 || true)
    compute-sanitizer --version 2>&1 | tail -n 1
  fi
  mapfile -t chapters <"$build/chapters.tsv"
  # Each sanitizer run below is the chapter's small run (its correctness checks count, its
  # exit code too); without compute-sanitizer, the small runs go plainly, with --json read back.
  if [[ -z $sanitizer_help ]]; then
    for line in "${chapters[@]}"; do
      IFS=$'\t' read -r name executable smoke <<<"$line"
      # shellcheck disable=SC2086  # smoke holds several arguments
      step "$name.smoke" "$executable" $smoke --json "$results/$name.smoke.json"
      if command -v python3 >/dev/null; then  # the JSON reads back in the shared shape
        step "$name.json" python3 scripts/results_table.py "$results/$name.smoke.json"
      fi
    done
  fi
  # What needs no GPU runs in the background while the sanitizers run: their timing checks
  # are not judged, so the CPU it takes costs no verdict. The steps that use it come later.
  # (With compute-sanitizer, all but the rest of the build started after configure.)
  background_builds rest_of_build
  ((early_background)) || background_builds "${independent_jobs[@]}"
  if [[ -z $sanitizer_help ]]; then
    echo "==> compute-sanitizer not installed, not run"
  else
    # The runs are independent and mostly CPU-bound inside the tool, so they run
    # SANITIZER_JOBS at a time on the one GPU (their timing checks are not judged).
    export SANITIZER_JOBS=${SANITIZER_JOBS:-16}
    sanitizers_start=$SECONDS
    # The last chapters first: under the tools they run longest (H200, 2026-12-02: chapter
    # 12's racecheck 116 s with its small run's one-point work sweep, 133-159 s with three;
    # 08 and 10 36 to 104 s; the rest under 36 s), so the wall time is about the longest run,
    # not the longest run started last.
    for ((i = ${#chapters[@]} - 1; i >= 0; i--)); do
      line=${chapters[i]}
      IFS=$'\t' read -r name executable smoke <<<"$line"
      for tool in racecheck memcheck initcheck synccheck; do
        # shellcheck disable=SC2086
        sanitize_in_background "$name" "$tool" "$executable" $smoke &
        sanitizer_pids+=($!)
        while (($(sanitizers_running) >= SANITIZER_JOBS)); do sleep 0.2; done
      done
    done
    wait_sanitizers
    printf '%s\t%s\t%s\n' "sanitizers (all runs, $SANITIZER_JOBS at a time)" "ran (each run's result below)" $((SECONDS - sanitizers_start)) >>"$results/steps.tsv"
    for line in "${chapters[@]}"; do
      IFS=$'\t' read -r name _ <<<"$line"
      for tool in memcheck racecheck synccheck initcheck; do
        step "$name.$tool" sanitizer_result "$name" "$tool"
        sanitizer_logs+=("$results/$name.$tool.log")
      done
    done
  fi
fi

# Then part 1 waits for its background work: the rest of the build (and the CPU tests), which
# the steps below need, and the other builds, so that no compile shares the CPU with the GPU
# tests' timing. Then the GPU tests and the exercises as handed out, the GPU to themselves.
if in_part 1; then
  waited=$SECONDS
  wait_background_builds
  printf '%s\t%s\t%s\n' "background work (waited for)" "ran (their results: the steps that use them)" $((SECONDS - waited)) >>"$results/steps.tsv"
  step build background_build_ok rest_of_build
  if [[ " ${failed[*]} " == *" build "* ]]; then
    echo "gpu-check: FAIL: the build failed (its log: $results/build.log), so the tests cannot run"
    exit 1
  fi
fi
step tests tests_without_skips
step exercises-fail-untouched exercises_fail_untouched

# A tool that reported errors must not pass because an exit code got lost: every
# sanitizer log must hold its tool's zero summary, and none may count an error.
sanitizer_summaries() {
  local log bad=0
  for log in "${sanitizer_logs[@]}"; do
    if grep -Eq "(ERROR SUMMARY|RACECHECK SUMMARY): [1-9]" "$log"; then
      echo "$log: errors reported:"
      grep -E "(ERROR SUMMARY|RACECHECK SUMMARY):" "$log"
      bad=1
    elif ! grep -Eq "ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards" "$log"; then
      echo "$log: no zero summary line (did the run time out or crash?)"
      bad=1
    else
      echo "$log: $(grep -E "(ERROR|RACECHECK) SUMMARY:" "$log" | tail -n 1) $(grep -o '(ran [0-9]* s' "$log" | tail -n 1))"
    fi
  done
  return "$bad"
}
((${#sanitizer_logs[@]} > 0)) && step sanitizer-summaries sanitizer_summaries

# A learner's and an instructor's view of the exercises: part 1 made a student copy (no
# solutions/), where progress reported every exercise not started, and copied the solutions
# of STUDENT_COPY_SOLVED in; here progress must report those solved.
steps_part=2  # from here on: the student copy, the tour, the timelines, the build without CUPTI

student_copy() {  # part 1 made the copy, ran progress on it as handed out, copied the solutions in and built them
  wait_background_builds
  background_build_ok prepare_student_copy || return 1
  (cd "$student_copy_dir" && env -u LAB_PRISTINE_FROM scripts/progress --require-solved --json "$results/progress-student-solved.json" "${student_copy_solved[@]}")
}
step student-copy student_copy

tour() {
  cmake --build "$build" --target tour || return 1
  cp "$build"/tour/*.json "$results"/
}
step tour tour
# Every chapter's tour JSON reads back in the shared shape (scripts/results_table.py).
tour_json() {
  local json
  compgen -G "$results/ch[0-9][0-9]_*.json" >/dev/null || { echo "gpu-check: no tour JSON in $results"; return 1; }
  for json in "$results"/ch[0-9][0-9]_*.json; do
    [[ $json == *.trace.json ]] && continue
    python3 scripts/results_table.py "$json" || return 1
  done
}
command -v python3 >/dev/null && [[ " ${GPU_CHECK_SKIP:-} " != *" tour "* ]] && step tour-json tour_json

# Chapter 05 measures V1 and V2 with 1, 2, the default and 32 hardware work queues
# itself (section 3: child processes with CUDA_DEVICE_MAX_CONNECTIONS set): the
# tour's JSON must hold every one of them, measured.
ch05_connections() {
  python3 - "$results/ch05_overlap.json" <<'PY'
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["results"] if "connections_asked" in r]
asked = sorted({r["connections_asked"] for r in rows})
print(sys.argv[1], "connections measured:", asked)
sys.exit(0 if asked == sorted(["1", "2", "", "32"]) else 1)
PY
}
command -v python3 >/dev/null && [[ -f $results/ch05_overlap.json ]] && step ch05_overlap.connections ch05_connections

# The CUPTI timelines of the chapters that have them, for their pages; each
# trace must read back as Chrome trace JSON with kernels or copies in it.
# Chapters 04 and 05 run at their default sizes (fewer repetitions): their charts
# show one stream against ten and V1/V2 against sequential, which the smoke sizes
# (microsecond kernels) do not; 02 and 06 show the same pattern at the smoke sizes.
# Chapter 13 runs at its default sizes (a 1 ms side kernel, a 32 MiB late copy),
# few samples: its trace is one call of each of two cheats.
timelines() {
  local name args
  for name in 02_sync_pitfalls 04_streams 05_overlap 06_pinned_memory 13_trustworthy_timer; do
    local program="$build/chapters/$name/ch$name"
    case $name in
      04_streams) args="--reps 2 --race-reps 3" ;;
      05_overlap) args="--reps 2 --max-chunks 8 --queue-mib 8" ;;
      13_trustworthy_timer) args="--samples 3 --sequence 8" ;;
      *) args=$(awk -F '\t' -v n="ch$name" '$1 == n { print $3 }' "$build/chapters.tsv") ;;
    esac
    # shellcheck disable=SC2086  # args holds several arguments
    "$program" $args --timeline --trace "$results/ch$name.trace.json" >"$results/ch$name.timeline.txt" 2>&1 || return 1
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

# The learner's report (scripts/report) on this results folder (the tour's JSON and the CUPTI
# traces of the timelines step, so its interactive timelines are there), made on this machine:
# plotly and matplotlib from this Python, else from build/wheels/report (part 1 installed them in
# the background; scripts/report-wheels.sh exits 77 without them: skipped, never passed).
# LAB_REPORT_REEXEC: scripts/report must not turn to PyPI (build/tools) here.
report_on_tour() {
  scripts/report-wheels.sh "$report_site" || return
  PYTHONPATH="$report_site${PYTHONPATH:+:$PYTHONPATH}" LAB_REPORT_REEXEC=1 python3 scripts/report "$results" --out "$results/report"
}
[[ " ${GPU_CHECK_SKIP:-} " != *" tour "* ]] && step --may-skip report report_on_tour

# Without CUPTI the chapters still build and run, and say once that there is no timeline.
without_cupti() {
  wait_background_builds
  background_build_ok build_without_cupti || return 1
  local out
  out=$("$no_cupti_dir/chapters/04_streams/ch04_streams" --n 100003 --reps 2 --race-reps 3 --timeline 2>&1) || return 1
  echo "$out"
  grep -q "no timeline: this build has no CUPTI" <<<"$out"
}
step without-cupti without_cupti

# The PyTorch side: chapter 01's extension built, its pytest suite, every python/ script
# beside the chapters of this build (scripts/torch-check.sh; its steps report "skipped"
# where PyTorch, ninja or triton is missing, and the step then passes).
steps_part=3
# Both sides' C++ columns: a chapter run with the options of the tour's (in <results>) is the tour's;
# another is run once and kept in <results>/chapter-runs for the next script that asks the same
# (python/lab_chapters.py), so no chapter runs twice with the same options in one check.
chapter_runs=(LAB_CHAPTER_TOUR="$results" LAB_CHAPTER_RUNS="$results/chapter-runs")
step torch env BUILD_DIR="$build" "${chapter_runs[@]}" scripts/torch-check.sh "$results/torch"

# The Numba side (docs/numba.md; carry build/wheels/numba to a machine without network):
# scripts/numba-check.sh exits 77 where Numba cannot run: the step is then recorded as
# skipped, with the reason from its log, never as passed.
step --may-skip numba env BUILD_DIR="$build" "${chapter_runs[@]}" scripts/numba-check.sh "$results/numba"

echo
echo "gpu-check: wall time of each step (also in $results/steps.tsv), slowest first:"
tail -n +2 "$results/steps.tsv" | sort -t $'\t' -k3,3nr | awk -F '\t' '{ printf "  %5d s  %-32s %s\n", $3, $1, $2 }'
echo "  total: ${SECONDS} s"
if ((${#failed[@]} == 0)); then
  echo "gpu-check: PASS: $steps steps (part $part) passed on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)"
  ((${#skipped[@]} > 0)) && echo "gpu-check: NOT RUN (skipped): ${skipped[*]}"
  exit 0
fi
echo "gpu-check: FAIL: ${#failed[@]} of $steps steps (part $part) failed: ${failed[*]}"
((${#skipped[@]} > 0)) && echo "gpu-check: NOT RUN (skipped): ${skipped[*]}"
exit 1
