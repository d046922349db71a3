#!/usr/bin/env bash
# The main demo: builds ms, then runs the seed MLP (flatten, dense 784->512,
# relu, dense 512->512, relu, dense 512->10 on a [64, 1, 28, 28] batch of
# ones, MindSpore's default initialization) in Graph mode and in PyNative mode.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "== Graph mode (jit, O0): the whole construct compiled once"
build/bin/ms-run examples/mlp.mlir --mode=graph --jit-level=O0 --exc-mode=sink --init-params=0 --print
echo "== PyNative mode: one op at a time, each op a cached kernel"
build/bin/ms-run examples/mlp.mlir --mode=pynative --init-params=0 --print --stats
