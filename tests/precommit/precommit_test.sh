#!/usr/bin/env bash
# The prebuilt-kgate pre-commit hook end to end: a temporary git repository whose .pre-commit-config.yaml
# uses THIS repository's `kgate-system` hook (through a temporary git copy of this checkout, pinned by commit, as a
# user pins `rev:`), installed with the pre-commit framework from the venv. Committing a cheating .cu
# and a cheating KernelBench submission must be blocked with the finding printed; honest ones go through;
# without a kgate executable the commit is blocked with a message that says how to get one.
# Usage: precommit_test.sh KGATE PRE_COMMIT SOURCE_ROOT
set -uo pipefail
kgate="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
pre_commit="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
src="$(cd "$3" && pwd)"
[ -x "$kgate" ] || { echo "FAIL: no kgate at $kgate"; exit 1; }
[ -x "$pre_commit" ] || { echo "FAIL: no pre-commit at $pre_commit (tools/setup.sh installs it from tools/requirements.txt)"; exit 1; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

make_user_repo kgate-system
export KGATE="$kgate"
commit_corpus_files

# 3. No kgate anywhere: the commit is blocked and the message says how to get one.
unset KGATE
cp "$src/corpus/honest/transpose_triton.py" "$work/transpose.py"
git -C "$work" add transpose.py
out="$(cd "$work" && PATH=/usr/bin:/bin git commit -m "no kgate" 2>&1)"
rc=$?
if [ $rc -ne 0 ] && grep -q "no kgate executable found" <<<"$out"; then
  ok "without kgate the commit is blocked with a diagnostic"
else
  fail "without kgate (expected blocked with a diagnostic): rc=$rc"
  echo "$out" | sed 's/^/    /'
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
