#!/usr/bin/env bash
# Starts a new rule over existing facts: writes rules/AREA/ID.yaml (a working rule that matches calls
# of a placeholder function) and its fixture beside it, rules/AREA/ID.py (or ID.cu for C++ rules), with
# one `ruleid:` line and one `ok:` line, then regenerates docs/rules.md. The golden test checks every
# fixture, so from here the loop is: edit the YAML's `match:` (facts: `kgate facts FILE`, fields:
# docs/rule-format.md), put the pattern and a near miss in the fixture, run the golden test.
# Usage: tools/new-rule.sh [--rules-dir DIR] [--no-doc] ID AREA [python|cpp]
#   ID: lowercase words joined by dashes; AREA: a folder of the rules directory (cpp, timing, scope, ...);
#   the language defaults to cpp in the cpp folder and python elsewhere.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rules="$root/rules"
doc=1
while [[ "${1:-}" == --* ]]; do
  case "$1" in
    --rules-dir) rules="${2:?--rules-dir needs a directory}"; doc=0; shift 2 ;;
    --no-doc) doc=0; shift ;;
    *) echo "new-rule: unknown option $1" >&2; exit 2 ;;
  esac
done
id="${1:-}"; area="${2:-}"
if [[ -z "$id" || -z "$area" ]]; then
  sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
lang="${3:-}"
[[ -n "$lang" ]] || { [[ "$area" == cpp ]] && lang=cpp || lang=python; }
[[ "$id" =~ ^[a-z][a-z0-9]*(-[a-z0-9]+)*$ ]] || { echo "new-rule: id '$id' must be lowercase words joined by dashes" >&2; exit 2; }
[[ "$lang" == python || "$lang" == cpp ]] || { echo "new-rule: language must be python or cpp, not '$lang'" >&2; exit 2; }
case "$area" in harnesses|policies) echo "new-rule: $area holds profiles, not rules" >&2; exit 2 ;; esac
[[ -d "$rules/$area" ]] || { echo "new-rule: no folder $rules/$area (areas: $(cd "$rules" && ls -d */ | tr -d / | tr '\n' ' '))" >&2; exit 2; }
if [[ -n "$(find "$rules" -name "$id.yaml" -print -quit)" ]]; then
  echo "new-rule: a rule $id exists already: $(find "$rules" -name "$id.yaml")" >&2
  exit 2
fi

yaml="$rules/$area/$id.yaml"
if [[ "$lang" == python ]]; then
  fixture="$rules/$area/$id.py"
  languages="[python]"
  placeholder="replace_me_library.replace_me"
  cat >"$fixture" <<PY
# Fixture for $id: the pattern the rule finds on a \`ruleid:\` line's next line, a near miss it must
# not find on an \`ok:\` line's next line. Replace both with real code.
import torch
import torch.nn as nn
import replace_me_library


class ModelNew(nn.Module):
    def forward(self, x):
        # ruleid: $id
        y = replace_me_library.replace_me(x)
        # ok: $id
        z = replace_me_library.keep_me(y)
        return z
PY
else
  fixture="$rules/$area/$id.cu"
  languages="[cuda, cpp]"
  placeholder="replace_me::replace_me"
  cat >"$fixture" <<CU
// Fixture for $id: the pattern the rule finds on a \`ruleid:\` line's next line, a near miss it must
// not find on an \`ok:\` line's next line. Replace both with real code.
#include <torch/extension.h>

namespace replace_me {
void replace_me(torch::Tensor x);
void keep_me(torch::Tensor x);
}  // namespace replace_me

torch::Tensor entry(torch::Tensor x) {
  // ruleid: $id
  replace_me::replace_me(x);
  // ok: $id
  replace_me::keep_me(x);
  return x;
}
CU
fi
cat >"$yaml" <<YAML
id: $id
severity: error
languages: $languages
# Technique ids of docs/threats.md (F1, T5, M14, ...); empty for input and meta rules.
techniques: []
summary: "TODO: what the rule finds, in one line"
message: "{function} calls {resolved}: TODO why this is a problem"
match:
  fact: call
  where:
    resolved: ["$placeholder"]
rationale: >
  TODO: why this is cheating or a fallback, and what an honest submission does instead.
YAML
echo "new-rule: wrote ${yaml#$root/} and ${fixture#$root/}"
if ((doc)); then
  "$root/tools/update-rules-doc.sh"
fi
echo "new-rule: next, edit match: in the YAML and the two annotated lines in the fixture, then run"
echo "  build/tests/golden/kgate_golden_tests    (checks every fixture), and tools/update-rules-doc.sh again"
