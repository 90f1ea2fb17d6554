#!/usr/bin/env python3
"""Nothing lost (issue 8): a `kgate audit -j2` over the corpus, SIGKILLed at random points and restarted
each time, ends with the same JSONL set as an uninterrupted run.

Usage: kill_test.py KGATE CORPUS WORKDIR [SEED]

Records are compared as a set keyed by path, with the volatile fields (timing) removed. One restart
also finds a torn last line (a write cut short, appended by the test) and must drop it. The test fails
unless at least two kills landed in the middle of a run (some but not all files logged).
"""
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time

VOLATILE = {"elapsed_ms"}
MAX_KILLS = 20
MID_RUN_KILLS_NEEDED = 2


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def load(path):
    """Records keyed by path; every line must parse, no path twice."""
    records = {}
    with open(path, "rb") as f:
        data = f.read()
    if data and not data.endswith(b"\n"):
        fail(f"{path} ends without a newline")
    for number, line in enumerate(data.splitlines(), 1):
        try:
            record = json.loads(line)
        except ValueError as e:
            fail(f"{path}:{number}: not JSON ({e})")
        for key in VOLATILE:
            record.pop(key, None)
        if record["path"] in records:
            fail(f"{path}:{number}: {record['path']} logged twice")
        records[record["path"]] = record
    return records


def complete_lines(path):
    try:
        with open(path, "rb") as f:
            return f.read().count(b"\n")
    except FileNotFoundError:
        return 0


def audit(kgate, corpus, out):
    return [kgate, "audit", corpus, "--out", out, "-j", "2"]


def main():
    kgate, corpus, work = sys.argv[1:4]
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else random.randrange(1 << 30)
    rng = random.Random(seed)
    print(f"seed {seed} (rerun with it to reproduce the kill points)")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    reference_out, killed_out = os.path.join(work, "reference"), os.path.join(work, "killed")

    start = time.monotonic()
    done = subprocess.run(audit(kgate, corpus, reference_out), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    duration = time.monotonic() - start
    if done.returncode != 0:
        fail(f"uninterrupted audit exited {done.returncode}: {done.stderr}")
    reference = load(os.path.join(reference_out, "results.jsonl"))
    total = len(reference)
    print(f"uninterrupted: {total} records in {duration:.2f} s")
    if total < 20:
        fail("the corpus is too small for a kill test")

    # The fixed cost of a run (start-up, walking and hashing the files): a restart with nothing to do.
    start = time.monotonic()
    subprocess.run(audit(kgate, corpus, reference_out), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    fixed = time.monotonic() - start
    analysis = max(0.05, duration - fixed)

    log = os.path.join(killed_out, "results.jsonl")
    mid_run = 0
    for kill in range(MAX_KILLS):
        if complete_lines(log) >= total and mid_run < MID_RUN_KILLS_NEEDED:
            # Finished before enough kills landed mid-run: start the killed audit over.
            print("the killed audit finished early; starting it over")
            shutil.rmtree(killed_out)
        before = complete_lines(log)
        process = subprocess.Popen(audit(kgate, corpus, killed_out), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # Somewhere between late start-up and most of what is left, so that most kills land mid-run.
        time.sleep(rng.uniform(0.5 * fixed, fixed + 0.5 * analysis * (total - before) / total))
        process.send_signal(signal.SIGKILL)
        process.wait()
        after = complete_lines(log)
        if process.returncode != -signal.SIGKILL:
            landed = f"finished first, exit {process.returncode}"
        elif before < after < total:
            landed = "mid-run"
            mid_run += 1
        else:
            landed = "no progress" if after == before else "at the end"
        print(f"kill {kill + 1}: {before} -> {after} of {total} records logged ({landed})")
        if mid_run >= MID_RUN_KILLS_NEEDED + 2 or (after >= total and mid_run >= MID_RUN_KILLS_NEEDED):
            break

    # A write cut short by a kill: half of a record, no newline. The restart must drop it, and skip
    # exactly the files logged before it.
    logged_before_final = complete_lines(log)
    with open(log, "ab") as f:
        f.write(b'{"path":"' + corpus.encode() + b'/half-written.py","sha256":"0123')
    final = subprocess.run(audit(kgate, corpus, killed_out), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if final.returncode != 0:
        fail(f"the final restart exited {final.returncode}: {final.stderr}")
    print("final restart: " + final.stdout.splitlines()[0])
    if "torn last line dropped" not in final.stdout:
        fail("the restart did not report dropping the torn last line")
    counts = re.search(r"\((\d+) analysed, (\d+) already done", final.stdout)
    if not counts or int(counts.group(2)) != logged_before_final or int(counts.group(1)) != total - logged_before_final:
        fail(f"the restart should skip the {logged_before_final} logged files and analyse the other {total - logged_before_final}")

    resumed = load(log)
    if set(resumed) != set(reference):
        fail(f"different files: missing {sorted(set(reference) - set(resumed))[:5]}, extra {sorted(set(resumed) - set(reference))[:5]}")
    differing = [p for p in reference if reference[p] != resumed[p]]
    if differing:
        fail(f"{len(differing)} record(s) differ, for example {differing[0]}:\n{reference[differing[0]]}\n{resumed[differing[0]]}")
    if mid_run < MID_RUN_KILLS_NEEDED:
        fail(f"only {mid_run} kill(s) landed mid-run; the test proved nothing (seed {seed})")
    print(f"PASS: {mid_run} mid-run kills, a torn line dropped, {total} records identical to the uninterrupted run")


if __name__ == "__main__":
    main()
