# Sourced by the CLI tests that judge one file's harness and error rules (output_positions_test.sh,
# solve_signature_test.sh). Needs $kgate; sets fail=1 on a mismatch.
# check NAME WANT_EXIT WANT_RULES ARGS...: `kgate check --format json ARGS` must exit WANT_EXIT, and the
# one file's "<harness>: <sorted error rules, or none>" must equal WANT_RULES. check_warned: the same
# with the warning rules.
check_warned() { severity=warning check "$@"; }
check() {
  local name="$1" want_exit="$2" want_rules="$3" severity="${severity:-error}"
  shift 3
  local out rc got
  out="$("$kgate" check --format json "$@" 2>&1)"
  rc=$?
  got="$(printf '%s' "$out" | python3 -c '
import json, sys
f = json.load(sys.stdin)["files"][0]
print(f["harness"] + ": " + (",".join(sorted({d["rule"] for d in f["findings"] if d["severity"] == sys.argv[1]})) or "none"))' "$severity" 2>&1)"
  if [ "$rc" -ne "$want_exit" ] || [ "$got" != "$want_rules" ]; then
    echo "FAIL $name: exit $rc (expected $want_exit), got '$got', expected '$want_rules'"
    printf '%s' "$out" | head -c 800; echo; fail=1; return
  fi
  echo "ok $name: $got"
}
