#!/usr/bin/env bash
# kgate speedup over fixture reports: 4 timed outcomes (speedups 2.5, 1.2, 0.5 and a failure), fast_p and
# the geometric mean per category and overall, JSON lines and directories read, bad input refused.
# Usage: speedup_test.sh KGATE
set -uo pipefail
kgate="$1"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0
expect() {  # expect CODE PATTERN CMD...
  local code="$1" pattern="$2"
  shift 2
  local out status
  out="$("$@" 2>&1)"
  status=$?
  if [[ "$status" != "$code" ]] || ! grep -qE -- "$pattern" <<<"$out"; then
    echo "FAIL: $* -> exit $status (expected $code), output must match /$pattern/:"
    echo "$out" | head -30
    fail=1
  else
    echo "ok: $*"
  fi
}
# all: 4 reports; correct and > 0x: 3 (75%); > 1x: 2 (50%); > 1.5x: 1 (25%); > 2x: 1 (25%);
# geomean over the correct ones: (2.5 * 1.2 * 0.5)^(1/3) = 1.14.
expect 0 '^all +4 +75% +50% +25% +25% +1\.14x' "$kgate" speedup "$here/reports"
expect 0 '^Normalization +1 +0% +0% +0% +0% +-' "$kgate" speedup "$here/reports"
expect 0 '^Activation +1 +100% +100% +0% +0% +1\.20x' "$kgate" speedup "$here/reports"
expect 0 '^matmul_square +MatrixMultiply +pass +2\.50x +61\.0%' "$kgate" speedup "$here/reports"
expect 0 '"fast_1.5": 0.25' "$kgate" speedup --format json "$here/reports"
expect 0 '1 passing report\(s\) without timing' "$kgate" speedup "$here/reports" "$here/untimed.json"
printf '{"task": "x"}\n' > "$tmp/partial.json"
expect 2 'not a kgate run report' "$kgate" speedup "$tmp/partial.json"
printf 'garbage\n' > "$tmp/garbage.jsonl"
expect 2 'garbage.jsonl:1: not JSON' "$kgate" speedup "$tmp/garbage.jsonl"
expect 2 'no such file' "$kgate" speedup "$tmp/missing.json"
mkdir "$tmp/empty"
expect 2 'no reports found' "$kgate" speedup "$tmp/empty"
exit "$fail"
