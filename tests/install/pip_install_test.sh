#!/usr/bin/env bash
# `pip install` of KernelGate end to end, through the pre-commit hook that installs it (`id: kgate`,
# language: python): pre-commit makes a fresh virtualenv and pip-installs a snapshot of this checkout
# into it (scikit-build-core over the CMake build, pyproject.toml). The install is offline: the build
# backend comes from WHEELHOUSE, the pinned tree-sitter archives from SDIST_DIR. Then:
#   - committing two cheats is blocked and two honest files go through, with the hook's own kgate;
#   - from that virtualenv, `kgate check` and `import kgate; kgate.check(...)` judge a cheat and an
#     honest file, and both use the installed rules (<venv>/share/kgate/rules), not this checkout's.
# ccache (when installed) is given the same flags as BUILD_DIR's build, so the objects of a built
# checkout are reused. Where BUILD_DIR has the Clang engine, the installed kgate must load it too. Usage: pip_install_test.sh SOURCE_ROOT PRE_COMMIT WHEELHOUSE SDIST_DIR BUILD_DIR
set -uo pipefail
src="$(cd "$1" && pwd)"
pre_commit="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
wheelhouse="$(cd "$3" && pwd)" || { echo "FAIL: no wheelhouse at $3 (tools/setup.sh fills it)"; exit 1; }
sdists="$(cd "$4" && pwd)" || { echo "FAIL: no archives at $4"; exit 1; }
build="$(cd "$5" && pwd)"
[ -x "$pre_commit" ] || { echo "FAIL: no pre-commit at $pre_commit"; exit 1; }
ls "$wheelhouse"/scikit_build_core-*.whl >/dev/null 2>&1 || { echo "FAIL: no scikit-build-core wheel in $wheelhouse"; exit 1; }

# ccache's folder, read before lib.sh points HOME at a private folder.
command -v ccache >/dev/null && export CCACHE_DIR="${CCACHE_DIR:-$(ccache -k cache_dir)}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/../precommit/lib.sh"

# Offline pip, and the build options of BUILD_DIR (so that ccache can serve its objects).
export PIP_NO_INDEX=1 PIP_FIND_LINKS="$wheelhouse" PIP_DISABLE_PIP_VERSION_CHECK=1
cache_value() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
defines="KGATE_SDIST_DIR=$sdists;KGATE_FETCH_PINS=OFF;KGATE_WERROR=$(cache_value KGATE_WERROR);KGATE_LTO=$(cache_value KGATE_LTO)"
defines+=";KGATE_WITH_CLANG=$(cache_value KGATE_WITH_CLANG);KGATE_MIMALLOC=$(cache_value KGATE_MIMALLOC)"
defines+=";CMAKE_C_COMPILER=$(cache_value CMAKE_C_COMPILER);CMAKE_CXX_COMPILER=$(cache_value CMAKE_CXX_COMPILER)"
if command -v ccache >/dev/null; then
  defines+=";CMAKE_C_COMPILER_LAUNCHER=ccache;CMAKE_CXX_COMPILER_LAUNCHER=ccache"
  export CCACHE_BASEDIR="$tmp" CCACHE_NOHASHDIR=true
fi
export SKBUILD_CMAKE_DEFINE="$defines"

make_user_repo kgate
start=$SECONDS
out="$(cd "$work" && "$pre_commit" install-hooks 2>&1)"
rc=$?
if [ $rc -eq 0 ]; then
  ok "pre-commit installed the kgate hook (pip install of the checkout) in $((SECONDS - start)) s"
else
  fail "pre-commit install-hooks: rc=$rc"
  echo "$out" | tail -60 | sed 's/^/    /'
  cat "$PRE_COMMIT_HOME"/pre-commit.log 2>/dev/null | tail -60 | sed 's/^/    /'
  echo "$passed passed, $failed failed"
  exit 1
fi
commit_corpus_files

