#!/usr/bin/env python3
"""kgate's kernel timing against Nsight Compute, on a GPU machine (issue 6's validation table).

For each CANDIDATE (a file with a `# runtime-task:` line, e.g. corpus/honest/tasks/Loss/mse_loss.py):
 1. `kgate run --device cuda --format json` (one seed, normal inputs, public shapes) gives the timed shape and dtype,
    the candidate's own kernels with their CUPTI durations over the 30 timed calls, and the event-timed
    median of the whole call;
 2. the same candidate, built from the task's reference the way the judge builds it, runs those calls
    again at that shape and dtype under `ncu --clock-control none --cache-control none` (boost clocks
    as kgate sees them) with an L2 flush before each call as kgate does it, which reports
    gpu__time_duration.sum per launch;
 3. per own kernel: kgate's mean CUPTI duration against ncu's median, and the difference.
Prints a Markdown table and exits 1 when fewer than --min-kernels kernels were compared or any
differs by more than --max-diff (default 5%).
Usage: ncu_compare.py --kgate build/tools/kgate [--ncu /usr/local/cuda/bin/ncu] CANDIDATE...
"""
import argparse
import concurrent.futures
import csv
import glob
import io
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Runs under ncu: builds the candidate as the judge does (task shapes as module globals, the reference's
# init inputs and seed, the run's dtype) and calls it WARMUP + CALLS times on get_inputs().
DRIVER = r'''
import importlib.util, json, sys
import torch
sys.path.insert(0, sys.argv[1])
from kgate_models import DTYPES, cast_model
from kgate_judge import load_module, set_shape_globals, input_structure
reference_path, candidate_path, shapes, dtype, calls = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6])
reference = load_module(reference_path, "ncu_reference")
set_shape_globals(reference, shapes)
spec = importlib.util.spec_from_file_location("ncu_candidate", candidate_path)
candidate = importlib.util.module_from_spec(spec)
spec.loader.exec_module(candidate)
set_shape_globals(candidate, shapes)
torch.manual_seed(0)
init = reference.get_init_inputs()
torch.manual_seed(0)
model = cast_model(candidate.ModelNew(*init), dtype, "cuda")
inputs = input_structure(reference, 1, dtype, "cuda")
# kgate flushes L2 before each call (2x its size), not before each kernel: the same here, so that a
# call's second kernel finds in L2 what its first left there, as it does under kgate.
flush = torch.empty(2 * torch.cuda.get_device_properties(0).L2_cache_size, dtype=torch.uint8, device="cuda")
with torch.no_grad():
    for _ in range(calls):
        flush.zero_()
        model(*inputs)
torch.cuda.synchronize()
'''


def task_of(candidate):
    with open(candidate) as f:
        for line in f:
            m = re.match(r"#\s*runtime-task:\s*(\S+)", line)
            if m:
                return os.path.join(ROOT, m.group(1))
    raise SystemExit(f"{candidate}: no '# runtime-task:' line")


def kgate_run_or_problem(kgate, task, candidate):
    try:
        return kgate_run(kgate, task, candidate), None
    except SystemExit as problem:
        return None, str(problem)


def kgate_run(kgate, task, candidate):
    # One seed, normal inputs, the public shapes: the comparison needs only the timed shape, and the
    # hidden shape sets and other distributions made each run take minutes.
    cmd = [kgate, "run", "--device", "cuda", "--format", "json", "--seeds", "1", "--distributions", "normal",
           "--public-shapes-only", "--task", task, candidate]
    done = subprocess.run(cmd, capture_output=True, text=True)
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        raise SystemExit(f"kgate run failed on {candidate} (exit {done.returncode}):\n{done.stderr[-2000:]}")
    if report.get("verdict") != "pass" or not report.get("timing"):
        raise SystemExit(f"{candidate}: verdict {report.get('verdict')} {report.get('reason')}; the comparison needs a pass")
    return report["timing"]


def ncu_durations(ncu, task, candidate, timing, calls):
    """{kernel name: [gpu__time_duration of each launch, ns]} for the candidate's calls under ncu."""
    with tempfile.TemporaryDirectory() as tmp:
        driver = os.path.join(tmp, "driver.py")
        with open(driver, "w") as f:
            f.write(DRIVER)
        cmd = [ncu, "--clock-control", "none", "--cache-control", "none", "--metrics", "gpu__time_duration.sum",
               "--csv", "--print-units", "base", "--print-kernel-base", "function",
               sys.executable, driver, os.path.join(ROOT, "runtime", "python"), os.path.join(task, "reference.py"),
               candidate, json.dumps(timing["shapes"]), timing["dtype"], str(calls)]
        done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"ncu failed on {candidate} (exit {done.returncode}):\n{done.stdout[-1500:]}\n{done.stderr[-1500:]}")
    text = done.stdout[done.stdout.find('"ID"'):]
    durations = {}
    for row in csv.DictReader(io.StringIO(text)):
        if row.get("Metric Name") == "gpu__time_duration.sum":
            durations.setdefault(row["Kernel Name"], []).append(float(row["Metric Value"].replace(",", "")))
    return durations


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kgate", required=True)
    parser.add_argument("--ncu", default=None, help="default: ncu on PATH, else /opt/nvidia/nsight-compute/*/ncu, else /usr/local/cuda/bin/ncu")
    parser.add_argument("--calls", type=int, default=30)
    parser.add_argument("--max-diff", type=float, default=0.05)
    parser.add_argument("--min-kernels", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=4, help="kgate runs at once")
    parser.add_argument("candidates", nargs="+")
    args = parser.parse_args()
    if args.ncu is None:
        installed = sorted(glob.glob("/opt/nvidia/nsight-compute/*/ncu"))
        args.ncu = shutil.which("ncu") or (installed[-1] if installed else "/usr/local/cuda/bin/ncu")
    print(f"ncu: {args.ncu}", file=sys.stderr, flush=True)

    rows, worst, problems = [], 0.0, []
    candidates = [os.path.abspath(c) for c in args.candidates]
    tasks = {c: task_of(c) for c in candidates}
    # The kgate runs at once (their GPU phases take turns under the judge's per-GPU lock; start-up and
    # compilation overlap), then ncu one candidate at a time, alone on the GPU.
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        runs = dict(zip(candidates, pool.map(lambda c: kgate_run_or_problem(args.kgate, tasks[c], c), candidates)))
    print(f"kgate runs done in {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    for candidate in candidates:
        started = time.monotonic()
        timing, problem = runs[candidate]
        if problem:  # one candidate's failure is reported, the others still compared
            problems.append(problem)
            print("not compared:", problem, file=sys.stderr, flush=True)
            continue
        try:
            durations = ncu_durations(args.ncu, tasks[candidate], candidate, timing, args.calls)
        except SystemExit as problem:
            problems.append(str(problem))
            print("not compared:", problem, file=sys.stderr, flush=True)
            continue
        own = [k for k in timing["kernels"] if k.get("origin") == "candidate"]
        if not own:
            problems.append(f"{candidate}: kgate saw no kernel of the candidate's own")
        for kernel in own:
            matches = [name for name in durations if name and (name in kernel["name"] or kernel["name"] in name)]
            if not matches:
                problems.append(f"{candidate}: ncu has no launch of {kernel['name']} (it saw {sorted(durations)[:8]})")
                print("not compared:", problems[-1], file=sys.stderr, flush=True)
                continue
            launches = durations[max(matches, key=len)]
            ncu_us = statistics.median(launches[len(launches) // 4:]) / 1e3  # the first quarter is warm-up
            kgate_us = kernel["seconds"] / kernel["launches"] * 1e6
            diff = (kgate_us - ncu_us) / ncu_us
            worst = max(worst, abs(diff))
            rows.append((os.path.relpath(candidate, ROOT), kernel["name"], timing["dtype"], json.dumps(timing["shapes"]),
                         kgate_us, ncu_us, diff, timing["candidate"]["synced"]["median_s"] * 1e6))
            # As each kernel is compared, so that a run cut short still leaves its rows.
            print(f"{rows[-1][0]}: {kernel['name'][:60]} kgate {kgate_us:.2f} us, ncu {ncu_us:.2f} us ({100 * diff:+.1f}%),"
                  f" {len(launches)} ncu launches, {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    print("| candidate | kernel | dtype | shape | kgate CUPTI mean (us) | ncu gpu__time_duration median (us) | difference | kgate event median per call (us) |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r[0]} | `{r[1][:60]}` | {r[2]} | {r[3]} | {r[4]:.2f} | {r[5]:.2f} | {100 * r[6]:+.1f}% | {r[7]:.2f} |")
    print(f"\n{len(rows)} kernels compared; largest difference {100 * worst:.1f}% (limit {100 * args.max_diff:.0f}%)")
    for problem in problems:
        print("not compared:", problem)
    return 0 if len(rows) >= args.min_kernels and worst <= args.max_diff else 1


if __name__ == "__main__":
    sys.exit(main())
