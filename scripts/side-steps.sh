# shellcheck shell=bash
# The step runner of the Python sides (scripts/torch-check.sh, scripts/numba-check.sh),
# sourced after they set $results: `step <name> <command...>` runs the command with its
# output in $results/<name>.log, prints and records (in $results/steps.tsv) ok, "skipped:
# <reason>" for exit 77 (the reason is the log's "skipped: ..." line), or FAILED with the
# log's last lines, and counts failures in $failed.
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
  echo "    $result ($((SECONDS - start)) s)"
  printf '%s\t%s\t%s\n' "$name" "$result" "$((SECONDS - start))" >>"$results/steps.tsv"
}
