#!/usr/bin/env bash
# Installs the Debian 12 packages ms builds and tests with (when missing), then
# configures and builds ms in ./build. Safe to run again: it only installs
# what is missing and rebuilds what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  g++ cmake ninja-build ccache libgtest-dev libbenchmark-dev libomp-22-dev
  zlib1g-dev python3-numpy python3-pybind11 pybind11-dev python3-pytest
  # MindSpore's protobuf schemas (.ckpt), compiled at build time; protobuf's
  # own Python implementation is the tests' independent reader and writer.
  libprotobuf-dev protobuf-compiler python3-protobuf
  # save_graphs pictures (dot -Tsvg); without it only the .dot is written.
  graphviz
  # Fashion-MNIST (gzipped IDX), for the LeNet-5 example and its tests.
  dataset-fashion-mnist
  # The sanitizer and fuzzing build (CMakePresets.json `asan`, libFuzzer).
  clang-22 libclang-rt-22-dev
  # Data-parallel training over MPI (docs/distributed.md; optional: ms
  # builds without it) and the multi-rank tests' mpirun.
  libopenmpi-dev openmpi-bin
  # Independent references for parity tests and peers for benchmarks; the
  # product itself never needs them.
  python3-torch libopenblas0-pthread
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
fi

BUILD_TYPE=${MS_BUILD_TYPE:-Release}
if [ ! -f build/build.ninja ]; then
  cmake -G Ninja -S . -B build -DCMAKE_BUILD_TYPE="$BUILD_TYPE"
fi
ninja -C build
