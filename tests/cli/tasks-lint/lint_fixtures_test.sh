#!/usr/bin/env bash
# Each degenerate task under bad/ must make `kgate tasks lint` exit 1 with the check its reference.py
# names on its first line (`# lint-expect: <check>`), reported for that task; text and JSON agree.
set -u
kgate="$1"
dir="$(cd "$(dirname "$0")" && pwd)/bad"
failures=0
for task in "$dir"/*/; do
  task="${task%/}"
  expect="$(sed -n '1s/^# lint-expect: //p' "$task/reference.py")"
  out="$("$kgate" tasks lint "$task" 2>&1)"; rc=$?
  if [ "$rc" -ne 1 ]; then
    echo "FAIL $(basename "$task"): exit $rc, expected 1"; echo "$out"; failures=$((failures + 1)); continue
  fi
  if ! grep -q "^$task: $expect: " <<<"$out"; then
    echo "FAIL $(basename "$task"): no '$expect' finding"; echo "$out"; failures=$((failures + 1)); continue
  fi
  json="$("$kgate" tasks lint --format json "$task" 2>&1)"
  if ! grep -q "\"check\":\"$expect\"" <<<"$json"; then
    echo "FAIL $(basename "$task"): JSON lacks check $expect"; echo "$json"; failures=$((failures + 1)); continue
  fi
  echo "ok   $(basename "$task"): $expect"
done
# Usage errors exit 2.
"$kgate" tasks lint "$dir/does-not-exist" >/dev/null 2>&1; rc=$?
[ "$rc" -eq 2 ] || { echo "FAIL missing path: exit $rc, expected 2"; failures=$((failures + 1)); }
"$kgate" tasks lint --format yaml "$dir" >/dev/null 2>&1; rc=$?
[ "$rc" -eq 2 ] || { echo "FAIL bad format: exit $rc, expected 2"; failures=$((failures + 1)); }
exit $((failures > 0))
