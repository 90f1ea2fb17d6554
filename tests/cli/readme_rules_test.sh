#!/usr/bin/env bash
# README.md's rules section (between `<!-- rules:begin -->` and `<!-- rules:end -->`) must be exactly
# `kgate rules --format markdown` over the shipped rules, so the README cannot drift from rules/.
# Usage: readme_rules_test.sh KGATE README RULES_DIR. Exit 0 when equal, 1 with a diff when not.
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
if ! diff -u --label "README.md (rules section)" --label "kgate rules --format markdown" "$tmp/readme.md" "$tmp/generated.md"; then
  echo "README.md's rules section differs from the rule files: run tools/update-readme-rules.sh"
  exit 1
fi
echo "ok: README.md's rules section matches kgate rules --format markdown ($rules_dir)"
