#!/usr/bin/env bash
# kgate calibrate without measuring: --show prints a cache (text and JSON), a broken cache is exit 2
# naming the problem, and a machine without a visible GPU gets exit 2 with a clear message (the GPU is
# hidden with CUDA_VISIBLE_DEVICES, so the test means the same on a GPU machine).
# Usage: calibrate_test.sh KGATE
set -uo pipefail
kgate="$1"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0
expect() {  # expect CODE PATTERN CMD...: the exit status and a line of the output
  local code="$1" pattern="$2"
  shift 2
  local out status
  out="$("$@" 2>&1)"
  status=$?
  if [[ "$status" != "$code" ]] || ! grep -qE -- "$pattern" <<<"$out"; then
    echo "FAIL: $* -> exit $status (expected $code), output must match /$pattern/:"
    echo "$out" | head -20
    fail=1
  else
    echo "ok: $*"
  fi
}
expect 0 '^d2d_bandwidth +2900\.0 GB/s +3350\.0 GB/s +86\.6%' "$kgate" calibrate --show --cache "$here/h100_cache.json"
expect 0 '^matmul_bf16 +660\.0 TFLOP/s +989\.4 TFLOP/s +66\.7%' "$kgate" calibrate --show --cache "$here/h100_cache.json"
expect 0 '"sm_clock_mhz": 1980' "$kgate" calibrate --show --format json --cache "$here/h100_cache.json"
expect 0 'no GPU calibrated yet' "$kgate" calibrate --show --cache "$tmp/none.json"
printf '{"version": 1, "entries": [{"gpu": "X", "driver": "1", "sm_clock_mhz": 1, "mem_clock_mhz": 1, "peaks": {"d2d_bandwidth": {"measured": -1}, "fp32_fma": {"datasheet": 1}}}]}' > "$tmp/negative.json"
expect 2 'invalid calibration cache' "$kgate" calibrate --show --cache "$tmp/negative.json"
printf 'not json' > "$tmp/text.json"
expect 2 'not valid JSON' "$kgate" calibrate --cache "$tmp/text.json"
expect 2 'no CUDA device' env CUDA_VISIBLE_DEVICES= "$kgate" calibrate --cache "$tmp/new.json"
[[ ! -e "$tmp/new.json" ]] || { echo "FAIL: a failed calibration wrote $tmp/new.json"; fail=1; }
expect 2 "not in range" "$kgate" calibrate --repeats 1 --cache "$tmp/new.json"
exit "$fail"
