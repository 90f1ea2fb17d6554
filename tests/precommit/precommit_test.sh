#!/usr/bin/env bash
# The pre-commit hook end to end: a temporary git repository whose .pre-commit-config.yaml uses THIS
# repository's `kgate` hook (through a temporary git copy of this checkout, pinned by commit, as a
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
export PRE_COMMIT_HOME="$tmp/pre-commit-home"  # pre-commit's clone cache: private to this test
export GIT_AUTHOR_NAME=kgate-test GIT_AUTHOR_EMAIL=kgate-test@example.invalid
export GIT_COMMITTER_NAME=kgate-test GIT_COMMITTER_EMAIL=kgate-test@example.invalid
export GIT_CONFIG_NOSYSTEM=1 HOME="$tmp/home"
mkdir -p "$HOME"
git config --global init.defaultBranch main

passed=0
failed=0
ok() { echo "ok: $1"; passed=$((passed + 1)); }
fail() { echo "FAIL: $1"; failed=$((failed + 1)); }

# 1. The hook repository: this checkout's files (tracked, and untracked but not ignored) committed
#    into a fresh repository, so uncommitted work is tested too.
hook="$tmp/hook-repo"
mkdir -p "$hook"
git -C "$src" ls-files -z --cached --others --exclude-standard |
  (cd "$src" && xargs -0 -I{} sh -c '[ -f "$1" ] && printf "%s\0" "$1"' _ {}) |
  tar -C "$src" --null -T - -cf - | tar -C "$hook" -xf -
[ -f "$hook/.pre-commit-hooks.yaml" ] || { echo "FAIL: $src has no .pre-commit-hooks.yaml"; exit 1; }
git -C "$hook" init -q && git -C "$hook" add -A && git -C "$hook" commit -q -m "hook snapshot"
rev="$(git -C "$hook" rev-parse HEAD)"

# 2. The user's repository, with the hook installed as a git pre-commit hook.
work="$tmp/work"
git init -q "$work"
cat >"$work/.pre-commit-config.yaml" <<YAML
repos:
  - repo: $hook
    rev: $rev
    hooks:
      - id: kgate
YAML
git -C "$work" add .pre-commit-config.yaml && git -C "$work" commit -q -m "pre-commit config"
(cd "$work" && "$pre_commit" install >/dev/null) || { echo "FAIL: pre-commit install"; exit 1; }

# commit_file CORPUS_FILE DEST EXPECT(blocked|passes): stage one file and try to commit it.
commit_file() {
  local file="$1" dest="$2" expect="$3"
  mkdir -p "$work/$(dirname "$dest")"
  cp "$src/$file" "$work/$dest"
  git -C "$work" add "$dest"
  local before after out rc
  before="$(git -C "$work" rev-parse HEAD)"
  out="$(cd "$work" && git commit -m "add $dest" 2>&1)"
  rc=$?
  after="$(git -C "$work" rev-parse HEAD)"
  if [ "$expect" = blocked ]; then
    # The rule the corpus file is annotated with must be named in the hook's output.
    local rule
    rule="$(grep -m1 -oE '(#|//) ruleid: [a-z0-9-]+' "$src/$file" | sed -E 's/.*ruleid: //')"
    if [ $rc -ne 0 ] && [ "$before" = "$after" ] && grep -q "\[$rule\]" <<<"$out" && grep -q "$dest:" <<<"$out"; then
      ok "committing $dest is blocked with [$rule] printed"
    else
      fail "committing $dest (expected blocked, with [$rule]): rc=$rc"
      echo "$out" | sed 's/^/    /'
    fi
    git -C "$work" reset -q HEAD -- "$dest" && rm -f "$work/$dest"
  else
    if [ $rc -eq 0 ] && [ "$before" != "$after" ] && grep -q "kgate.*Passed" <<<"$out"; then
      ok "committing $dest goes through"
    else
      fail "committing $dest (expected to go through): rc=$rc"
      echo "$out" | sed 's/^/    /'
    fi
  fi
}

export KGATE="$kgate"
commit_file corpus/cpp/cheats/T6/T6_plain_dlsym_mprotect.cu kernels/timer_patch.cu blocked
commit_file corpus/cheats/F1/F1_plain_matmul_wrapper.py submissions/matmul.py blocked
commit_file corpus/honest/matmul_tiled_cuda.py submissions/matmul_tiled.py passes
commit_file corpus/cpp/honest/layernorm_rowwise.cu kernels/layernorm_rowwise.cu passes

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
