#!/usr/bin/env bash
# The prebuilt-kgate pre-commit hook (`id: kgate-system` in .pre-commit-hooks.yaml): runs `kgate check` on the staged files.
# pre-commit clones this repository at the `rev:` a user pins and runs this script from that clone
# (`language: script`). The hook does not build kgate (a C++20 build with tree-sitter and Clang takes
# minutes and needs the Debian packages of tools/setup.sh); it uses a kgate that is already built:
#   $KGATE if set, else `kgate` on PATH.
# The rules come from the clone, so `rev:` pins the rules as well as the hook; KGATE_RULES_DIR
# overrides that (for example, to use the rules installed beside the binary).
# Extra `args:` from .pre-commit-config.yaml go to `kgate check` (e.g. [--fail-on, warning]).
set -uo pipefail
hook_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

kgate="${KGATE:-}"
if [ -z "$kgate" ]; then
  kgate="$(command -v kgate || true)"
fi
if [ -z "$kgate" ] || [ ! -x "$kgate" ]; then
  cat >&2 <<'MSG'
kgate hook: no kgate executable found (set KGATE=/path/to/kgate or put kgate on PATH).
  Build it once from a KernelGate checkout: tools/setup.sh (then build/tools/kgate), and see
  docs/pre-commit.md.
MSG
  exit 2
fi

rules_dir="${KGATE_RULES_DIR:-$hook_root/rules}"
# pre-commit passes the hook's args: first, then the staged file names.
exec "$kgate" check --rules-dir "$rules_dir" "$@"
