#!/usr/bin/env python3
"""Print the results of a chapter's --json file as a Markdown table.

Usage: scripts/results_table.py docs/results/h100-2026-11-20/ch01_kernel_launch.json [--extra KEY ...]

The first lines name the chapter, the GPU, its driver and the date of the run,
so that a table pasted into a page carries its provenance.
"""
import argparse
import json
import sys


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", help="a chapter's --json output")
    parser.add_argument("--extra", nargs="*", default=[], help="further result fields to show as columns")
    args = parser.parse_args()
    try:
        with open(args.file, encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, json.JSONDecodeError) as error:
        print(f"results_table: {error}", file=sys.stderr)
        return 2
    missing = [key for key in ("chapter", "date", "device", "options", "results", "checks", "passed")
               if key not in report]
    if missing:
        print(f"results_table: {args.file} lacks {', '.join(missing)}: not a chapter's --json output",
              file=sys.stderr)
        return 1

    device = report["device"]
    print(f"Chapter {report['chapter']} on {device['name']}, driver {device['driver_release']} "
          f"(CUDA {device['driver_cuda_version']}), SM clock measured {device.get('measured_sm_clock_mhz', 0):.0f} MHz, "
          f"{report['date']}\n")
    columns = ["name", "unit", "count", "median", "min", "max"] + args.extra
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for result in report["results"]:
        cells = []
        for key in columns:
            value = result.get(key, "")
            cells.append(f"{value:.4g}" if isinstance(value, float) else str(value))
        print("| " + " | ".join(cells) + " |")
    passed = sum(1 for c in report["checks"] if c["passed"])
    print(f"\n{passed} of {len(report['checks'])} checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
