#!/usr/bin/env bash
# clang-tidy 19 with the repository's .clang-tidy over the project's C++ translation units (analyzers/,
# runtime/, tools/, tests/) that changed recently: those whose file, or a header of the same folder,
# changed between BASE and HEAD. BASE: $KGATE_LINT_BASE, else HEAD~6 (about one session's landing: CI
# runs on a clean clone of main), else (a history that short) every unit. The compiler's own warnings
# are off here (-w): GCC builds the project with -Werror, and clang's differ (C99 compound literals in
# seccomp's macros, libstdc++'s deprecated get_temporary_buffer). Needs
# BUILD_DIR/compile_commands.json (tools/setup.sh configures with it). Any warning fails (exit 1).
# Usage: tools/lint.sh [BUILD_DIR]   (--all: every unit, whatever changed)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
all=0
[ "${1:-}" = "--all" ] && { all=1; shift; }
build="${1:-${KGATE_BUILD_DIR:-build}}"
tidy="${CLANG_TIDY:-clang-tidy-19}"
command -v "$tidy" >/dev/null || { echo "lint: $tidy not found (tools/setup.sh installs clang-tidy-19)" >&2; exit 2; }
[ -f "$build/compile_commands.json" ] || { echo "lint: $build/compile_commands.json not found (configure first)" >&2; exit 2; }

base="${KGATE_LINT_BASE:-$(git rev-parse --verify -q HEAD~6 || true)}"
mapfile -t units < <(python3 - "$build/compile_commands.json" "$root" <<'PY'
import json, os, sys
root = sys.argv[2]
seen = set()
for entry in json.load(open(sys.argv[1])):
    path = os.path.relpath(os.path.realpath(os.path.join(entry.get("directory", ""), entry["file"])), root)
    if path.split(os.sep)[0] in ("analyzers", "runtime", "tools", "tests") and path.endswith(".cpp") \
            and not path.startswith(("analyzers/cuda/shims",)) and path not in seen:
        seen.add(path)
        print(path)
PY
)
if [ $all -eq 0 ] && [ -n "$base" ]; then
  mapfile -t changed < <(git diff --name-only "$base" HEAD -- analyzers runtime tools tests | grep -E '\.(cpp|h)$' || true)
  selected=()
  for unit in "${units[@]}"; do
    for c in "${changed[@]}"; do
      if [ "$c" = "$unit" ] || { [ "${c%.h}" != "$c" ] && [ "$(dirname "$c")" = "$(dirname "$unit")" ]; }; then
        selected+=("$unit"); break
      fi
    done
  done
  echo "lint: ${#selected[@]} of ${#units[@]} units changed since ${base:0:12}"
else
  selected=("${units[@]}")
  echo "lint: all ${#units[@]} units"
fi
[ ${#selected[@]} -eq 0 ] && { echo "lint: nothing to check"; exit 0; }
jobs="${KGATE_LINT_JOBS:-$(nproc)}"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
printf '%s\n' "${selected[@]}" | xargs -P "$jobs" -I{} sh -c "$tidy -p '$build' --quiet --extra-arg=-w '{}' >> '$log' 2>&1 || echo 'lint: {} failed' >> '$log'"
if grep -qE "(warning|error): .*\[[a-z]+-|lint: .* failed" "$log"; then
  grep -E "(warning|error): |lint: .* failed" "$log" | grep -v "^[0-9]* warnings* generated" | sort -u
  status=1
fi
[ $status -eq 0 ] && echo "lint: ${#selected[@]} units clean"
exit $status
