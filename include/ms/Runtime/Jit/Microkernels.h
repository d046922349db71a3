//===- Microkernels.h - Precompiled routines compiled code calls -*- C++ -*-===//
//
// Data movement that compiled code calls instead of containing, as IREE's
// ukernels are: built once with the runtime, so no compile pays for them.
//
// Transposes first. Generated in each kernel, a 16 x 16 block transpose was
// 64 vector shuffles, and LLVM's instruction selection spent 8-15 ms of
// DAG combining on each such block: about a third of a PyNative dense
// kernel's compile (docs/performance-history.md). A copy has no rounding, so where
// it runs does not change a bit of any result.
//
//===----------------------------------------------------------------------===//

#ifndef MS_RUNTIME_JIT_MICROKERNELS_H
#define MS_RUNTIME_JIT_MICROKERNELS_H

#include <cstdint>

namespace ms {
namespace runtime {

/// A rank-2 memref descriptor, as MLIR's C interface passes it.
template <typename T>
struct MemRef2D {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[2];
  int64_t strides[2];
};

/// out = in^T: out[j][i] = in[i][j], for in [rows, cols] and out [cols,
/// rows], any strides. `ms-transposes-to-calls` emits calls to these (the C
/// interface of `ms_transpose_f32` / `ms_transpose_f64`).
extern "C" void _mlir_ciface_ms_transpose_f32(MemRef2D<float> *in,
                                              MemRef2D<float> *out);
extern "C" void _mlir_ciface_ms_transpose_f64(MemRef2D<double> *in,
                                              MemRef2D<double> *out);

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_JIT_MICROKERNELS_H
