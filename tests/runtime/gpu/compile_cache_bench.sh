#!/usr/bin/env bash
# Benchmark (label gpu): the compile cache cold and warm on the CUDA load_inline candidate. Runs
# `kgate run` twice against a fresh cache directory and prints the compile record of each run.
# Usage: compile_cache_bench.sh KGATE REPO_ROOT. Fails only when a run fails, never on speed.
set -euo pipefail
kgate="$1"; root="$2"
cache="$(mktemp -d)"
trap 'rm -rf "$cache"' EXIT
candidate="$root/tests/runtime/gpu/cuda_relu_inline.py"
task="$root/corpus/runtime/sandbox/task_relu.py"
for run in cold warm; do
  json="$("$kgate" run --task "$task" "$candidate" --device cuda --seeds 1 --distributions normal --public-shapes-only \
          --format json --cache-dir "$cache")"
  python3 - "$run" "$json" <<'PY'
import json, sys
run, report = sys.argv[1], json.loads(sys.argv[2])
for record in report["compile_cache"]:
    print(f"compile-cache {run}: {record['name']} hit={record['hit']} {record['ms']:.1f} ms")
assert report["verdict"] == "pass", report["reasons"]
assert report["compile_cache"], "no compile request reached the cache"
PY
done
