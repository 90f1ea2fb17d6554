#!/usr/bin/env python3
"""Wall time of `kgate run` per (task, candidate) pair, phase by phase, with a cold and a warm compile
cache, against KernelBench's own eval_kernel_against_ref on the same pair in the same call (the named
baseline; optional, with --kernelbench-src).

Usage:
  runtime_speed.py --kgate build/tools/kgate [--device cuda] [--profiles full,quick]
                   [--kernelbench-src KernelBench/src] [--kb-trials 5] [--kb-perf-trials 30]
                   TASK:CANDIDATE [TASK:CANDIDATE ...]

TASK is what `kgate run --task` takes (a bare KernelBench problem file, a task directory); CANDIDATE a
ModelNew file. Each run is a fresh process, as a batch runs them. Cold: an empty compile cache (kgate's
--cache-dir; KernelBench's build directory). Warm: the same cache again. KernelBench's eval needs
KernelBench's src on the path; its LLM-side imports that the eval path never calls (openai, litellm,
dotenv, pydantic, ...) get stand-ins where the packages are missing, so this runs on a machine without
network access. Prints one block per pair, then the ratios.
"""
import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time

# Stand-ins for modules KernelBench imports at import time but never calls in eval_kernel_against_ref.
_STANDINS = {
    "requests": "",
    "dotenv": "def load_dotenv(*a, **k):\n    return False\n",
    "openai": "class OpenAI:\n    def __init__(self, *a, **k):\n        pass\n",
    "litellm": "def completion(*a, **k):\n    raise RuntimeError('not available in the benchmark')\n",
    "tqdm": "def tqdm(it=None, *a, **k):\n    return it\n",
    "pydantic": (
        "class BaseModel:\n"
        "    def __init__(self, **kw):\n"
        "        for klass in reversed(type(self).__mro__):\n"
        "            for name in getattr(klass, '__annotations__', {}):\n"
        "                if hasattr(klass, name):\n"
        "                    v = getattr(klass, name)\n"
        "                    setattr(self, name, v.copy() if isinstance(v, (dict, list)) else v)\n"
        "        for k, v in kw.items():\n"
        "            setattr(self, k, v)\n"
        "    def model_dump(self):\n"
        "        return dict(self.__dict__)\n"
    ),
}

_KB_EVAL = """
import sys, time
t0 = time.time()
from kernelbench.eval import eval_kernel_against_ref
ref, cand, trials, perf, backend, build = sys.argv[1:7]
r = eval_kernel_against_ref(open(ref).read(), open(cand).read(), num_correct_trials=int(trials),
                            num_perf_trials=int(perf), measure_performance=int(perf) > 0, backend=backend,
                            build_dir=build, verbose=False)
print("KB_RESULT", getattr(r, "correctness", None), getattr(r, "runtime", None), getattr(r, "ref_runtime", None))
"""


def standins_dir(root):
    path = os.path.join(root, "standins")
    os.makedirs(path, exist_ok=True)
    for name, body in _STANDINS.items():
        if importlib.util.find_spec(name) is None:
            with open(os.path.join(path, name + ".py"), "w") as f:
                f.write(body)
    return path


def run_kgate(args, profile, task, candidate, cache_dir):
    cmd = [args.kgate, "run", "--task", task, candidate, "--device", args.device, "--profile", profile,
           "--format", "json", "--cache-dir", cache_dir]
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - start
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return {"wall": wall, "error": f"exit {proc.returncode}: {proc.stderr.strip()[-400:]}"}
    return {"wall": wall, "report": report}


def run_kernelbench(args, task, candidate, build_dir, python_path):
    backend = "triton" if "@triton.jit" in open(candidate, encoding="utf-8").read() else "cuda"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(python_path + [os.environ.get("PYTHONPATH", "")]),
               TORCH_EXTENSIONS_DIR=build_dir)
    cmd = [sys.executable, "-c", _KB_EVAL, task, candidate, str(args.kb_trials), str(args.kb_perf_trials), backend, build_dir]
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.monotonic() - start
    result = next((line.split()[1:] for line in proc.stdout.splitlines() if line.startswith("KB_RESULT")), None)
    if proc.returncode != 0 or result is None:
        return {"wall": wall, "error": f"exit {proc.returncode}: {(proc.stderr or proc.stdout).strip()[-400:]}"}
    return {"wall": wall, "correct": result[0]}


