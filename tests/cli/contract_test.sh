#!/usr/bin/env bash
# The dtype contract and `kgate facts` through the whole CLI (docs/dtype-contract.md), with the shipped
# rules: the contract each file gets and where from, --contract and .kgate.yaml overriding it, a bad
# dtype as a usage error, and `kgate facts` printing the facts the rules saw.
# Usage: contract_test.sh KGATE CORPUS_DIR
set -u
kgate="$1"
corpus="$2"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fail=0
honest="$corpus/honest/contract_bf16/solution.py"  # bf16 conversions, bf16 reference beside it
cheat="$corpus/cheats/M14/contract_fp32_reference/solution.py"  # bf16 conversions, fp32 reference

# check NAME WANT_EXIT WANT_CONTRACT WANT_SEVERITY KGATE_CHECK_ARGS...: the exit code, the first file's
# contract ("fp32 from reference.py", or "unknown"), and the severity of its precision-downgrade
# findings ("none" when there are none).
check() {
  local name="$1" want_exit="$2" want_contract="$3" want_severity="$4"
  shift 4
  local out rc
  out="$("$kgate" check --format json "$@" 2>&1)"
  rc=$?
  if [ "$rc" -ne "$want_exit" ]; then
    echo "FAIL $name: exit $rc, expected $want_exit"; echo "$out" | head -c 800; echo; fail=1; return
  fi
  got="$(printf '%s' "$out" | python3 -c '
import json, sys
f = json.load(sys.stdin)["files"][0]
c = f.get("contract")
contract = "%s from %s" % (c["dtype"], c["source"]) if c else "unknown"
sev = sorted({d["severity"] for d in f["findings"] if d["rule"] == "precision-downgrade"}) or ["none"]
print(contract + " | " + ",".join(sev))')"
  if [ "$got" != "$want_contract | $want_severity" ]; then
    echo "FAIL $name: got '$got', expected '$want_contract | $want_severity'"; fail=1; return
  fi
  echo "ok $name: $got"
}

check bf16_reference_passes 0 "bf16 from reference.py" none "$honest"
check fp32_reference_rejects 1 "fp32 from reference.py" error "$cheat"
check contract_flag_wins 0 "bf16 from --contract" none --contract bf16 "$cheat"

# Without the reference the contract is unknown and the finding a warning (model-entry has no default).
cp "$cheat" "$dir/solution.py"
check unknown_contract_warns 0 "unknown" warning "$dir/solution.py"
printf 'contract: bf16\n' > "$dir/.kgate.yaml"
check config_contract 0 "bf16 from $dir/.kgate.yaml" none "$dir/solution.py"

out="$("$kgate" check --contract fp17 "$honest" 2>&1)"; rc=$?
if [ "$rc" -ne 2 ] || ! printf '%s' "$out" | grep -q "unknown dtype 'fp17'"; then
  echo "FAIL bad_contract: exit $rc: $out"; fail=1
else
  echo "ok bad_contract: exit 2"
fi

# kgate facts: the facts and the contract the rules judged, as JSON.
out="$("$kgate" facts "$cheat" 2>&1)"; rc=$?
if [ "$rc" -ne 0 ] || ! printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
f = d["facts"]
assert f["harness"] == "model-entry", f["harness"]
assert f["contract"] == {"dtype": "fp32", "source": "reference.py"}, f["contract"]
casts = [c for c in f["cast"] if c["to_dtype"] == "torch.bfloat16"]
assert len(casts) == 2 and all(c["contract"] == "below" for c in casts), casts
assert d["verdict"] == "reject" and any(x["rule"] == "precision-downgrade" for x in d["findings"])
assert "output" in f and "launch" in f
'; then
  echo "FAIL facts: exit $rc"; echo "$out" | head -c 800; echo; fail=1
else
  echo "ok facts: harness, contract and cast relations printed"
fi
out="$("$kgate" facts "$dir" 2>&1)"; rc=$?
if [ "$rc" -ne 2 ]; then echo "FAIL facts_directory: exit $rc, expected 2"; fail=1; else echo "ok facts_directory: exit 2"; fi

exit "$fail"
