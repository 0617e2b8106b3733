#!/usr/bin/env bash
# The chapter 03 benchmark (not a test): chapter 01's grid-stride c = a + b at
# n = 1Mi floats, timed by Nsight Compute (gpu__time_duration, with
# --clock-control none so the GPU keeps the clocks it would have anyway) and by
# chapter 03's events with the blocked stream. The two should agree within 10 %.
# Nsight Compute flushes the caches before every kernel it profiles
# (--cache-control all, its default), so its figure is compared with chapter 03's
# blocked stream with the L2 flushed; a second ncu run with --cache-control none
# is compared with the warm-L2 blocked stream.
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

events = {r["name"]: r for r in json.load(open(f"{folder}/ch03-events-1Mi.json"))["results"]}
summary = {}
for cache, row in (("all", "small kernel, blocked stream, L2 flushed"), ("none", "small kernel, blocked stream")):
    samples = ncu_us(cache)
    ncu = statistics.median(samples)
    ev = events[row]["median"] * 1e3
    met = abs(ev - ncu) <= 0.1 * ncu
    print(f"ncu --cache-control {cache}: gpu__time_duration median {ncu:.2f} us over {len(samples)} launches "
          f"(min {min(samples):.2f}, max {max(samples):.2f})")
    print(f"  chapter 03 '{row}': median {ev:.2f} us ({100 * (ev - ncu) / ncu:+.1f} % vs ncu): "
          f"{'within' if met else 'NOT within'} 10 %")
    summary[cache] = {"ncu_median_us": ncu, "ncu_samples_us": samples, "events_row": row, "events_median_us": ev,
                      "within_10_percent": met}
corrected = events["small kernel, blocked stream, minus the empty event pair"]["median"] * 1e3
warm = summary["none"]["ncu_median_us"]
met = abs(corrected - warm) <= 0.1 * warm
print(f"  chapter 03 'blocked stream, minus the empty event pair': {corrected:.2f} us "
      f"({100 * (corrected - warm) / warm:+.1f} % vs ncu --cache-control none): {'within' if met else 'NOT within'} 10 %")
summary["corrected"] = {"events_us": corrected, "within_10_percent_of_warm_ncu": met}
iso = events["small kernel, isolated"]["median"] * 1e3
print(f"  chapter 03 'isolated' (a lone launch, warm L2): median {iso:.2f} us")
summary["isolated_median_us"] = iso
json.dump(summary, open(f"{folder}/ncu-benchmark.json", "w"), indent=2)
PY
