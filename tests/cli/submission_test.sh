#!/usr/bin/env bash
# `kgate check --submission DIR` over corpus/submissions: each directory is one submission, and its
# folded verdict (and the rule behind it) must be what the directory's EXPECT file says:
# "pass", or "<verdict> <rule>" (reject timer-patch, unjudged entry-not-found). Also: a bundle's Python
# sidecar is judged as `<bundle>::<sidecar>`, a file given to --submission is a usage error, and the
# exit code follows the verdicts.
# Usage: submission_test.sh KGATE CORPUS_DIR
set -u
kgate="$1"
corpus="$2"
fail=0
count=0
for dir in "$corpus"/submissions/*/*/; do
  dir="${dir%/}"
  count=$((count + 1))
  read -r want_verdict want_rule < "$dir/EXPECT"
  out="$("$kgate" check --submission --format json "$dir" 2>&1)"
  rc=$?
  got="$(printf '%s' "$out" | python3 -c '
import json, sys
files = json.load(sys.stdin)["files"]
assert len(files) == 1, "one result per submission, got %d" % len(files)
f = files[0]
rules = sorted({d["rule"] for d in f["findings"] if d["severity"] == "error"})
print(f["verdict"], " ".join(rules))' 2>&1)"
  verdict="${got%% *}"
  want_exit=1
  [ "$want_verdict" = pass ] && want_exit=0
  if [ "$verdict" != "$want_verdict" ] || [ "$rc" -ne "$want_exit" ]; then
    echo "FAIL $dir: got '$got' (exit $rc), expected '$want_verdict ${want_rule:-}' (exit $want_exit)"; fail=1; continue
  fi
  if [ -n "${want_rule:-}" ] && ! printf '%s' "$got" | grep -qw -- "$want_rule"; then
    echo "FAIL $dir: got '$got', expected rule $want_rule"; fail=1; continue
  fi
  if [ "$want_verdict" = pass ] && [ "$got" != "pass " ]; then
    echo "FAIL $dir: an honest submission has error findings: '$got'"; fail=1; continue
  fi
  echo "ok $dir: $got"
done
[ "$count" -ge 6 ] || { echo "FAIL: only $count submissions found under $corpus/submissions"; fail=1; }

# The bundle's sidecar finding names the sidecar inside the bundle.
bundle="$corpus/submissions/cheats/bundle_python_sidecar_patch/solution.py"
out="$("$kgate" check "$bundle" 2>&1)"
if printf '%s' "$out" | grep -q "solution.py::helpers.py:[0-9]*:[0-9]*: error: .*\[timer-patch\]"; then
  echo "ok bundle sidecar finding is reported at solution.py::helpers.py"
else
  echo "FAIL bundle sidecar: expected a timer-patch finding at solution.py::helpers.py"; echo "$out"; fail=1
fi
# Judged alone, the honest half of the directory cheat passes: only the fold catches its helper.
if "$kgate" check "$corpus/submissions/cheats/helper_module_patches_timer/submission.py" > /dev/null; then
  echo "ok the helper-module cheat's entry file passes on its own (the directory is what is judged)"
else
  echo "FAIL the entry file of helper_module_patches_timer was expected to pass on its own"; fail=1
fi
# Without the challenge.py that names solve's outputs, a write into a parameter no profile name marks
# an output (sums) may be the output's: a warning that says how to name them, never a rejection.
alone="$(mktemp -d)"
cp "$corpus/submissions/honest/leetgpu_column_sums_beside_challenge/solution.py" "$alone/"
got="$("$kgate" check --format json "$alone/solution.py" | python3 -c '
import json, sys
f = json.load(sys.stdin)["files"][0]
print(f["verdict"], sorted({(d["rule"], d["severity"]) for d in f["findings"]}))')"
rm -rf "$alone"
if [ "$got" = "pass [('input-mutation', 'warning')]" ]; then
  echo "ok a LeetGPU solution alone: its write into sums is a warning (no task names the outputs)"
else
  echo "FAIL a LeetGPU solution alone: got '$got', expected pass with an input-mutation warning"; fail=1
fi
# A file is not a submission directory.
"$kgate" check --submission "$bundle" > /dev/null 2>&1
rc=$?
[ "$rc" -eq 2 ] && echo "ok --submission FILE is a usage error" || { echo "FAIL --submission FILE: exit $rc, expected 2"; fail=1; }
exit $fail
