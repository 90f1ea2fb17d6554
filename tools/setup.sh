#!/usr/bin/env bash
# Installs everything KernelGate needs on a fresh Debian 12 machine, then configures and builds it.
# Idempotent: a second run checks what is there and only builds. Usage: tools/setup.sh [--no-build]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

# --- Debian packages (pinned by the Debian 12 release and its updates) ---
apt_packages=(
  build-essential cmake ninja-build ccache pkg-config python3-venv
  clang-19 libclang-19-dev libclang-cpp19-dev llvm-19-dev clang-tidy-19 clang-format-19 libclang-rt-19-dev
  nlohmann-json3-dev libyaml-cpp-dev libcli11-dev libvalijson-dev
  libseccomp-dev pybind11-dev pybind11-json-dev libgtest-dev libgmock-dev libbenchmark-dev
  libssl-dev zlib1g-dev chromium libmuparser-dev libmimalloc-dev
)
missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# --- Python virtualenv for the tests that use PyPI tools (pinned in tools/requirements.txt) ---
python="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
if ! cmp -s tools/requirements.txt .venv/.requirements 2>/dev/null; then
  .venv/bin/python -m pip install -q --disable-pip-version-check -r tools/requirements.txt
  cp tools/requirements.txt .venv/.requirements
fi

# --- The build backend of `pip install .` (pinned in pyproject.toml), kept as wheels for the offline
# install test (tests/install) ---
backend="$(sed -n 's/^requires = \["\(scikit-build-core==[0-9.]*\)"\]$/\1/p' pyproject.toml)"
[ -n "$backend" ] || { echo "setup: no scikit-build-core pin in pyproject.toml" >&2; exit 1; }
if ! ls .deps/wheels/scikit_build_core-"${backend#*==}"-*.whl >/dev/null 2>&1; then
  .venv/bin/python -m pip download -q --disable-pip-version-check -d .deps/wheels "$backend"
fi

# The pinned tree-sitter sources (third_party/pins.txt) are downloaded, checked and unpacked by CMake's
# configure step below (cmake/Pins.cmake).

[ "${1:-}" = "--no-build" ] && exit 0

# --- Configure and build ---
build="${KGATE_BUILD_DIR:-build}"
# The Clang analyzer and the PTX witness (NVRTC) are ON here (a missing Clang or CUDA toolkit fails the
# build rather than dropping the component);
# CI builds also turn warnings into errors.
werror=OFF
[ "${CI:-}" = "true" ] && werror=ON
# ccache (when installed) makes rebuilds in other checkouts of the same tree cheap.
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(cd .. && pwd)}" CCACHE_NOHASHDIR=true
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" \
  -DKGATE_WITH_CLANG="${KGATE_WITH_CLANG:-ON}" -DKGATE_WITH_NVRTC="${KGATE_WITH_NVRTC:-ON}" -DKGATE_MIMALLOC=ON -DKGATE_WERROR="$werror" >/dev/null
cmake --build "$build" -j "$(nproc)"