# The hook's virtualenv, made by pre-commit: the installed kgate, module and rules.
venv="$(ls -d "$PRE_COMMIT_HOME"/repo*/py_env-* 2>/dev/null | head -1)"
[ -x "$venv/bin/kgate" ] || { fail "no kgate in the hook's virtualenv ($venv)"; echo "$passed passed, $failed failed"; exit 1; }
cd "$tmp"  # away from the checkout
unset KGATE_RULES_DIR
cheat="$src/corpus/cheats/F1/F1_plain_matmul_wrapper.py"
honest="$src/corpus/honest/matmul_tiled_cuda.py"
"$venv/bin/kgate" check "$cheat" >/dev/null 2>&1
rc_cheat=$?
"$venv/bin/kgate" check "$honest" >/dev/null 2>&1
rc_honest=$?
if [ $rc_cheat -eq 1 ] && [ $rc_honest -eq 0 ]; then ok "installed kgate check: cheat exits 1, honest exits 0"
else fail "installed kgate check: cheat rc=$rc_cheat (want 1), honest rc=$rc_honest (want 0)"; fi
if [ -f "$build/tools/kgate_clang_plugin.so" ] || ls "$build"/analyzers/cuda/clang/kgate_clang_plugin.so >/dev/null 2>&1; then
  # The build has the Clang engine: the installed kgate must load its plugin and shims.
  out="$("$venv/bin/kgate" check "$honest" 2>&1)"
  if ! grep -q engine-fallback <<<"$out" && [ -d "$venv/share/kgate/shims" ]; then ok "installed kgate parses embedded CUDA with its Clang engine"
  else fail "installed kgate fell back from Clang:"; echo "$out" | sed 's/^/    /'; fi
fi
if [ -x "$build/tools/kgate-nvrtc" ]; then
  # The build has the PTX witness: the installed kgate and module must find the installed kgate-nvrtc (a
  # fresh cache directory, so that NVRTC really runs).
  cache="$(mktemp -d)"
  out="$(KGATE_CACHE_DIR="$cache" "$venv/bin/kgate" check "$honest" 2>&1)"
  mod="$(KGATE_CACHE_DIR="$cache/module" "$venv/bin/python" -c 'import sys, kgate
print([f.message for f in kgate.check(open(sys.argv[1]).read(), path="m.py").findings if f.rule == "ptx-witness-not-run"])' "$honest" 2>&1)"
  if [ -x "$venv/bin/kgate-nvrtc" ] && ! grep -q ptx-witness-not-run <<<"$out" && [ "$mod" = "[]" ]; then
    ok "installed kgate and module compile the kernels with the installed kgate-nvrtc"
  else fail "installed PTX witness:"; echo "$out" "$mod" | sed 's/^/    /'; fi
  rm -rf "$cache"
fi
rules_line="$("$venv/bin/kgate" check --dump-config "$honest" | head -1)"
if [ "$rules_line" = "# rules: $venv/share/kgate/rules" ]; then ok "installed kgate uses the installed rules"
else fail "installed kgate's rules: '$rules_line' (want $venv/share/kgate/rules)"; fi
if out="$("$venv/bin/python" - "$cheat" "$honest" "$venv" 2>&1 <<'PY'
import sys, kgate
cheat, honest, venv = sys.argv[1:]
gate = kgate.Gate()
assert gate.rules_dir == venv + "/share/kgate/rules", gate.rules_dir
assert kgate.__file__.startswith(venv), kgate.__file__
bad = kgate.check(open(cheat).read(), path="matmul.py")
good = kgate.check(open(honest).read(), path="matmul_tiled.py")
assert bad.verdict == "reject" and any(f.rule == "torch-function-in-forward" for f in bad.findings), bad.findings
assert good.verdict == "pass", good.findings
print("module", kgate.__version__, "rules", gate.rules_dir)
PY
)"; then ok "installed module: kgate.check rejects the cheat and passes the honest file ($out)"
else fail "installed module:"; echo "$out" | sed 's/^/    /'; fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
