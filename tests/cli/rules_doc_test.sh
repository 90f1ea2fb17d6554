#!/usr/bin/env bash
# docs/rules.md's generated section (between `<!-- rules:begin -->` and `<!-- rules:end -->`) must be exactly
# `kgate rules --format markdown` over the shipped rules, so the document cannot drift from rules/.
# Usage: rules_doc_test.sh KGATE RULES_MD RULES_DIR. Exit 0 when equal, 1 with a diff when not.
set -uo pipefail
kgate="$1"
readme="$2"
rules_dir="$3"
begin='<!-- rules:begin -->'
end='<!-- rules:end -->'

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if ! "$kgate" rules --format markdown --rules-dir "$rules_dir" > "$tmp/generated.md"; then
  echo "kgate rules --format markdown failed (are the rule files valid? see kgate rules --validate)"
  exit 1
fi
if [[ "$(grep -cxF -- "$begin" "$readme")" != 1 || "$(grep -cxF -- "$end" "$readme")" != 1 ]]; then
  echo "$readme must hold exactly one '$begin' line and one '$end' line"
  exit 1
fi
awk -v begin="$begin" -v end="$end" '$0 == end { inside = 0 } inside { print } $0 == begin { inside = 1 }' "$readme" > "$tmp/readme.md"
if ! diff -u --label "docs/rules.md (generated section)" --label "kgate rules --format markdown" "$tmp/readme.md" "$tmp/generated.md"; then
  echo "docs/rules.md differs from the rule files: run tools/update-rules-doc.sh"
  exit 1
fi
echo "ok: docs/rules.md matches kgate rules --format markdown ($rules_dir)"
