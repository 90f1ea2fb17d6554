#!/usr/bin/env python3
"""Scores `kgate check --format json` against an external labelled set (never committed here).

The labels file is a TSV with a header and at least the columns path (relative to the labels file's
directory), harness, language and expected (honest | cheat | reference | unknown). It prints, per
expected label and harness, how many files got each verdict, then the honest pass rate and the cheat
catch rate (a cheat is caught when it does not pass), and lists the honest files that did not pass
with the rules that fired, and the cheats that passed.

Usage: kgate check --format json DIR > out.json; tools/score-labelled.py DIR/labels.tsv out.json [--by language]
"""
import argparse
import collections
import csv
import json
import os
import sys


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("labels")
    parser.add_argument("report")
    parser.add_argument("--by", default="harness", help="label column to group by (harness or language)")
    parser.add_argument("--list", type=int, default=40, help="how many misjudged files to list per kind")
    args = parser.parse_args()

    base = os.path.dirname(os.path.abspath(args.labels))
    with open(args.labels, encoding="utf-8") as f:
        labels = {os.path.normpath(os.path.join(base, row["path"])): row for row in csv.DictReader(f, delimiter="\t")}
    with open(args.report, encoding="utf-8") as f:
        report = json.load(f)
    verdicts = {os.path.normpath(os.path.abspath(entry["path"])): entry for entry in report["files"]}

    table = collections.defaultdict(collections.Counter)
    misjudged = collections.defaultdict(list)
    missing = 0
    for path, row in sorted(labels.items()):
        entry = verdicts.get(path)
        if entry is None:
            missing += 1
            continue
        verdict = entry["verdict"]
        table[(row["expected"], row[args.by])][verdict] += 1
        rules = sorted({finding["rule"] for finding in entry["findings"] if finding["severity"] == "error"})
        rel = os.path.relpath(path, base)
        if row["expected"] == "honest" and verdict != "pass":
            misjudged["honest, not passed"].append(f"{rel}: {verdict} {', '.join(rules)} (harness {entry.get('harness') or 'none'})")
        if row["expected"] == "cheat" and verdict == "pass":
            misjudged["cheat, passed"].append(f"{rel}: {row.get('technique', '')[:100]}")

    kinds = ("pass", "reject", "unjudged", "not-a-submission")
    print(f"{'expected':<10} {args.by:<16} {'files':>5} " + " ".join(f"{k:>16}" for k in kinds))
    for (expected, group), counts in sorted(table.items()):
        print(f"{expected:<10} {group:<16} {sum(counts.values()):>5} " + " ".join(f"{counts[k]:>16}" for k in kinds))
    honest = [c for (e, _), c in table.items() if e == "honest"]
    cheats = [c for (e, _), c in table.items() if e == "cheat"]
    n_honest = sum(sum(c.values()) for c in honest)
    n_cheat = sum(sum(c.values()) for c in cheats)
    passed = sum(c["pass"] for c in honest)
    caught = n_cheat - sum(c["pass"] for c in cheats)
    print()
    if n_honest:
        print(f"honest passed: {passed}/{n_honest} ({100.0 * passed / n_honest:.1f}%)")
    if n_cheat:
        print(f"cheats caught (not passed): {caught}/{n_cheat} ({100.0 * caught / n_cheat:.1f}%)")
    if missing:
        print(f"labelled files missing from the report: {missing}")
    for kind, rows in misjudged.items():
        print(f"\n{kind} ({len(rows)}):")
        for line in rows[: args.list]:
            print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
