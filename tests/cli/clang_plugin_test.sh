#!/usr/bin/env bash
# kgate loads the Clang engine from kgate_clang_plugin on first use (tools/kgate/clang_loader.cpp).
# 1. An embedded CUDA source is analysed by Clang through the plugin: no engine-fallback, and the
#    C++-side cheat (a cuBLAS call behind `using namespace` and a macro) is found.
# 2. With KGATE_CLANG_PLUGIN pointing at nothing, the same file falls back to tree-sitter-cuda with an
#    engine-fallback warning that names the plugin and why it did not load; with --fail-on warning
#    that warning alone makes the exit code 1 (never 2: a missing plugin is not a usage error).
# 3. A file without C++ never loads the plugin: a missing plugin changes nothing for it.
# 4. In a fresh temporary directory the Clang engine builds the shim prelude's precompiled header
#    (shims-*.pch under $TMPDIR/kgate-<uid>/) without a prelude warning: a prelude that does not compile
#    (a C library macro in a shim declaration did, from 890f3ea on) makes every file about ten times
#    slower, silently before this case.
# Usage: clang_plugin_test.sh KGATE CORPUS_DIR
set -u
kgate="$1"; corpus="$2"
fail=0
cheat="$corpus/cpp/cheats/F6/F6_evasive_using_namespace_macro.py"
triton="$(grep -rL "load_inline\|cpp_extension" "$corpus/honest" --include=*.py | head -1)"
[ -f "$cheat" ] && [ -n "$triton" ] || { echo "FAIL: corpus files not found"; exit 1; }

out="$("$kgate" check "$cheat" 2>&1)"; rc=$?
if [ $rc -ne 1 ] || grep -q "engine-fallback" <<<"$out" || ! grep -q "\[cpp-library-call\]" <<<"$out"; then
  echo "FAIL: plugin run on $cheat (exit $rc):"; echo "$out"; fail=1
fi
out="$(KGATE_CLANG_PLUGIN=/nonexistent/kgate_clang_plugin.so "$kgate" check --fail-on warning "$cheat" 2>&1)"; rc=$?
if [ $rc -ne 1 ] || ! grep -q "the Clang engine could not be loaded (/nonexistent/kgate_clang_plugin.so)" <<<"$out" ||
   ! grep -q "\[engine-fallback\]" <<<"$out"; then
  echo "FAIL: missing plugin on $cheat (exit $rc):"; echo "$out"; fail=1
fi
a="$("$kgate" check "$triton" 2>&1)"; ra=$?
b="$(KGATE_CLANG_PLUGIN=/nonexistent/kgate_clang_plugin.so "$kgate" check "$triton" 2>&1)"; rb=$?
if [ "$a" != "$b" ] || [ $ra -ne $rb ]; then
  echo "FAIL: a file without C++ depends on the plugin ($triton)"; diff <(echo "$a") <(echo "$b"); fail=1
fi
fresh="$(mktemp -d)"
out="$(TMPDIR="$fresh" "$kgate" check "$cheat" 2>&1)"
pch="$(find "$fresh" -name 'shims-*.pch' 2>/dev/null | head -1)"
if grep -q "shim prelude" <<<"$out" || [ -z "$pch" ]; then
  echo "FAIL: no precompiled shim prelude in $fresh (found: '${pch}'):"; echo "$out"; fail=1
fi
rm -rf "$fresh"
[ $fail -eq 0 ] && echo "clang_plugin_test: 4 cases passed"
exit $fail
