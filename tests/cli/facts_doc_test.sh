#!/usr/bin/env bash
# docs/rule-format.md's fact reference (between `<!-- facts:begin -->` and `<!-- facts:end -->`) must be
# exactly `kgate facts --reference`, so the document cannot drift from the field tables of core/facts.cpp.
# Usage: facts_doc_test.sh KGATE RULE_FORMAT_MD. Exit 0 when equal, 1 with a diff when not.
set -uo pipefail
kgate="$1"
doc="$2"
begin='<!-- facts:begin -->'
end='<!-- facts:end -->'
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$kgate" facts --reference > "$tmp/generated.md" || { echo "kgate facts --reference failed"; exit 1; }
if [[ "$(grep -cxF -- "$begin" "$doc")" != 1 || "$(grep -cxF -- "$end" "$doc")" != 1 ]]; then
  echo "$doc must hold exactly one '$begin' line and one '$end' line"
  exit 1
fi
awk -v begin="$begin" -v end="$end" '$0 == end { inside = 0 } inside { print } $0 == begin { inside = 1 }' "$doc" > "$tmp/doc.md"
if ! diff -u --label "docs/rule-format.md (fact reference)" --label "kgate facts --reference" "$tmp/doc.md" "$tmp/generated.md"; then
  echo "docs/rule-format.md differs from the field tables: run tools/update-rules-doc.sh"
  exit 1
fi
echo "ok: docs/rule-format.md's fact reference matches kgate facts --reference ($(grep -c '^| `' "$tmp/generated.md") kinds)"
