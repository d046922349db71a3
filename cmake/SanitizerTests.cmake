# Test environment for sanitizer builds (MS_SANITIZERS set; see
# docs/reliability.md). Every test of such a build carries the `sanitizer`
# label, and these environments, through MS_TEST_LABELS, MS_SANITIZER_ENV
# and MS_SANITIZER_PYTHON_ENV. Tests also labelled `sanitizer-ci` make the
# bounded slice CI runs; the exhaustive per-dtype sweeps
# (MS_EXHAUSTIVE_TEST_LABELS) are left to `ctest -L sanitizer`.

set(MS_TEST_LABELS sanitizer sanitizer-ci)
set(MS_EXHAUSTIVE_TEST_LABELS sanitizer)
set(ms_symbolizer ${LLVM_TOOLS_BINARY_DIR}/llvm-symbolizer)

# Native tools and tests: leaks are checked (LSan) and any UBSan report is
# fatal, with a stack. allocator_may_return_null: malloc returns NULL for
# sizes it cannot serve, as glibc's does, instead of ASan aborting, so the
# tests of allocation errors test the code, not the sanitizer.
set(ms_ubsan_options "print_stacktrace=1:halt_on_error=1")
set(ms_lsan_options
    "suppressions=${PROJECT_SOURCE_DIR}/cmake/lsan.supp:print_suppressions=0")
set(MS_SANITIZER_ENV
  "ASAN_OPTIONS=detect_leaks=1:check_initialization_order=1:allocator_may_return_null=1"
  "UBSAN_OPTIONS=${ms_ubsan_options}"
  "LSAN_OPTIONS=${ms_lsan_options}"
  "ASAN_SYMBOLIZER_PATH=${ms_symbolizer}")

# /usr/bin/python3 is not instrumented: the runtime must be preloaded for
# _msmlir to load. Leak checking is off there: CPython (and numpy, torch)
# keep most of their allocations alive until exit on purpose, so LSan
# would report thousands of "leaks" that are not ours. Heap errors,
# use-after-free and UBSan still abort.
set(MS_SANITIZER_PYTHON_ENV
  "LD_PRELOAD=${MS_ASAN_RUNTIME}"
  "ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1"
  "UBSAN_OPTIONS=${ms_ubsan_options}"
  "ASAN_SYMBOLIZER_PATH=${ms_symbolizer}")
