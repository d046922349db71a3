#!/usr/bin/env bash
# Runs the libFuzzer targets of the sanitizer build (cmake --preset asan;
# ninja -C build-asan) for SECONDS each, one after the other:
#
#   bash scripts/fuzz.sh [SECONDS] [TARGET...]     # default: 60, every target
#   bash scripts/fuzz.sh 300 parse-verify pipeline-o2
#
# Each target runs in libFuzzer's fork mode, which keeps going after a crash,
# timeout or OOM, with -timeout=10 (seconds per input) and -rss_limit_mb=4096.
# New inputs collect under $MS_FUZZ_WORK (/tmp/ms-fuzz)/<target>/corpus,
# crashes under .../crashes; at the end the new interesting inputs (those
# that add coverage to fuzz/corpus/<target>) are merged into .../new, which
# you may copy into fuzz/corpus/<target>. One line per target reports the
# executions, libFuzzer's final cov/ft and the crashes.
#
# Environment: MS_FUZZ_BUILD (build-asan), MS_FUZZ_WORK (/tmp/ms-fuzz),
# MS_FUZZ_JOBS (1: parallel fuzzing processes per target; the machine has
# two cores), MS_FUZZ_MAX_LEN (8192 for the IR targets: a bound on the cost
# of one input).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SECONDS_EACH=${1:-60}
shift || true
BUILD=${MS_FUZZ_BUILD:-build-asan}
WORK=${MS_FUZZ_WORK:-/tmp/ms-fuzz}
JOBS=${MS_FUZZ_JOBS:-1}
MAX_LEN=${MS_FUZZ_MAX_LEN:-8192}

if [ $# -eq 0 ]; then
  set -- parse-verify canonicalize pipeline-o0 pipeline-o2 safetensors npy idx \
    cache-entry checkpoint
fi
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_SYMBOLIZER_PATH=${ASAN_SYMBOLIZER_PATH:-/usr/lib/llvm-22/bin/llvm-symbolizer}

printf '%-14s %6s %10s %8s %8s %8s %s\n' target seconds execs cov ft crashes "new inputs"
for target in "$@"; do
  bin=$BUILD/bin/ms-fuzz-$target
  seeds=$ROOT/fuzz/corpus/ms-fuzz-$target
  if [ ! -x "$bin" ]; then
    echo "fuzz.sh: $bin is missing: cmake --preset asan && ninja -C $BUILD" >&2
    exit 2
  fi
  dir=$WORK/$target
  mkdir -p "$dir/corpus" "$dir/crashes"
  extra=()
  case $target in
    parse-verify|canonicalize|pipeline-*)
      extra=(-dict="$ROOT/fuzz/ms.dict" -max_len="$MAX_LEN") ;;
  esac
  log=$dir/fuzz.log
  # Scratch files of the readers go to the work dir, not the shared /tmp.
  TMPDIR=$dir "$bin" -fork="$JOBS" -ignore_crashes=1 -ignore_timeouts=1 \
    -ignore_ooms=1 -max_total_time="$SECONDS_EACH" -timeout=10 \
    -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$dir/crashes/" \
    "${extra[@]}" "$dir/corpus" "$seeds" >"$log" 2>&1 || true
  # Fork mode prints "#<execs>: cov: <n> ft: <n> ..." lines; the last counts.
  stats=$(grep -E '^#[0-9]+: cov:' "$log" | tail -1 || true)
  execs=$(sed -E 's/^#([0-9]+):.*/\1/' <<<"$stats")
  cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$stats")
  ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$stats")
  crashes=$(find "$dir/crashes" -type f | wc -l)
  # Keep only what adds coverage to the seed corpus.
  rm -rf "$dir/new" "$dir/merge-seeds"
  mkdir -p "$dir/new" "$dir/merge-seeds"
  cp "$seeds"/* "$dir/merge-seeds/"
  TMPDIR=$dir "$bin" -merge=1 -timeout=10 -rss_limit_mb=4096 "${extra[@]}" \
    "$dir/merge-seeds" "$dir/corpus" >"$dir/merge.log" 2>&1 || true
  for f in "$dir/merge-seeds"/*; do
    [ -e "$seeds/$(basename "$f")" ] || mv "$f" "$dir/new/"
  done
  new=$(ls "$dir/new" | wc -l)
  printf '%-14s %6s %10s %8s %8s %8s %s\n' "$target" "$SECONDS_EACH" \
    "${execs:-?}" "${cov:-?}" "${ft:-?}" "$crashes" "$new in $dir/new"
done
echo "fuzz.sh: logs, crashes and new inputs are under $WORK/<target>"
