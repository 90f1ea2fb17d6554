#!/usr/bin/env bash
# End-to-end throughput of `kgate check` against a baseline tool on the same files, in the same run.
# Runs `kgate check -j2 --format json CORPUS/` K times and lizard (pinned in tools/requirements.txt)
# K times on exactly the files kgate analysed, interleaved so that machine noise hits both alike.
# Each run is one process start to exit, timed with `date +%s%N`. lizard is timed with one worker
# (-t 1) and with two (-t 2); the faster of the two is the baseline, the generous choice for lizard.
# kgate is timed three times per round, once per C++ engine: `none` (Python facts only: the issue's
# "Clang pass off" figure), `tree-sitter` (tree-sitter-cuda on embedded C++) and `auto` (Clang).
# REPEAT=N hands both tools the file list N times in one process, which shows the steady-state rate
# once process start and rule loading are paid.
# Usage: tests/bench/bench_check.sh [CORPUS_DIR]   env: K (default 20), REPEAT (default 1), KGATE_BUILD_DIR (default build)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"

corpus="${1:-corpus}"
runs="${K:-20}"
repeat="${REPEAT:-1}"
build="${KGATE_BUILD_DIR:-build}"
goal=2000  # files/s on 2 cores

kgate="$build/tools/kgate"
[ -x "$kgate" ] || kgate="$build/kgate"
lizard=.venv/bin/lizard
[ -x "$kgate" ] || { echo "bench_check: no kgate under $build/ (run tools/setup.sh)" >&2; exit 2; }
[ -x "$lizard" ] || { echo "bench_check: no $lizard (run tools/setup.sh)" >&2; exit 2; }
lizard_version="$("$lizard" --version 2>&1 | tr -d '\n')"
kgate_version="$("$kgate" --version 2>&1 | head -1)"

# The file list comes from kgate's own report, so both tools read the same files.
report="$(mktemp)"
trap 'rm -f "$report"' EXIT
set +e
"$kgate" check -j2 --format json "$corpus/" >"$report"
rc=$?
set -e
[ "$rc" -le 1 ] || { echo "bench_check: kgate check failed with exit code $rc" >&2; exit 2; }
mapfile -t all_files < <(python3 -c 'import json,sys; [print(f["path"]) for f in json.load(open(sys.argv[1]))["files"]]' "$report")
files=()
for f in "${all_files[@]}"; do
  case "$f" in *.py) files+=("$f") ;; esac
done
[ "${#files[@]}" -gt 0 ] || { echo "bench_check: kgate found no .py files under $corpus/" >&2; exit 2; }
once=("${files[@]}")
for ((r = 1; r < repeat; r++)); do files+=("${once[@]}"); done
nfiles=${#files[@]}
# lizard reads only the .py submissions (it does not know .cu); when the corpus holds other files,
# kgate is given the same .py list instead of the directory, so both tools read exactly the same files.
[ "${#once[@]}" -eq "${#all_files[@]}" ] ||
  echo "note: $corpus/ also holds $((${#all_files[@]} - ${#once[@]})) non-.py file(s); both tools get its ${#once[@]} .py files (x$repeat)"
kgate_cmd=("$kgate" check -j2)  # the default text report, as a user runs it
echo "kgate:  $kgate_version"
echo "kgate:  $kgate check -j2 --cpp-engine none|tree-sitter|auto <the $nfiles .py files>"
echo "lizard: $lizard -t 1|2 -i -1 <the $nfiles .py files>"

# Nanoseconds one command takes, start to exit; its output is discarded. Exit codes 0 and 1 are normal
# (kgate: findings; lizard: warnings), anything else aborts the benchmark.
time_ns() {
  local start end status=0
  start=$(date +%s%N)
  "$@" >/dev/null 2>&1 || status=$?
  end=$(date +%s%N)
  if [ "$status" -gt 1 ]; then
    echo "bench_check: '$*' exited with $status" >&2
    exit 2
  fi
  echo $((end - start))
}

kgate_ns=(); kgate_ts_ns=(); kgate_clang_ns=(); lizard1_ns=(); lizard2_ns=()
for ((i = 0; i < runs; i++)); do
  kgate_ns+=("$(time_ns "${kgate_cmd[@]}" --cpp-engine none "${files[@]}")")
  kgate_ts_ns+=("$(time_ns "${kgate_cmd[@]}" --cpp-engine tree-sitter "${files[@]}")")
  kgate_clang_ns+=("$(time_ns "${kgate_cmd[@]}" --cpp-engine auto "${files[@]}")")
  lizard1_ns+=("$(time_ns "$lizard" -t 1 -i -1 "${files[@]}")")
  lizard2_ns+=("$(time_ns "$lizard" -t 2 -i -1 "${files[@]}")")
done

python3 - "$nfiles" "$runs" "$goal" "$lizard_version" "$(nproc)" \
  "${kgate_ns[*]}" "${lizard1_ns[*]}" "${lizard2_ns[*]}" "${kgate_ts_ns[*]}" "${kgate_clang_ns[*]}" <<'PY'
import statistics
import sys

nfiles, runs, goal = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
lizard_version, cores = sys.argv[4], sys.argv[5]
series = {name: [int(x) for x in arg.split()] for name, arg in
          zip(("kgate", "lizard -t 1", "lizard -t 2", "kgate +ts-cuda", "kgate +clang"), sys.argv[6:11])}

def rate(ns):  # files per second over all runs (total files / total time)
    return nfiles * len(ns) / (sum(ns) / 1e9)

print(f"files: {nfiles}   runs: {runs} each, interleaved   cores: {cores}")
print(f"{'tool':<14}{'files/s':>10}{'median ms/run':>15}{'min ms':>9}{'max ms':>9}")
for name, ns in series.items():
    ms = [x / 1e6 for x in ns]
    print(f"{name:<14}{rate(ns):>10.0f}{statistics.median(ms):>15.1f}{min(ms):>9.1f}{max(ms):>9.1f}")
kgate_rate = rate(series["kgate"])
base_name = max(("lizard -t 1", "lizard -t 2"), key=lambda n: rate(series[n]))
base_rate = rate(series[base_name])
print()
print(f"kgate files/s:  {kgate_rate:.0f}   Python facts, no C++ pass (goal: >= {goal:.0f} files/s on 2 cores: {'met' if kgate_rate >= goal else 'NOT met'})")
clang_rate = rate(series["kgate +clang"])
print(f"kgate +clang files/s: {clang_rate:.0f}   (goal: >= 300 submissions/s on 2 cores: {'met' if clang_rate >= 300 else 'NOT met'})")
print(f"lizard files/s: {base_rate:.0f}   ({base_name})")
print(f"ratio kgate/lizard: {kgate_rate / base_rate:.2f}x")
print(f"baseline: lizard {lizard_version.split()[-1] if lizard_version else '?'} (same files, same run)")
PY
