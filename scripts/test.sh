#!/usr/bin/env bash
# Builds ms and runs every test through ctest: the lit suite (ms-opt, ms-run,
# the mlir-opt plugin), GoogleTest and pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cd build
ctest --output-on-failure -j2
