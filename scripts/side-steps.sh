# shellcheck shell=bash
# The step runner of the Python sides (scripts/torch-check.sh, scripts/numba-check.sh),
# sourced after they set $results: `step <name> <command...>` runs the command with its
# output in $results/<name>.log, prints and records (in $results/steps.tsv) ok, "skipped:
# <reason>" for exit 77 (the reason is the log's "skipped: ..." line), or FAILED with the
# log's last lines, and counts failures in $failed. Each step's wall time also ends its log
# ("(<name>: <result>, <seconds> s wall)"), so a kept log says what it cost;
# `side_summary <side>` prints every step's time, slowest first, and the side's total.
: "${results:?side-steps.sh: set results first}"
failed=0
printf 'step\tresult\tseconds\n' >"$results/steps.tsv"

step() {  # step <name> <command...>
  local name=$1 rc=0 start=$SECONDS result=ok
  shift
  echo "==> $name"
  "$@" >"$results/$name.log" 2>&1 </dev/null || rc=$?
  if ((rc == 77)); then
    result="skipped: $(grep -m1 -o 'skipped: .*' "$results/$name.log" | cut -c10-)"
  elif ((rc != 0)); then
    result="FAILED (exit $rc)"
    failed=$((failed + 1))
    tail -n 25 "$results/$name.log" | sed 's/^/    | /'
  fi
  local seconds=$((SECONDS - start))
  echo "    $result ($seconds s)"
  printf '\n(%s: %s, %s s wall)\n' "$name" "$result" "$seconds" >>"$results/$name.log"
  printf '%s\t%s\t%s\n' "$name" "$result" "$seconds" >>"$results/steps.tsv"
}

side_summary() {  # side_summary <side>: each step's wall time (steps.tsv), slowest first, and the total
  echo "$1: wall time of each step (also in $results/steps.tsv), slowest first:"
  tail -n +2 "$results/steps.tsv" | sort -t $'\t' -k3,3nr | awk -F '\t' '{ printf "  %5d s  %-28s %s\n", $3, $1, $2 }'
  echo "  total: $SECONDS s (the steps and the checks before them)"
}
