#!/usr/bin/env bash
# The test command (also what CI runs, through .ci/run): installs and builds KernelGate
# (tools/setup.sh), then runs every ctest suite except those labelled gpu (no GPU on CI).
# Env: KGATE_BUILD_DIR (default build).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

tools/setup.sh
ctest --test-dir "${KGATE_BUILD_DIR:-build}" --output-on-failure -j2 -LE gpu
# The libFuzzer targets, each for a short fixed count (tools/fuzz-smoke.sh; clang 19 with ASan/UBSan).
tools/fuzz-smoke.sh