def phases_line(run):
    if "error" in run:
        return f"{run['wall']:.1f} s, no report ({run['error']})"
    report = run["report"]
    phases = ", ".join(f"{p['phase']} {p['seconds']:.2f}" for p in report.get("phases", []))
    worker = ", ".join(f"{p['phase']} {p['seconds']:.2f}" for p in report.get("worker_startup", []))
    cases = len(report.get("cases", []))
    return (f"{run['wall']:.1f} s wall ({report['verdict']}, {cases} cases)\n      phases: {phases}\n"
            f"      worker start-up (overlaps the judge's): {worker}")


def phase(run, name):
    if "report" not in run:
        return 0.0
    return sum(p["seconds"] for p in run["report"].get("phases", []) if p["phase"] == name)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kgate", required=True)
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--profiles", default="full", help="kgate run profiles, comma-separated (full, quick)")
    parser.add_argument("--kernelbench-src", help="KernelBench's src directory (the package kernelbench)")
    parser.add_argument("--kb-trials", type=int, default=5)
    parser.add_argument("--kb-perf-trials", type=int, default=30)
    parser.add_argument("pairs", nargs="+", metavar="TASK:CANDIDATE")
    args = parser.parse_args()

    summary = []
    with tempfile.TemporaryDirectory(prefix="kgate-speed-") as root:
        python_path = [standins_dir(root), os.path.abspath(args.kernelbench_src)] if args.kernelbench_src else []
        for n, pair in enumerate(args.pairs):
            task, _, candidate = pair.partition(":")
            if not candidate:
                parser.error(f"{pair}: expected TASK:CANDIDATE")
            print(f"{os.path.basename(task)} x {os.path.basename(candidate)} ({args.device})")
            row = {"pair": pair}
            for profile in args.profiles.split(","):
                cache = os.path.join(root, f"kgate-cache-{n}-{profile}")
                cold = run_kgate(args, profile, task, candidate, cache)
                print(f"  kgate run --profile {profile}, cold cache: {phases_line(cold)}")
                warm = run_kgate(args, profile, task, candidate, cache)
                print(f"  kgate run --profile {profile}, warm cache: {phases_line(warm)}")
                row[profile] = (cold["wall"], warm["wall"], warm["wall"] - phase(warm, "compile"))
            if python_path:
                build = os.path.join(root, f"kb-build-{n}")
                kb_cold = run_kernelbench(args, task, candidate, build, python_path)
                kb_warm = run_kernelbench(args, task, candidate, build, python_path)
                for label, kb in (("cold", kb_cold), ("warm", kb_warm)):
                    detail = kb.get("error") or f"correct {kb['correct']}"
                    print(f"  KernelBench eval_kernel_against_ref ({args.kb_trials} trials, {args.kb_perf_trials} perf), "
                          f"{label}: {kb['wall']:.1f} s wall ({detail})")
                row["kb_cold"], row["kb_warm"] = kb_cold["wall"], kb_warm["wall"]
            summary.append(row)
    for row in summary:
        print(f"\n{row['pair']}")
        for profile in args.profiles.split(","):
            cold, warm, past = row[profile]
            line = f"  kgate {profile}: cold {cold:.1f} s, warm {warm:.1f} s, warm past compile {past:.1f} s"
            if "kb_warm" in row and row["kb_warm"] > 0:
                line += f"; ratio to KernelBench's eval, warm: {warm / row['kb_warm']:.2f}x"
            print(line)
        if "kb_warm" in row:
            print(f"  KernelBench eval: cold {row['kb_cold']:.1f} s, warm {row['kb_warm']:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
