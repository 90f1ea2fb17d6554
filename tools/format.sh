#!/usr/bin/env bash
# clang-format 19 over the project's own C++ (analyzers/, runtime/, tools/, tests/), with .clang-format.
# The corpus, the rule fixtures and the CUDA shim headers are not formatted: their lines are annotated
# or mimic other projects' headers. Usage: tools/format.sh [--check]   (--check: list the files that
# differ and exit 1, change nothing; the ctest lint.format runs it)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
formatter="${CLANG_FORMAT:-clang-format-19}"
command -v "$formatter" >/dev/null || { echo "format: $formatter not found (tools/setup.sh installs clang-format-19)" >&2; exit 2; }
mapfile -t files < <(git ls-files 'analyzers/*.cpp' 'analyzers/*.h' 'runtime/*.cpp' 'runtime/*.h' 'tools/*.cpp' 'tools/*.h' \
                                  'tests/*.cpp' 'tests/*.h' | grep -v '^analyzers/cuda/shims/')
if [ "${1:-}" = "--check" ]; then
  bad=0
  for f in "${files[@]}"; do
    if ! "$formatter" --dry-run -Werror "$f" >/dev/null 2>&1; then echo "format: $f is not formatted"; bad=1; fi
  done
  [ $bad -eq 0 ] && echo "format: ${#files[@]} files formatted"
  [ $bad -eq 0 ] || echo "format: run tools/format.sh to fix them"
  exit $bad
fi
"$formatter" -i "${files[@]}"
echo "format: ${#files[@]} files"
