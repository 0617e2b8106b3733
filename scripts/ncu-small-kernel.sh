#!/usr/bin/env bash
# The chapter 03 benchmark (not a test): chapter 01's grid-stride c = a + b at
# n = 1Mi floats, timed by Nsight Compute (gpu__time_duration, with
# --clock-control none so the GPU keeps the clocks it would have anyway) and by
# chapter 03's events with the blocked stream. The two should agree within 10 %.
#
# ncu runs chapter 01, not chapter 03: ncu serialises every launch, so chapter
# 03's blocked stream would wait for its release until the blocker times out.
#
# Usage: scripts/ncu-small-kernel.sh <build-folder> <results-folder>
set -eu
build=$1
results=$2
mkdir -p "$results"
ncu --clock-control none --kernel-name-base demangled --kernel-name 'regex:add_grid_stride\(' \
  --launch-skip 3 --launch-count 20 --metrics gpu__time_duration.sum --csv \
  "$build/chapters/01_kernel_launch/ch01_kernel_launch" --n 1Mi --reps 20 >"$results/ncu-add-1Mi.csv"
"$build/chapters/03_events/ch03_events" --n 1Mi --json "$results/ch03-events-1Mi.json" >"$results/ch03-events-1Mi.txt"
python3 - "$results/ncu-add-1Mi.csv" "$results/ch03-events-1Mi.json" <<'PY'
import csv, json, statistics, sys
scale = {"nsecond": 1e-3, "usecond": 1.0, "msecond": 1e3, "ns": 1e-3, "us": 1.0, "ms": 1e3}
rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if l.startswith('"'))]
header, body = rows[0], rows[1:]
unit, value = header.index("Metric Unit"), header.index("Metric Value")
ncu_us = [float(r[value].replace(",", "")) * scale[r[unit]] for r in body]
events = {r["name"]: r for r in json.load(open(sys.argv[2]))["results"]}
blocked = events["small kernel, blocked stream"]["median"] * 1e3
isolated = events["small kernel, isolated"]["median"] * 1e3
ncu = statistics.median(ncu_us)
print(f"ncu gpu__time_duration: median {ncu:.2f} us over {len(ncu_us)} launches (min {min(ncu_us):.2f}, max {max(ncu_us):.2f})")
print(f"events, blocked stream: median {blocked:.2f} us ({100 * (blocked - ncu) / ncu:+.1f} % vs ncu)")
print(f"events, isolated launch: median {isolated:.2f} us ({100 * (isolated - ncu) / ncu:+.1f} % vs ncu)")
print("benchmark (blocked stream within 10 % of ncu):", "met" if abs(blocked - ncu) <= 0.1 * ncu else "NOT met")
PY
