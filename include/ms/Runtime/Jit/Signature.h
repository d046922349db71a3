//===- Signature.h - The tensor signature of a compiled entry ---*- C++ -*-===//
//
// What a caller must pass to an entry and what it gets back. Read from the
// func.func on tensors before lowering, so it speaks the user's language
// (parameter names, shapes), not memref descriptors.
//
//===----------------------------------------------------------------------===//
#ifndef MS_RUNTIME_JIT_SIGNATURE_H
#define MS_RUNTIME_JIT_SIGNATURE_H

#include "ms/Runtime/Memory/HostTensor.h"
#include "ms/Runtime/Memory/PackedParams.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
class Operation;
class Type;
} // namespace mlir

namespace ms {
namespace runtime {

/// A ? dim in a TensorSpec's shape: the batch, known per call.
constexpr int64_t kDynamicDim = -1;

struct TensorSpec {
  DType dtype = DType::F32;
  /// kDynamicDim for a ? (only the leading dim of inputs and results).
  std::vector<int64_t> shape;
  /// The `ms.param` name for parameters; empty for inputs and results.
  std::string paramName;
  /// The layout the compiled code reads this parameter in (ms.packed);
  /// callers still pass `shape`, the runtime packs (PackedParams.h).
  PackedLayout packed = PackedLayout::None;
  /// For a result: the argument whose buffer the code updates in place and
  /// returns as this result (ms.in_place_of); -1 for a fresh buffer.
  int64_t inPlaceOf = -1;

  bool isParameter() const { return !paramName.empty(); }
  bool isDynamic() const;
  std::string typeString() const;
  /// Same dtype and rank, and every static dim equal.
  bool matches(const HostTensor &tensor) const;
  /// The shape with each ? set to `batch`.
  llvm::SmallVector<int64_t, 4> shapeAt(int64_t batch) const;
};

/// A trailing argument of a compiled step that callers do not pass: one of
/// gradient bucket `bucket`'s two buffers (ms.comm_bucket, or ms.comm_peer
/// when `peer`), which the communication layer provides on each call
/// (comm::bucketBuffers).
struct CommBuffer {
  int64_t bucket = 0;
  bool peer = false;
  DType dtype = DType::F32;
  int64_t count = 0;
};

struct EntrySignature {
  std::string entry;
  std::vector<TensorSpec> args;
  std::vector<TensorSpec> results;
  /// The compiled code's trailing arguments that callers do not pass
  /// (ms.packed_copy_of); the runtime makes them (PackedParams.h).
  std::vector<PackedCopy> packedCopies;
  /// The gradient buckets' buffers, trailing arguments too: right after the
  /// caller's arguments (ms-to-linalg adds them), before the packed copies
  /// (a later stage adds those).
  std::vector<CommBuffer> commBuffers;

  /// Checks a caller's arguments: count, dtype and shape of each, and that
  /// all ? dims get the same batch.
  llvm::Error checkArguments(llvm::ArrayRef<HostTensor> tensors) const;

  /// Whether an argument has a ? batch dim.
  bool isDynamic() const;
  /// The batch of checked arguments (their ? dim); 0 for a static entry.
  int64_t batchOf(llvm::ArrayRef<HostTensor> tensors) const;

  /// Checks each result's inPlaceOf: an unpacked parameter argument of the
  /// result's static type, updated into at most one result.
  llvm::Error checkInPlaceResults() const;

private:
  bool canUpdateInPlace(size_t arg, const TensorSpec &result) const;
};

/// The runtime dtype of an MLIR element type; none for types the runtime
/// has no buffers of.
std::optional<DType> dtypeOf(mlir::Type type);

/// The MLIR element type of `dtype` (bool is i1; unsigned types are
/// unsigned integers, as DTypes.def spells them).
mlir::Type mlirElementType(mlir::MLIRContext *ctx, DType dtype);

/// Reads the signature of `funcOp` (a func.func on static-shaped tensors,
/// or ones whose only ? is a leading batch dim).
llvm::Expected<EntrySignature> readSignature(mlir::Operation *funcOp);

/// Why `recorded` (a compile-cache entry's signature) does not describe
/// the same call as `caller` (read from the caller's graph): the entry's
/// name, and each argument's and result's dtype, shape and parameter name.
/// Empty when they agree.
std::string signatureMismatch(const EntrySignature &recorded,
                              const EntrySignature &caller);

/// Sets each argument's `packed` from the ms.packed attributes of `funcOp`,
/// the entry as a pipeline stage left it (ms-pack-parameters adds them),
/// and `commBuffers` and `packedCopies` from its trailing arguments
/// (ms.comm_bucket and ms.comm_peer, then ms.packed_copy_of), and each
/// result's `inPlaceOf` from its out-param's ms.in_place_of.
llvm::Error readPackedLayouts(mlir::Operation *funcOp, EntrySignature &sig);

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_JIT_SIGNATURE_H
