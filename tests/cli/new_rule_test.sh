#!/usr/bin/env bash
# tools/new-rule.sh end to end, in a copy of the rules: for a Python and a C++ rule, the rules load,
# and `kgate check --only ID` on the written fixture finds exactly the line after `ruleid:` and not the
# line after `ok:`, as the golden test requires of every fixture. Bad ids, a taken id and an unknown
# area exit 2. Usage: new_rule_test.sh KGATE SOURCE_ROOT
set -uo pipefail
kgate="$1"; src="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
cp -r "$src/rules" "$tmp/rules"
failed=0
fail() { echo "FAIL: $1"; failed=1; }
for spec in "demo-python-rule timing py" "cpp-demo-rule cpp cu"; do
  read -r id area ext <<<"$spec"
  "$src/tools/new-rule.sh" --rules-dir "$tmp/rules" "$id" "$area" >/dev/null || { fail "new-rule.sh $id $area"; continue; }
  "$kgate" rules --rules-dir "$tmp/rules" >/dev/null || fail "the rules do not load after adding $id"
  fixture="$tmp/rules/$area/$id.$ext"
  want="$(( $(grep -n "ruleid: $id\$" "$fixture" | cut -d: -f1) + 1 ))"
  ok_line="$(( $(grep -n "ok: $id\$" "$fixture" | cut -d: -f1) + 1 ))"
  got="$("$kgate" check --rules-dir "$tmp/rules" --only "$id" --format json "$fixture" |
         python3 -c "import json,sys; d=json.load(sys.stdin); print(' '.join(str(f['line']) for f in d['files'][0]['findings'] if f['rule']=='$id'))")"
  if [ "$got" = "$want" ]; then echo "ok: $id finds line $want of its fixture and not line $ok_line"
  else fail "$id: findings on lines '$got', want '$want' only"; fi
done
expect_2() { "$src/tools/new-rule.sh" --rules-dir "$tmp/rules" "$@" >/dev/null 2>&1; [ $? -eq 2 ] && echo "ok: $* exits 2" || fail "$* should exit 2"; }
expect_2 Bad_Id timing
expect_2 demo-python-rule timing
expect_2 cuda-graph scope
expect_2 another-rule no-such-area
expect_2 another-rule policies
[ $failed -eq 0 ] && echo "new-rule: all passed"
exit $failed
