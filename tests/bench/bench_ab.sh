#!/usr/bin/env bash
# Two kgate builds on the same files, interleaved: median CPU time (user+sys) and wall time per run.
# CPU time is what to compare on a shared machine, where wall time mostly measures the other load.
# Configurations: --cpp-engine none on the corpus once and ten times over, --cpp-engine auto once.
# Usage: tests/bench/bench_ab.sh BASE_BUILD_DIR NEW_BUILD_DIR [CORPUS_DIR]   env: K (default 7)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
base="$1/tools/kgate"
new="$2/tools/kgate"
corpus="${3:-corpus}"
runs="${K:-7}"
for b in "$base" "$new"; do [ -x "$b" ] || { echo "bench_ab: no $b" >&2; exit 2; }; done
mapfile -t files < <(find "$corpus" -name '*.py' | sort)
repeated=()
for ((r = 0; r < 10; r++)); do repeated+=("${files[@]}"); done
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
for ((k = 0; k < runs; k++)); do
  for which in base new; do
    bin="$base"; [ "$which" = new ] && bin="$new"
    for cfg in none.1 none.10 auto.1; do
      engine="${cfg%.*}"
      if [ "${cfg#*.}" = 1 ]; then args=("${files[@]}"); else args=("${repeated[@]}"); fi
      /usr/bin/time -f "$which $cfg %e %U %S" -a -o "$log" "$bin" check -j2 --cpp-engine "$engine" "${args[@]}" >/dev/null 2>&1 || true
    done
  done
done
echo "files: ${#files[@]}   runs: $runs each, interleaved   load: $(cut -d' ' -f1-3 /proc/loadavg)"
grep -E '^(base|new) ' "$log" | python3 -c '
import collections, statistics, sys
n = int(sys.argv[1])
d = collections.defaultdict(list)
for line in sys.stdin:
    which, cfg, e, u, s = line.split()
    d[(cfg, which)].append((float(e), float(u) + float(s)))
print("configuration  build  CPU ms  files/CPU-s  wall ms")
for (cfg, which) in sorted(d):
    files = n * (10 if cfg.endswith(".10") else 1)
    cpu = statistics.median(c for _, c in d[(cfg, which)])
    wall = statistics.median(w for w, _ in d[(cfg, which)])
    print(f"{cfg:<13}{which:>6}{cpu * 1000:>8.0f}{files / cpu:>13.0f}{wall * 1000:>9.0f}")
' "${#files[@]}"
