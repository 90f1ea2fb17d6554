#!/usr/bin/env bash
# Runs THERE (the GPU machine, from the repository root): unpacks what tools/device/prep.sh gathered,
# configures with the machine's torch Python and without Clang, builds kgate, kgate-worker and the kgate
# Python package, then runs
# the gpu suite and the CPU runtime suite. Usage: tools/device/build.sh PREP_DIR [BUILD_DIR]
# Env: KGATE_SUITES (default "gpu runtime"; "none" builds only), KGATE_CTEST_REGEX (ctest -R for the gpu
# suite), KGATE_GPU_JOBS (default 4: the judge holds a per-GPU lock while it runs cases and times, so
# parallel tests overlap only their start-up, compilation and imports), KGATE_REPORTS_DIR (default
# BUILD_DIR/reports: the gpu suite keeps every honest candidate's `kgate run` report there, for
# `kgate speedup`).
set -uo pipefail
prep="$(cd "${1:?usage: build.sh PREP_DIR [BUILD_DIR]}" && pwd)"
build="${2:-/tmp/kgate-build}"
sysroot=/tmp/sysroot
deps=/tmp/kgate-deps
mkdir -p "$sysroot" "$deps"
for deb in "$prep"/debs/*.deb; do dpkg-deb -x "$deb" "$sysroot"; done
# A -dev package's absolute link (zlib1g-dev: usr/lib/.../libz.so -> /lib/.../libz.so.1.2.13) points
# into this machine's root, where that version may be missing: point it at the unpacked library.
find "$sysroot" -type l | while read -r link; do
  target="$(readlink "$link")"
  if [[ "$target" == /* ]] && [ -e "$sysroot$target" ]; then ln -sfn "$sysroot$target" "$link"; fi
done
# The carried sdists are checked and unpacked by CMake's configure (cmake/Pins.cmake), never downloaded.
python="${KGATE_PYTHON:-$(command -v python3)}"
multiarch=x86_64-linux-gnu
export LD_LIBRARY_PATH="$sysroot/usr/lib/$multiarch${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKGATE_WITH_CLANG=OFF -DKGATE_WERROR=ON -DKGATE_LTO=OFF \
  -DKGATE_BUILD_BENCH=OFF -DKGATE_PYTHON="$python" -DKGATE_DEPS_DIR="$deps" -DKGATE_SDIST_DIR="$prep/sdists" -DKGATE_FETCH_PINS=OFF -DCMAKE_PREFIX_PATH="$sysroot/usr" \
  -DCMAKE_INCLUDE_PATH="$sysroot/usr/include" -DCMAKE_LIBRARY_PATH="$sysroot/usr/lib/$multiarch" \
  -DCMAKE_CXX_FLAGS="-isystem $sysroot/usr/include" > "$build.configure.log" 2>&1 \
  || { tail -40 "$build.configure.log"; exit 2; }
cmake --build "$build" --target kgate kgate-worker kgate_runtime_unit_tests -j "$(nproc)" > "$build.build.log" 2>&1 \
  || { grep -E "error|Error" "$build.build.log" | head -40; tail -20 "$build.build.log"; exit 2; }
# The kgate Python package (kgate.Verifier, tests/bench/bench_verifier.py), where this Python has headers.
if cmake --build "$build" --target kgate_python -j "$(nproc)" >> "$build.build.log" 2>&1; then
  echo "== python package: $build/python/kgate"
else
  echo "== python package not built (see $build.build.log)"
fi
echo "== build ok: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1), $("$python" -c 'import torch; print("torch", torch.__version__)')"
export KGATE_REPORTS_DIR="${KGATE_REPORTS_DIR:-$build/reports}"
status=0
suites="${KGATE_SUITES:-gpu runtime}"
regex=()
[ -n "${KGATE_CTEST_REGEX:-}" ] && regex=(-R "$KGATE_CTEST_REGEX")
if [[ " $suites " == *" gpu "* ]]; then
  echo "== ctest -L gpu ${regex[*]}"
  ctest --test-dir "$build" -L gpu "${regex[@]}" --output-on-failure -j "${KGATE_GPU_JOBS:-4}" || status=1
fi
if [[ " $suites " == *" runtime "* ]]; then
  echo "== ctest -L runtime"
  ctest --test-dir "$build" -L runtime -LE gpu --output-on-failure -j 8 || status=1
fi
exit $status
