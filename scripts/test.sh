#!/usr/bin/env bash
# Builds ms and runs the normal suite through ctest: the lit suite (ms-opt,
# ms-run, the mlir-opt plugin), GoogleTest, pytest, the examples. That is
# all it runs by default (about 10 minutes on 2 cores after the build).
# MS_SLOW_TESTS adds a slice of the slow suites: the 2-rank data-parallel
# tests (label multi-rank, mpirun, in build/) and the sanitizer build's
# tests (build-asan, CMakePresets.json `asan`):
#
#   MS_SLOW_TESTS=none  (default) the normal suite only
#   MS_SLOW_TESTS=ci    what .ci/run adds: multirank-np2, then ctest -L
#                       'sanitizer-ci|fuzz' in build-asan: lit, GoogleTest
#                       and a sample of pytest under ASan+UBSan, and the
#                       fuzz corpus replay
#   MS_SLOW_TESTS=all   every multi-rank test (2 and 4 ranks), then ctest -L
#                       'sanitizer|fuzz': the whole suite under the
#                       sanitizers, exhaustive per-dtype sweeps included
#   MS_SLOW_TESTS=<re>  ctest -L <re> in build-asan, e.g. fuzz, or
#                       'sanitizer' -R 'lit-Run|MS'
#
# Timings on the 2-core CI machine are in docs/reliability.md.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
(cd build && ctest --output-on-failure -j2 -LE multi-rank)

slice=${MS_SLOW_TESTS:-none}
if [ "$slice" = none ]; then
  echo "test.sh: slow slice: none (MS_SLOW_TESTS=ci or all adds one)"
  exit 0
fi
ranks='multirank-np2'
[ "$slice" = all ] && ranks='multirank'
if [ "$slice" = ci ] || [ "$slice" = all ]; then
  echo "test.sh: slow slice: ctest -L multi-rank -R '$ranks' in build/"
  (cd build && ctest --output-on-failure -L multi-rank -R "$ranks")
fi
[ "$slice" = ci ] && slice='sanitizer-ci|fuzz'
[ "$slice" = all ] && slice='sanitizer|fuzz'
echo "test.sh: slow slice: ctest -L '$slice' in build-asan (ASan+UBSan," \
     "fuzz corpus replay)"
[ -f build-asan/build.ninja ] || cmake --preset asan
ninja -C build-asan
(cd build-asan && ctest --output-on-failure -j2 -L "$slice")
