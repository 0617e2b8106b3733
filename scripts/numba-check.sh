#!/usr/bin/env bash
# The Numba side (docs/numba.md), in one command, on a machine with a GPU and no network:
#   1. install: numba from the carried wheel folder into build/numba-site (pip --target,
#      offline, no dependencies), which goes first on PYTHONPATH; the machine's own
#      numba-cuda, llvmlite and NumPy are used, and must match python/requirements-numba.txt
#   2. the pytest suite (python/run_numba_tests.py)
#   3. every python/numba_*.py script once, small repetition counts: each prints one table per
#      experiment with Numba's, the C++ chapter's (from BUILD_DIR, or a kept run with the same
#      options: LAB_CHAPTER_TOUR, LAB_CHAPTER_RUNS) and PyTorch's figures (this
#      $PYTHON's torch, in the same process), or says which column was skipped and why;
#      output to <results>/<script>.log
# Ends with one line per step and a summary; exits non-zero if a step failed, and 77
# (skipped, with the reason) where Numba cannot run: no wheel, a version that does not
# match, numba.cuda not importable, or no GPU.
#
# Usage: scripts/numba-check.sh <results-folder>   (on the GPU machine; carry build/wheels/numba)
#        scripts/numba-check.sh --install <folder> (step 1 only, its log in <folder>: scripts/gpu-check.sh
#                                                  installs it in the background while other steps run)
#        scripts/numba-check.sh --download         (where there is network: fills build/wheels/numba)
# Environment: BUILD_DIR (the C++ build tree with chapters, default build/gpu-check),
#              PYTHON (default python3), NUMBA_ENABLE_CUDASIM=1 (kernels on the CPU, for a try-out).
set -u
cd "$(dirname "$0")/.." || exit 1
python=${PYTHON:-python3}
[[ $python == */* ]] && python=$(cd "$(dirname "$python")" && pwd)/$(basename "$python")  # the checks below also run from python/
wheels=build/wheels/numba
site=$PWD/build/numba-site
pin=$(grep -m1 -o '^numba==[0-9.]*' python/requirements-numba.txt)
version=${pin#numba==}

if [[ ${1:-} == --download ]]; then  # the GPU machine's Python: 3.12, manylinux x86_64
  mkdir -p "$wheels"
  exec "$python" -m pip download --no-deps --only-binary=:all: --python-version 3.12 \
    --platform manylinux_2_28_x86_64 --dest "$wheels" "$pin"
fi
install_only=0
[[ ${1:-} == --install ]] && { install_only=1; shift; }
results=${1:?usage: scripts/numba-check.sh [--install] <results-folder> | --download}
export BUILD_DIR=${BUILD_DIR:-build/gpu-check}
mkdir -p "$results"
results=$(cd "$results" && pwd)  # absolute: the probe below runs in python/
((install_only)) || rm -f "$results/skipped.txt"  # an earlier --install's reason, if any, is this run's to give again

skip() {  # the whole check cannot run here
  echo "numba-check: skipped: $*" | tee "$results/skipped.txt"
  exit 77
}

# What the machine's own numba does, for the record (an earlier look saw `import numba` fail with 0.68.0;
# the H100 of 2026-11-25 imported its own 0.68.0).
own=$("$python" -c 'import numba; print("imports:", numba.__version__)' 2>&1 | tail -n 1)
echo "the machine's own numba: $own" >"$results/own-numba.txt"
# 1. numba $version, unless the machine's Python already has it.
if ! "$python" -c "import numba, sys; sys.exit(numba.__version__ != '$version')" 2>/dev/null; then
  wheel=
  for candidate in "$wheels"/numba-"$version"-cp312-*.whl; do [[ -f $candidate ]] && wheel=$candidate && break; done
  [[ -n $wheel ]] || skip "no $pin wheel in $wheels (run scripts/numba-check.sh --download where there is network, carry $wheels)"
  if [[ ! -d $site/numba-$version.dist-info ]]; then
    rm -rf "$site"
    # Without pip, unpacking the wheel gives the same tree (numba/ and its .dist-info).
    "$python" -m pip install --no-index --no-deps --quiet --target "$site" "$wheel" >"$results/install.log" 2>&1 ||
      "$python" -m zipfile -e "$wheel" "$site" >>"$results/install.log" 2>&1 ||
      skip "could not install $wheel (see $results/install.log)"
  fi
  export PYTHONPATH=$site${PYTHONPATH:+:$PYTHONPATH}
fi
((install_only)) && { echo "numba-check: numba $version ready"; exit 0; }
# The machine's own packages against the pins (offline: a mismatch skips, never downloads).
"$python" - >"$results/versions.txt" 2>&1 <<'EOF' || skip "$(tail -n 1 "$results/versions.txt")"
import re
from importlib import metadata
pins = dict(re.findall(r"^([\w-]+)==(\S+)", open("python/requirements-numba.txt").read(), re.M))
for name, pinned in pins.items():
    try:
        found = metadata.version(name)
    except metadata.PackageNotFoundError:
        found = None
    print(f"{name}: {found} (pinned {pinned})")
    if found != pinned:
        raise SystemExit(f"{name} {found} is not the pinned {pinned} (python/requirements-numba.txt)")
EOF
cat "$results/versions.txt"
# One process (numba, its GPU and torch imported once): why Numba cannot run (exit 3), or its
# versions and the scripts' PyTorch column: torch's version, or why it will say "skipped" (the
# run still counts). Its stderr (warnings) goes to probe.log; a crash's last line is the reason.
probe_rc=0
probe=$(cd python && "$python" - 2>"$results/probe.log" <<'EOF'
import numba_lab
reason = numba_lab.unavailable_reason()
if reason:
    print(reason)
    raise SystemExit(3)
print(numba_lab.versions())
print(numba_lab.pytorch_versions(numba_lab.pytorch_reason()))
EOF
) || probe_rc=$?
((probe_rc == 3)) && skip "$(tail -n 1 <<<"$probe")"
((probe_rc == 0)) || skip "$(tail -n 1 "$results/probe.log")"
tee -a "$results/versions.txt" <<<"$probe"
[[ -d $BUILD_DIR/chapters ]] || echo "numba-check: no chapters in $BUILD_DIR: the C++ columns will say skipped"

# shellcheck source=scripts/side-steps.sh
source scripts/side-steps.sh

step pytest "$python" python/run_numba_tests.py --durations=10  # the slowest tests' times in the log
step numba_ch03_events "$python" python/numba_ch03_events.py --n 1Mi --samples 20
step numba_ch04_streams "$python" python/numba_ch04_streams.py --arrays 10 --n 10000000 --reps 5
step numba_ch06_pinned_memory "$python" python/numba_ch06_pinned_memory.py --mib 256 --reps 5

side_summary numba-check
echo "numba-check: $failed step(s) failed; logs in $results"
((failed == 0))
