#!/usr/bin/env python3
"""Print the results of a chapter's --json file as Markdown tables, one per table.

Usage: scripts/results_table.py build/release/tour/ch01_kernel_launch.json [--table ID ...] [--extra KEY ...]

Each table is found by its stable `table_id` and shows the fields its rows
carry (the samples' statistics where there are samples). The first lines name
the chapter, the GPU, its driver and the date of the run, so that a table
pasted into a page carries its provenance. Reads the JSON schema this
repository writes now (2, common/harness/report.hpp); any other is refused with a
message, never shown as a wrong table.
"""
import argparse
import json
import sys

SCHEMA = 2
STATISTICS = ["unit", "count", "median", "min", "max"]
NOT_SHOWN = {"table_id", "table", "name", "samples", "q1", "q3", "mean", "stddev", "cv"}


def cell(value):
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, list):
        return f"[{len(value)} values]"
    return "" if value is None else str(value)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", help="a chapter's --json output")
    parser.add_argument("--table", nargs="*", default=[], help="only the tables with these ids")
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
    if report.get("schema") != SCHEMA:
        print(f"results_table: {args.file} has JSON schema {report.get('schema', '1 (none given)')}; "
              f"this script reads schema {SCHEMA}", file=sys.stderr)
        return 1

    device = report["device"]
    print(f"Chapter {report['chapter']} on {device['name']}, driver {device['driver_release']} "
          f"(CUDA {device['driver_cuda_version']}), SM clock measured {device.get('measured_sm_clock_mhz', 0):.0f} MHz, "
          f"{report['date']}")
    tables = {}
    for result in report["results"]:
        tables.setdefault(result.get("table_id", ""), []).append(result)
    unknown = [t for t in args.table if t not in tables]
    if unknown:
        print(f"results_table: no table with id {', '.join(unknown)}; the ids are {', '.join(tables)}",
              file=sys.stderr)
        return 1
    for table_id, rows in tables.items():
        if args.table and table_id not in args.table:
            continue
        keys = [k for k in STATISTICS if any(k in r for r in rows)]
        for r in rows:
            keys += [k for k in r if k not in NOT_SHOWN and k not in keys]
        keys += [k for k in args.extra if k not in keys]
        print(f"\n{table_id}: {rows[0].get('table', '')}\n")
        print("| name | " + " | ".join(keys) + " |")
        print("|---|" + "---|" * len(keys))
        for r in rows:
            print(f"| {r['name']} | " + " | ".join(cell(r.get(k)) for k in keys) + " |")
    passed = sum(1 for c in report["checks"] if c["passed"])
    print(f"\n{passed} of {len(report['checks'])} checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
