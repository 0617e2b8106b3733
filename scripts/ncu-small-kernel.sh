#!/usr/bin/env bash
# An optional cross-check of chapter 03's section 6 (not a test): chapter 01's
# grid-stride c = a + b at n = 1Mi floats, timed by Nsight Compute
# (gpu__time_duration, with --clock-control none so the GPU keeps the clocks it
# would have anyway) beside chapter 03's own figures for the same size: its
# event methods and the CUPTI kernel duration it records in the same run.
# Nsight Compute flushes the caches before every kernel it profiles
# (--cache-control all, its default), so its figure is compared with chapter 03's
# blocked stream with the L2 flushed; a second ncu run with --cache-control none
# is compared with the warm-L2 rows.
#
# ncu runs chapter 01, not chapter 03: ncu serialises every launch, so chapter
# 03's blocked stream would wait for its release until the blocker times out.
#
# Usage: scripts/ncu-small-kernel.sh <build-folder> <results-folder>
set -eu
build=$1
results=$2
mkdir -p "$results"
for cache in all none; do
  ncu --clock-control none --cache-control "$cache" --kernel-name-base demangled --kernel-name 'regex:add_grid_stride\(' \
    --launch-skip 3 --launch-count 20 --metrics gpu__time_duration.sum --csv \
    "$build/chapters/01_kernel_launch/ch01_kernel_launch" --n 1Mi --reps 20 >"$results/ncu-add-1Mi-cache-$cache.csv"
done
"$build/chapters/03_events/ch03_events" --n 1Mi --json "$results/ch03-events-1Mi.json" >"$results/ch03-events-1Mi.txt"
python3 - "$results" <<'PY'
import csv, json, statistics, sys
folder = sys.argv[1]
scale = {"nsecond": 1e-3, "usecond": 1.0, "msecond": 1e3, "ns": 1e-3, "us": 1.0, "ms": 1e3}

def ncu_us(cache):
    lines = [l for l in open(f"{folder}/ncu-add-1Mi-cache-{cache}.csv") if l.startswith('"')]
    rows = list(csv.reader(lines))
    header, body = rows[0], rows[1:]
    unit, value = header.index("Metric Unit"), header.index("Metric Value")
    return [float(r[value].replace(",", "")) * scale[r[unit]] for r in body]

# Chapter 03's rows for --n (1Mi floats): the table launch_gap_n.
events = {r["name"]: r for r in json.load(open(f"{folder}/ch03-events-1Mi.json"))["results"]
          if r.get("table_id") == "launch_gap_n"}
summary = {}
for cache, rows in (("all", ["blocked stream, L2 flushed", "blocked stream, L2 flushed - empty pair"]),
                    ("none", ["blocked stream", "blocked stream - empty pair", "isolated", "back to back"])):
    samples = ncu_us(cache)
    ncu = statistics.median(samples)
    print(f"ncu --cache-control {cache}: gpu__time_duration median {ncu:.2f} us over {len(samples)} launches "
          f"(min {min(samples):.2f}, max {max(samples):.2f})")
    summary[cache] = {"ncu_median_us": ncu, "ncu_samples_us": samples, "rows": {}}
    for row in rows:
        ev = events[row]["median"]
        cupti = events[row].get("cupti_median_us")
        cupti_text = f", chapter 03's CUPTI median {cupti:.2f} us" if cupti is not None else ", no CUPTI figure"
        print(f"  chapter 03 '{row}': events {ev:.2f} us ({100 * (ev - ncu) / ncu:+.1f} % vs ncu){cupti_text}")
        summary[cache]["rows"][row] = {"events_us": ev, "cupti_median_us": cupti}
json.dump(summary, open(f"{folder}/ncu-benchmark.json", "w"), indent=2)
PY
