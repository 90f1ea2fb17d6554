#!/usr/bin/env python3
"""Runs `kgate run` over (task, candidate) pairs, several at a time, into one resumable log.

Usage: tools/device/run-pairs.py PAIRS.tsv OUT.jsonl [--kgate BUILD/tools/kgate] [--jobs N]
                                  [--from I] [--limit N] [-- KGATE_RUN_OPTIONS...]

PAIRS.tsv holds one `task<TAB>candidate` per line (paths; `#` starts a comment). OUT.jsonl gets one
line per pair as it finishes: the pair, run's exit code, wall time, the verdict, the reasons (id and
the first 300 characters of each message), the failed cases' reasons, and the inferred input
contracts. A pair already in OUT.jsonl is not run again, so a killed batch resumes where it stopped.
What follows `--` goes to every `kgate run` (default: --quick --device cuda --format json). The
summary at the end counts verdicts and exit codes over the whole log.

This is how the public LeetGPU (challenge, solution) pairs and KernelBench (problem, candidate) pairs
are measured on the GPU machine (docs/runtime.md); the pairs themselves are never committed.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import subprocess
import sys
import time

DEFAULT_RUN = ["--quick", "--device", "cuda", "--format", "json"]


def read_pairs(path):
    pairs = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) != 2:
                sys.exit(f"{path}:{number}: expected task<TAB>candidate, got {line!r}")
            pairs.append((parts[0], parts[1]))
    return pairs


def done_pairs(path):
    done = set()
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                try:
                    record = json.loads(line)
                except ValueError:
                    continue  # a line cut short by a kill: the pair runs again
                done.add((record["task"], record["candidate"]))
    return done


def summarize_report(report):
    out = {"verdict": report.get("verdict")}
    out["reasons"] = [{"id": r.get("id"), "message": (r.get("message") or "")[:300]} for r in report.get("reasons", [])]
    failed = collections.Counter()
    for case in report.get("cases", []):
        if case.get("verdict") != "pass" and case.get("reason"):
            failed[case["reason"]["id"]] += 1
    out["failed_cases"] = dict(failed)
    timing = report.get("timing") or {}
    if timing:
        out["timing"] = {"reported_s": (timing.get("candidate") or {}).get("synced", {}).get("median_s"),
                         "judged_s": (timing.get("judge_clock") or {}).get("judged_s"),
                         "speedup": timing.get("speedup")}
    contracts = [i for i in report.get("inputs", []) if i.get("fill") not in (None, "random") or i.get("pattern")]
    if contracts:
        out["inputs"] = contracts
    return out


def run_one(kgate, options, timeout, task, candidate):
    start = time.monotonic()
    try:
        proc = subprocess.run([kgate, "run", "--task", task, candidate, *options], capture_output=True, text=True,
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"task": task, "candidate": candidate, "exit": None, "wall_s": round(time.monotonic() - start, 1),
                "verdict": "runner-timeout"}
    record = {"task": task, "candidate": candidate, "exit": proc.returncode,
              "wall_s": round(time.monotonic() - start, 1)}
    try:
        record.update(summarize_report(json.loads(proc.stdout)))
    except ValueError:
        record["verdict"] = "no-report"
        record["stderr"] = proc.stderr[-600:]
    return record


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pairs")
    parser.add_argument("out")
    parser.add_argument("--kgate", default="build/tools/kgate")
    parser.add_argument("--jobs", type=int, default=8)
    parser.add_argument("--from", dest="start", type=int, default=0, help="first pair (0-based)")
    parser.add_argument("--limit", type=int, default=0, help="at most this many pairs (0: all)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds one run may take in all")
    args, rest = parser.parse_known_args()
    options = rest[1:] if rest[:1] == ["--"] else (rest or DEFAULT_RUN)
    pairs = read_pairs(args.pairs)[args.start:]
    if args.limit:
        pairs = pairs[:args.limit]
    done = done_pairs(args.out)
    todo = [p for p in pairs if p not in done]
    print(f"run-pairs: {len(pairs)} pairs, {len(pairs) - len(todo)} already in {args.out}, {len(todo)} to run",
          flush=True)
    with open(args.out, "a", encoding="utf-8") as log, \
            concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run_one, args.kgate, options, args.timeout, t, c) for t, c in todo]
        for future in concurrent.futures.as_completed(futures):
            record = future.result()
            log.write(json.dumps(record) + "\n")
            log.flush()
            print(f"{record['verdict']:>14} exit={record['exit']} {record['wall_s']:6.1f}s {record['candidate']}",
                  flush=True)
    verdicts, exits = collections.Counter(), collections.Counter()
    for record in (json.loads(line) for line in open(args.out, encoding="utf-8") if line.endswith("\n")):
        verdicts[record.get("verdict")] += 1
        exits[record.get("exit")] += 1
    print("run-pairs: verdicts", dict(verdicts.most_common()), "exits", dict(exits.most_common()))


if __name__ == "__main__":
    main()
