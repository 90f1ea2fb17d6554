# Shared by the pre-commit tests (sourced): a private git identity and pre-commit cache, a snapshot of
# this checkout as the hook repository, a user repository that uses one of its hooks, and commit_file.
# Needs: src (this checkout), pre_commit (the framework's executable), tmp (a private folder).

passed=0
failed=0
ok() { echo "ok: $1"; passed=$((passed + 1)); }
fail() { echo "FAIL: $1"; failed=$((failed + 1)); }

export PRE_COMMIT_HOME="$tmp/pre-commit-home"  # pre-commit's clone cache: private to the test
export GIT_AUTHOR_NAME=kgate-test GIT_AUTHOR_EMAIL=kgate-test@example.invalid
export GIT_COMMITTER_NAME=kgate-test GIT_COMMITTER_EMAIL=kgate-test@example.invalid
export GIT_CONFIG_NOSYSTEM=1 HOME="$tmp/home"
mkdir -p "$HOME"
git config --global init.defaultBranch main

# make_user_repo HOOK_ID: the hook repository (this checkout's files, tracked and untracked but not
# ignored, committed into a fresh repository, so uncommitted work is tested too; pinned by commit as a
# user pins `rev:`) and the user's repository at $work with that hook installed.
make_user_repo() {
  local hook_id="$1" hook="$tmp/hook-repo" rev
  mkdir -p "$hook"
  git -C "$src" ls-files -z --cached --others --exclude-standard |
    (cd "$src" && xargs -0 -I{} sh -c '[ -f "$1" ] && printf "%s\0" "$1"' _ {}) |
    tar -C "$src" --null -T - -cf - | tar -C "$hook" -xf -
  [ -f "$hook/.pre-commit-hooks.yaml" ] || { echo "FAIL: $src has no .pre-commit-hooks.yaml"; exit 1; }
  git -C "$hook" init -q && git -C "$hook" add -A && git -C "$hook" commit -q -m "hook snapshot"
  rev="$(git -C "$hook" rev-parse HEAD)"
  work="$tmp/work"
  git init -q "$work"
  cat >"$work/.pre-commit-config.yaml" <<YAML
repos:
  - repo: $hook
    rev: $rev
    hooks:
      - id: $hook_id
YAML
  git -C "$work" add .pre-commit-config.yaml && git -C "$work" commit -q -m "pre-commit config"
  (cd "$work" && "$pre_commit" install >/dev/null) || { echo "FAIL: pre-commit install"; exit 1; }
}

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

# The four files every hook must judge alike: two cheats blocked, two honest files committed.
commit_corpus_files() {
  commit_file corpus/cpp/cheats/T6/T6_plain_dlsym_mprotect.cu kernels/timer_patch.cu blocked
  commit_file corpus/cheats/F1/F1_plain_matmul_wrapper.py submissions/matmul.py blocked
  commit_file corpus/honest/matmul_tiled_cuda.py submissions/matmul_tiled.py passes
  commit_file corpus/cpp/honest/layernorm_rowwise.cu kernels/layernorm_rowwise.cu passes
}
