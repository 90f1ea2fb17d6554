#!/usr/bin/env bash
# GPU suite: kgate calibrate measures every peak the GPU has, writes the cache, and a second call reads
# it back without measuring. Each measured figure must be positive and, where the datasheet knows the
# GPU, between 30% and 115% of the datasheet's (a copy reaches ~85-95% of DRAM bandwidth, cuBLAS ~60-90%
# of the tensor-core peaks). Prints the table for the issue notes. Usage: gpu_calibrate_test.sh KGATE
set -uo pipefail
kgate="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$kgate" calibrate --cache "$tmp/cal.json" --repeats 10 || { echo "FAIL: calibrate exited $?"; exit 1; }
"$kgate" calibrate --cache "$tmp/cal.json" --format json > "$tmp/again.json" || { echo "FAIL: second call"; exit 1; }
python3 - "$tmp/again.json" <<'PY'
import json, sys
entry = json.load(open(sys.argv[1]))
assert entry["measured_now"] is False, "the second call measured again instead of reading the cache"
peaks = entry["peaks"]
for name in ("d2d_bandwidth", "fp32_fma", "matmul_tf32", "matmul_bf16", "matmul_fp16", "matmul_int8"):
    assert "measured" in peaks.get(name, {}), "%s was not measured: %s" % (name, entry.get("skipped"))
bad = []
for name, figure in peaks.items():
    if "measured" in figure and "datasheet" in figure:
        ratio = figure["measured"] / figure["datasheet"]
        print("%-14s %6.1f%% of the datasheet" % (name, 100 * ratio))
        if not 0.30 <= ratio <= 1.15:
            bad.append(name)
assert not bad, "implausible measurements: %s" % bad
print("ok")
PY
