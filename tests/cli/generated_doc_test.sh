#!/usr/bin/env bash
# A generated section of a doc (the lines between a `<!-- NAME:begin -->` and a `<!-- NAME:end -->` line)
# must be exactly what its command prints, so the doc cannot drift from its source: docs/rules.md from
# the rule files (`kgate rules --format markdown`), docs/rule-format.md's fact reference from the field
# tables (`kgate facts --reference`). tools/update-rules-doc.sh regenerates both.
# Usage: generated_doc_test.sh DOC NAME COMMAND [ARGS...]. Exit 0 when equal, 1 with a diff when not.
set -uo pipefail
doc="$1"
name="$2"
shift 2
begin="<!-- $name:begin -->"
end="<!-- $name:end -->"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if ! "$@" > "$tmp/generated.md"; then
  echo "$* failed (are the rule files valid? see kgate rules --validate)"
  exit 1
fi
if [[ "$(grep -cxF -- "$begin" "$doc")" != 1 || "$(grep -cxF -- "$end" "$doc")" != 1 ]]; then
  echo "$doc must hold exactly one '$begin' line and one '$end' line"
  exit 1
fi
awk -v begin="$begin" -v end="$end" '$0 == end { inside = 0 } inside { print } $0 == begin { inside = 1 }' "$doc" > "$tmp/doc.md"
if ! diff -u --label "$doc (generated section $name)" --label "$*" "$tmp/doc.md" "$tmp/generated.md"; then
  echo "$doc differs from its source: run tools/update-rules-doc.sh"
  exit 1
fi
echo "ok: $doc's $name section matches $*"
