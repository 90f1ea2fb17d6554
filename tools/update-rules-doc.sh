#!/usr/bin/env bash
# Regenerates the generated doc sections in place: docs/rules.md's rule tables (between
# `<!-- rules:begin -->` and `<!-- rules:end -->`, from `kgate rules --format markdown`) and
# docs/rule-format.md's fact reference (`<!-- facts:begin -->`...`<!-- facts:end -->`, from
# `kgate facts --reference`). tests/cli/generated_doc_test.sh fails when they drift apart.
# Env: KGATE_BUILD_DIR (default build), the build directory holding tools/kgate.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${KGATE_BUILD_DIR:-build}"
[[ "$build" = /* ]] || build="$root/$build"

kgate=""
for candidate in "$build/tools/kgate" "$build/kgate"; do
  if [[ -x "$candidate" ]]; then kgate="$candidate"; break; fi
done
if [[ -z "$kgate" ]]; then
  echo "update-rules-doc: no kgate binary under $build (build it first, or set KGATE_BUILD_DIR)" >&2
  exit 2
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# regenerate DOC NAME COMMAND...: replaces the lines between DOC's NAME markers with COMMAND's output.
regenerate() {
  local doc="$1" name="$2"
  shift 2
  local begin="<!-- $name:begin -->" end="<!-- $name:end -->"
  if [[ "$(grep -cxF -- "$begin" "$doc")" != 1 || "$(grep -cxF -- "$end" "$doc")" != 1 ]]; then
    echo "update-rules-doc: $doc must hold exactly one '$begin' line and one '$end' line" >&2
    exit 2
  fi
  "$@" > "$tmp/section.md"
  awk -v begin="$begin" -v end="$end" -v section="$tmp/section.md" '
    $0 == begin { print; while ((getline line < section) > 0) print line; skipping = 1; next }
    $0 == end { if (!skipping) exit 3; skipping = 0 }
    !skipping { print }
  ' "$doc" > "$tmp/doc.md" || { echo "update-rules-doc: '$end' comes before '$begin' in $doc" >&2; exit 2; }
  cat "$tmp/doc.md" > "$doc"  # in place: keeps the file's mode
  echo "update-rules-doc: ${doc#"$root"/} regenerated ($(grep -c '^| `' "$tmp/section.md") table rows)"
}

regenerate "$root/docs/rules.md" rules "$kgate" rules --format markdown --rules-dir "$root/rules"
regenerate "$root/docs/rule-format.md" facts "$kgate" facts --reference
