#!/usr/bin/env bash
# Runs HERE (the dev machine): gathers what the GPU machine lacks for a build of this tree (it has no apt
# and no network) into one folder: the Debian -dev packages (and the runtime libraries they link) and
# the pinned tree-sitter sdists. tools/device/build.sh unpacks them there.
# Usage: tools/device/prep.sh OUT_DIR     (OUT_DIR/debs/*.deb, OUT_DIR/sdists/*.tar.gz)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:?usage: prep.sh OUT_DIR}"
mkdir -p "$out/debs" "$out/sdists"
packages=(
  libyaml-cpp-dev libyaml-cpp0.7 nlohmann-json3-dev libcli11-dev libvalijson-dev
  libseccomp-dev libseccomp2 libmuparser-dev libmuparser2v5 libgtest-dev libgmock-dev
  libssl-dev libssl3 zlib1g-dev zlib1g pybind11-dev pybind11-json-dev
)
(cd "$out/debs" && apt-get download "${packages[@]}" >/dev/null)
cp "$root"/.deps/downloads/*.tar.gz "$out/sdists/"
du -sh "$out"
