#!/usr/bin/env bash
# scripts/report's Python needs (plotly and matplotlib, pinned in python/requirements-tools.txt)
# on a machine without network, such as the GPU machine gpu-check's report step runs on:
#   --download  (where there is network) fills build/wheels/report with the pinned plotly and
#               matplotlib and every wheel they need on a bare CPython 3.12, manylinux x86_64
#               (numpy, contourpy, cycler, fonttools, kiwisolver, pillow, pyparsing,
#               python-dateutil, six, packaging, narwhals); carry build/wheels/report
#   <site>      (offline) nothing to do when this Python already imports plotly and matplotlib;
#               else installs them from build/wheels/report into the folder <site> (pip --target,
#               --no-index: never the network; without pip, the wheels unpacked), for PYTHONPATH=<site>. The machine's own packages
#               are not touched: what <site> holds (numpy among them) is seen only by a process
#               given that PYTHONPATH. Exits 77 (skipped, with the reason on a "skipped:" line)
#               where neither the packages nor the wheels are there, or the install fails.
#
# Usage: scripts/report-wheels.sh --download | <site-folder>
# Environment: PYTHON (default python3).
set -u
cd "$(dirname "$0")/.." || exit 1
python=${PYTHON:-python3}
wheels=build/wheels/report
pins=$(grep -E '^(plotly|matplotlib)==' python/requirements-tools.txt)
mapfile -t pins <<<"$pins"
((${#pins[@]} == 2)) || { echo "report-wheels: python/requirements-tools.txt pins no plotly and matplotlib"; exit 2; }

if [[ ${1:-} == --download ]]; then  # the GPU machine's Python: 3.12, manylinux x86_64
  mkdir -p "$wheels"
  exec "$python" -m pip download --only-binary=:all: --python-version 3.12 --implementation cp --abi cp312 \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
    --dest "$wheels" "${pins[@]}"
fi
site=${1:?usage: scripts/report-wheels.sh --download | <site-folder>}

imports() {  # imports [site]: does this Python (with site first on its path) import both?
  local path=${PYTHONPATH:-}
  [[ -n ${1:-} ]] && path=$1${path:+:$path}
  PYTHONPATH=$path "$python" -c 'import matplotlib, plotly
print("plotly", plotly.__version__, "matplotlib", matplotlib.__version__, "from", plotly.__file__.rsplit("/", 2)[0])'
}
if imports 2>/dev/null; then
  echo "report-wheels: this Python has them, nothing installed"
  exit 0
fi
if [[ -d $site ]] && imports "$site" 2>/dev/null; then
  echo "report-wheels: installed earlier into $site"
  exit 0
fi
if ! compgen -G "$wheels/plotly-*.whl" >/dev/null || ! compgen -G "$wheels/matplotlib-*.whl" >/dev/null; then
  echo "report-wheels: skipped: no plotly or matplotlib in this Python and no wheels in $wheels (run scripts/report-wheels.sh --download where there is network, carry $wheels)"
  exit 77
fi
rm -rf "$site"
if ! "$python" -m pip install --no-index --find-links "$wheels" --target "$site" --quiet --disable-pip-version-check "${pins[@]}"; then
  # Without pip, unpacking every wheel gives the same tree (what the imports below then judge).
  echo "report-wheels: pip could not install ${pins[*]} from $wheels; unpacking the wheels instead"
  rm -rf "$site"
  for wheel in "$wheels"/*.whl; do
    "$python" -m zipfile -e "$wheel" "$site" ||
      { echo "report-wheels: skipped: pip could not install ${pins[*]} from $wheels, nor unpack $wheel (output above)"; exit 77; }
  done
fi
imports "$site" || { echo "report-wheels: skipped: installed into $site, but this Python does not import them (output above)"; exit 77; }
