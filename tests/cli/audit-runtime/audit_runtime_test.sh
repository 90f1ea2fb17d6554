#!/usr/bin/env bash
# `kgate audit --runtime cpu`: files the static gate approves are judged by kgate run, and the record
# keeps the runtime verdict; rejected files and files without a task are skipped with a reason; the
# HTML report shows the runtime column. A .kgate.yaml turns off the no-custom-kernel rules so that
# plain-torch CPU candidates get through the static gate (a CPU has no custom kernel to launch).
# Usage: audit_runtime_test.sh KGATE REPO_ROOT WORK_DIR
set -euo pipefail
kgate=$1 root=$2 work=$3
rm -rf "$work" && mkdir -p "$work/in"
cd "$root"  # the candidates' `# runtime-task:` lines are relative to the repository root
cp corpus/runtime/honest/negative_part.py corpus/runtime/cheats/M12_wrong_under_outliers.py \
   corpus/runtime/cheats/M1_unwritten_output.py "$work/in/"
sed '/^# runtime-task:/d' corpus/runtime/honest/scale_add.py > "$work/in/no_task.py"
printf 'rules:\n  disable: [forward-reaches-no-kernel, torch-function-in-forward, tensor-method-in-forward]\n' > "$work/in/.kgate.yaml"

fail() { echo "FAIL: $*"; exit 1; }
"$kgate" audit --out "$work/out" --runtime cpu --runtime-seeds 1 -j 2 "$work/in" > "$work/stdout" || fail "audit exited $?"
cat "$work/stdout"
grep -q '^audit: runtime on cpu: 1 fail, 1 pass, 0 without a report, 2 skipped$' "$work/stdout" || fail "runtime summary line"

python3 - "$work/out/results.jsonl" <<'PY'
import json, sys
records = {r["path"].rsplit("/", 1)[1]: r for r in map(json.loads, open(sys.argv[1]))}
def expect(cond, what):
    if not cond:
        print("FAIL:", what, json.dumps(records, indent=1)[:4000]); sys.exit(1)
honest, cheat = records["negative_part.py"], records["M12_wrong_under_outliers.py"]
expect(honest["verdict"] == "pass" and honest["runtime"]["verdict"] == "pass", "honest candidate passes both stages")
expect(honest["runtime"]["task"] == "corpus/runtime/tasks/negative_part.py", "the task comes from the file's line")
expect(honest["runtime"]["reasons"] == [] and honest["runtime"]["seconds"] > 0, "a pass has no reasons and a duration")
expect(honest["runtime"]["profile"] == "full", "kgate run's default profile")
expect(cheat["verdict"] == "pass", "the M12 cheat gets past the static gate with these rules off")
expect(cheat["runtime"]["verdict"] == "fail", "the runtime fails the M12 cheat")
expect([r["id"] for r in cheat["runtime"]["reasons"]] == ["mismatch"], "the M12 cheat's reason is a mismatch")
expect(records["M1_unwritten_output.py"]["runtime"] == {"skipped": "rejected by the static gate"}, "a rejected file is not run")
expect(records["no_task.py"]["runtime"]["skipped"].startswith("no task"), "a file without a task is skipped with a reason")
PY

html="$work/out/report.html"
grep -q '<th>runtime</th>' "$html" || fail "report.html has no runtime column"
grep -q 'class="runtime-fail" title="mismatch: value differs' "$html" || fail "report.html: the cheat's runtime cell"
grep -q 'class="runtime-pass"' "$html" || fail "report.html: the honest runtime cell"

# Resuming under other runtime settings is refused; the same settings reuse every record.
if "$kgate" audit --out "$work/out" --runtime cpu --runtime-seeds 2 "$work/in" > "$work/stdout2" 2>&1; then
  fail "resuming with other --runtime-seeds was accepted"
fi
"$kgate" audit --out "$work/out" --runtime cpu --runtime-seeds 1 "$work/in" > "$work/stdout3" || fail "resume exited $?"
grep -q '0 analysed, 4 already done' "$work/stdout3" || fail "resume re-ran files: $(cat "$work/stdout3")"
# --runtime-profile reaches kgate run: the quick profile still fails the M12 cheat.
"$kgate" audit --out "$work/out-quick" --runtime cpu --runtime-profile quick "$work/in" > "$work/stdout4" || fail "quick audit exited $?"
grep -q '^audit: runtime on cpu: 1 fail, 1 pass, 0 without a report, 2 skipped$' "$work/stdout4" || fail "quick runtime summary line"
grep -q '"profile":"quick"' "$work/out-quick/results.jsonl" || fail "the records do not say the quick profile ran"
# --runtime needs the same device name kgate run takes.
if "$kgate" audit --out "$work/out2" --runtime tpu "$work/in" > /dev/null 2>&1; then fail "--runtime tpu accepted"; fi
echo "audit --runtime: ok"
