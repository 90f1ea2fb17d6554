#!/usr/bin/env bash
# GPU test (labels gpu, runtime): two `kgate run` processes at once on one GPU, each with a task that
# needs more than half of its free memory (an input of free/24 bytes; on an H100 a run alone held about
# twelve such buffers between the judge's arena, its copies and the worker's, and 1 GiB of CUDA
# contexts, so one run fits beside the other's context and two do not). How a batch runs on a shared
# GPU: the second run must wait for memory or, having run out, run again alone; both must pass, and
# neither may end as harness-error or as a verdict on the candidate.
# Usage: shared_gpu_two_runs.sh KGATE REPO_ROOT PYTHON (the Python with torch the runtime uses)
set -euo pipefail
kgate="$1"; root="$2"; python="$3"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# A ballast process holds all but about 8 GiB of the GPU first (another user of a shared GPU), so the
# runs' tensors stay small and the test takes seconds on an 80 or 141 GiB card, not minutes. Alone, a
# run needs about nine buffers and two CUDA contexts, and the waiting run keeps its own context.
keep=$(( 8 << 30 ))
"$python" - "$keep" "$work/ballast.ready" <<'PY' &
import sys, time, torch
free = torch.cuda.mem_get_info()[0]
held = torch.empty(max(0, free - int(sys.argv[1])), dtype=torch.uint8, device="cuda")
open(sys.argv[2], "w").close()
time.sleep(3600)
PY
ballast=$!
trap 'kill $ballast 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 600); do [ -e "$work/ballast.ready" ] || ! kill -0 $ballast 2>/dev/null && break; sleep 0.1; done
[ -e "$work/ballast.ready" ] || { echo "the ballast process did not start"; exit 1; }
free=$("$python" -c 'import torch; print(torch.cuda.mem_get_info()[0])')
export KGATE_TEST_NUMEL=$(( free / 24 / 4 ))
echo "free GPU memory beside the ballast: $(( free >> 20 )) MiB; each run's input: $(( KGATE_TEST_NUMEL * 4 >> 20 )) MiB"
for i in 1 2; do
  "$kgate" run --task "$root/tests/runtime/gpu/shared_gpu_task.py" "$root/tests/runtime/gpu/shared_gpu_relu.py" \
    --device cuda --seeds 1 --format json --memory-wait 120 --cache-dir "$work/cache$i" >"$work/run$i.json" 2>"$work/run$i.err" &
  eval "pid$i=$!"
done
status=0
for i in 1 2; do
  eval "pid=\$pid$i"
  wait "$pid" || true
  python3 - "$i" "$work/run$i.json" "$work/run$i.err" <<'PY' || status=1
import json, sys
i, path, err = sys.argv[1:]
try:
    report = json.load(open(path))
except (OSError, json.JSONDecodeError):
    print(f"run {i}: no JSON report; stderr: {open(err).read()[-2000:]}")
    sys.exit(1)
phases = {p["phase"]: round(p["seconds"], 1) for p in report.get("phases", [])}
print(f"run {i}: {report['verdict']} {[r['id'] + ': ' + r['message'][:200] for r in report['reasons']]} "
      f"{report['seconds']:.1f} s, ran_alone={report.get('ran_alone')}, phases {phases}")
sys.exit(0 if report["verdict"] == "pass" else 1)
PY
done
exit $status
