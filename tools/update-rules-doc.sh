#!/usr/bin/env bash
# Regenerates docs/rules.md's generated section, the lines between `<!-- rules:begin -->` and
# `<!-- rules:end -->`, from the rule files (`kgate rules --format markdown`), and docs/rule-format.md's
# fact reference (`<!-- facts:begin -->`...`<!-- facts:end -->`, `kgate facts --reference`), in place.
# tests/cli/rules_doc_test.sh and tests/cli/facts_doc_test.sh fail when they drift apart.
# Env: KGATE_BUILD_DIR (default build), the build directory holding tools/kgate.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${KGATE_BUILD_DIR:-build}"
[[ "$build" = /* ]] || build="$root/$build"
readme="$root/docs/rules.md"
begin='<!-- rules:begin -->'
end='<!-- rules:end -->'

kgate=""
for candidate in "$build/tools/kgate" "$build/kgate"; do
  if [[ -x "$candidate" ]]; then kgate="$candidate"; break; fi
done
if [[ -z "$kgate" ]]; then
  echo "update-rules-doc: no kgate binary under $build (build it first, or set KGATE_BUILD_DIR)" >&2
  exit 2
fi
if [[ "$(grep -cxF -- "$begin" "$readme")" != 1 || "$(grep -cxF -- "$end" "$readme")" != 1 ]]; then
  echo "update-rules-doc: $readme must hold exactly one '$begin' line and one '$end' line" >&2
  exit 2
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$kgate" rules --format markdown --rules-dir "$root/rules" > "$tmp/section.md"
awk -v begin="$begin" -v end="$end" -v section="$tmp/section.md" '
  $0 == begin { print; while ((getline line < section) > 0) print line; skipping = 1; next }
  $0 == end { if (!skipping) exit 3; skipping = 0 }
  !skipping { print }
' "$readme" > "$tmp/rules.md" || { echo "update-rules-doc: '$end' comes before '$begin' in $readme" >&2; exit 2; }
cat "$tmp/rules.md" > "$readme"  # in place: keeps the file's mode
echo "update-rules-doc: docs/rules.md regenerated ($(grep -c '^| `' "$tmp/section.md") table rows)"

facts_doc="$root/docs/rule-format.md"
"$kgate" facts --reference > "$tmp/facts.md"
awk -v begin='<!-- facts:begin -->' -v end='<!-- facts:end -->' -v section="$tmp/facts.md" '
  $0 == begin { print; while ((getline line < section) > 0) print line; skipping = 1; next }
  $0 == end { skipping = 0 }
  !skipping { print }
' "$facts_doc" > "$tmp/rule-format.md"
cat "$tmp/rule-format.md" > "$facts_doc"
echo "update-rules-doc: docs/rule-format.md's fact reference regenerated ($(grep -c '^| `' "$tmp/facts.md") fact kinds)"
