#!/usr/bin/env bash
# Fuzz smoke run (issue 8: "CI runs each target for a short fixed count"), called by tools/test.sh.
# Builds the libFuzzer targets of tests/fuzz (clang 19, ASan + UBSan; docs/notes/fuzz.md) in their own
# build dir, then runs each from its seeds for a fixed number of inputs with a fixed seed, so a run is
# repeatable. Any crash, leak, sanitizer report or per-input timeout fails it (libFuzzer's exit code),
# and the input is left in the artifact dir it prints. tools/setup.sh installs clang-19 and
# libclang-rt-19-dev (libFuzzer's runtime). Env: KGATE_FUZZ_BUILD_DIR (default build-fuzz),
# KGATE_FUZZ_RUNS_SCALE (default 1: multiplies every target's count).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build="${KGATE_FUZZ_BUILD_DIR:-build-fuzz}"
scale="${KGATE_FUZZ_RUNS_SCALE:-1}"

launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
CC=clang-19 CXX=clang++-19 cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" \
  -DKGATE_BUILD_FUZZ=ON -DKGATE_BUILD_TESTS=OFF -DKGATE_BUILD_BENCH=OFF -DKGATE_WITH_RUNTIME=OFF \
  -DKGATE_WITH_CLANG=ON >/dev/null

# Inputs per target: about 10-50 s each on a 2-core machine (the Clang target and the Python
# extractor run ~60-130 inputs/s, the rule loader ~1,200/s), after the seed pass every run starts with.
declare -A runs=([pipeline]=3000 [embedded_sources]=3000 [rule_loader]=20000 [suppressions]=100000 [clang_embedded]=1500)
mapfile -t targets < <(printf '%s\n' "${!runs[@]}" | sort)
cmake --build "$build" -j "$(nproc)" --target "${targets[@]/#/fuzz_}"

status=0
for t in "${targets[@]}"; do
  work="$(mktemp -d)"
  mkdir -p "$work/corpus"
  count=$((runs[$t] * scale))
  start=$(date +%s)
  if "$build/tests/fuzz/fuzz_$t" -runs="$count" -seed=1 -rss_limit_mb=4096 -timeout=30 -print_final_stats=1 \
       -artifact_prefix="$work/" "$work/corpus" "$build/fuzz-seeds/$t" >"$work/log" 2>&1; then
    echo "fuzz-smoke: fuzz_$t: $count inputs, no crash ($(($(date +%s) - start)) s; $(grep -o 'cov: [0-9]*' "$work/log" | tail -1))"
    rm -rf "$work"
  else
    echo "fuzz-smoke: fuzz_$t FAILED; the log and the input are in $work" >&2
    tail -40 "$work/log" >&2
    status=1
  fi
done
exit $status
