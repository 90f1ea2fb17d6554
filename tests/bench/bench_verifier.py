"""What a long-lived judge saves per candidate, and what several GPUs add.

Baseline, in the same run: `kgate run --quick --format json` as a process per candidate (a new judge,
interpreter and torch import each time). Then one kgate.Verifier (one long-lived judge) over the same
candidates, and, with --gpus N, N Verifiers (one per GPU, as kgate.ray places its actors) fed from one
queue. Every run is checked against the expected verdict; a wrong one fails the benchmark.

  PYTHONPATH=build/python KGATE_RUNTIME=build/tools/kgate-runtime \
    .venv/bin/python tests/bench/bench_verifier.py --device cpu            # the CPU runtime corpus
  ... --device cuda --gpus 2 --rounds 3                                      # corpus/honest/tasks on GPUs
  ... --device cuda --prepare 1,3        # one Verifier per spare-worker count, each against the baseline

cpu: corpus/runtime's four CPU candidates, runtime only (they are pure PyTorch: the static gate rejects
them). cuda: corpus/honest/tasks (one honest kernel per task category), static gate and runtime.
The first round warms the compile cache and is not counted.
"""
import argparse
import json
import os
import pathlib
import queue
import re
import statistics
import subprocess
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "python"))

import kgate  # noqa: E402
from runtime_candidates import EXPECTED, NAMES, candidate  # noqa: E402


def gpu_candidates() -> list:
    items = []
    for path in sorted((ROOT / "corpus" / "honest" / "tasks").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        task = next(l.split(":", 1)[1].strip() for l in source.splitlines() if l.startswith("# runtime-task:"))
        items.append({"key": str(path.relative_to(ROOT)), "source": source, "task": str(ROOT / task),
                      "path": path.name, "file": str(path), "expect": "pass"})
    return items


def cpu_candidates() -> list:
    return [dict(candidate(ROOT, name), expect=EXPECTED[name][0]) for name in NAMES]


def run_process(cli: str, item: dict, device: str) -> str:
    out = subprocess.run([cli, "run", "--quick", "--device", device, "--format", "json", "--task", item["task"],
                          item["file"]], capture_output=True, text=True, timeout=600)
    return json.loads(out.stdout)["verdict"]


def check(item: dict, verdict: str, how: str) -> None:
    if verdict != item["expect"]:
        sys.exit(f"bench_verifier: {how} gave {verdict} for {item['key']}, expected {item['expect']}")


def per_candidate(times: list) -> str:
    return f"median {statistics.median(times):.2f} s, mean {statistics.mean(times):.2f} s over {len(times)}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--gpus", type=int, default=1, help="Verifiers on cuda:0..N-1 for the throughput figure")
    parser.add_argument("--rounds", type=int, default=2, help="counted rounds over the candidates (0: warm-up only)")
    parser.add_argument("--cli", default=str(ROOT / "build" / "tools" / "kgate"))
    parser.add_argument("--match", default="", help="only candidates whose path matches this regular expression")
    parser.add_argument("--prepare", default=None,
                        help="spare workers per Verifier (kgate serve --prepare; default: the judge's); a list "
                             "(1,3) runs one Verifier per count over the same rounds, each against the baseline")
    args = parser.parse_args()
    items = cpu_candidates() if args.device == "cpu" else gpu_candidates()
    items = [item for item in items if re.search(args.match, item["key"])]
    if not items:
        sys.exit(f"bench_verifier: no candidate matches {args.match!r}")
    static = args.device == "cuda"

    waits = []  # the judge's wait for each counted run's worker (the report's `worker start-up` phase)

    def verify(verifier, item, counted=False):
        result = verifier.verify(item["source"], item["task"], path=item["path"], static=static)
        if counted and result.report:
            waits.append(sum(p["seconds"] for p in result.report.get("phases", [])
                             if p["phase"] == "worker start-up"))
        return result.verdict

    # Warm-up round: the compile cache, and the first CUDA context of a fresh machine.
    counts = [True] if args.prepare is None else [int(n) for n in str(args.prepare).split(",")]
    prepare = counts[0]
    first = kgate.Verifier(device="cuda:0" if args.device == "cuda" else "cpu", prepare=prepare)
    for item in items:
        check(item, verify(first, item), "warm-up")

    if args.rounds == 0:
        print(f"warm-up only: {len(items)} candidates judged as expected")
        return 0
    # Back to back, as a stream comes: the judge has no idle time between candidates to start the next
    # worker in, beyond what the previous answer's return takes.
    process_times, verifier_times = [], []
    for _ in range(args.rounds):
        for item in items:
            start = time.monotonic()
            check(item, run_process(args.cli, item, args.device), "kgate run")
            process_times.append(time.monotonic() - start)
    def stream(verifier):
        times = []
        waits.clear()
        for _ in range(args.rounds):
            for item in items:
                start = time.monotonic()
                check(item, verify(verifier, item, counted=True), "Verifier")
                times.append(time.monotonic() - start)
        return times

    verifier_times = stream(first)
    print(f"device {args.device}, {len(items)} candidates x {args.rounds} rounds, quick profile")
    print(f"kgate run process per candidate (baseline): {per_candidate(process_times)}")

    def say(count, times):
        label = "kgate.Verifier" if args.prepare is None else f"kgate.Verifier, {count} spare workers"
        print(f"{label} per candidate: {per_candidate(times)}; waiting for its worker: {per_candidate(waits)}")
        print(f"  ratio baseline/Verifier (mean): {statistics.mean(process_times) / statistics.mean(times):.2f}x")

    say(prepare, verifier_times)
    for count in counts[1:]:
        with kgate.Verifier(device="cuda:0" if args.device == "cuda" else "cpu", prepare=count) as other:
            check(items[0], verify(other, items[0]), "warm-up")  # its own first CUDA context
            say(count, stream(other))

    one_gpu_rate = 60 * len(verifier_times) / sum(verifier_times)
    print(f"steady state, one Verifier: {one_gpu_rate:.1f} candidates/min")
    if args.gpus > 1:
        verifiers = [first] + [kgate.Verifier(device=f"cuda:{n}", prepare=prepare) for n in range(1, args.gpus)]
        for verifier in verifiers[1:]:  # each judge's own first CUDA context and compile lookups
            for item in items[:2]:
                check(item, verify(verifier, item), "warm-up")
        work: "queue.SimpleQueue" = queue.SimpleQueue()
        for _ in range(args.rounds):
            for item in items:
                work.put(item)
        total = work.qsize()
        errors = []

        def drain(verifier):
            while True:
                try:
                    item = work.get_nowait()
                except queue.Empty:
                    return
                verdict = verify(verifier, item)
                if verdict != item["expect"]:
                    errors.append((item["key"], verdict))

        start = time.monotonic()
        threads = [threading.Thread(target=drain, args=(v,)) for v in verifiers]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.monotonic() - start
        if errors:
            sys.exit(f"bench_verifier: wrong verdicts on {args.gpus} GPUs: {errors}")
        rate = 60 * total / elapsed
        print(f"steady state, {args.gpus} Verifiers on {args.gpus} GPUs: {rate:.1f} candidates/min "
              f"({total} in {elapsed:.1f} s); ratio to one: {rate / one_gpu_rate:.2f}x")
        for verifier in verifiers[1:]:
            verifier.close()
    first.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
