//===- ArgumentAttributes.h - An entry function's argument tags -*- C++ -*-===//
//
// A compiled graph's entry function tells the runtime what some of its
// arguments are through discardable attributes on them. Passes (and, for
// ms.param, msmlir's graph capture) write these tags and the runtime's
// Signature reads them, so their names live here, once (docs/python.md,
// docs/pipelines.md and docs/distributed.md describe them).
//
//===----------------------------------------------------------------------===//
#ifndef MS_SUPPORT_ARGUMENTATTRIBUTES_H
#define MS_SUPPORT_ARGUMENTATTRIBUTES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringRef.h"

namespace ms {

/// A Parameter, by its name in the Cell ("1.weight"): the runtime binds
/// the Parameter's buffer.
inline constexpr llvm::StringLiteral kParamAttr = "ms.param";
/// The layout a parameter argument is read in ("transpose",
/// "transpose_padded", "panels64", "panels256"), which the runtime makes
/// from the Parameter once and caches (`ms-pack-parameters`).
inline constexpr llvm::StringLiteral kPackedAttr = "ms.packed";
/// A trailing packed copy of caller argument k, which callers do not pass.
inline constexpr llvm::StringLiteral kPackedCopyOfAttr = "ms.packed_copy_of";
/// The gradient bucket k's own buffer, which the runtime provides
/// (`ms-share-gradient-buckets`).
inline constexpr llvm::StringLiteral kCommBucketAttr = "ms.comm_bucket";
/// The other rank's buffer for gradient bucket k (`convert-ms-to-linalg`).
inline constexpr llvm::StringLiteral kCommPeerAttr = "ms.comm_peer";
/// An out-param: result k of the entry before bufferization moved its
/// results into arguments (`ms-emit-c-interface` tags the results).
inline constexpr llvm::StringLiteral kResultAttr = "ms.result";
/// An out-param the code leaves alone because it writes this result into
/// caller argument k instead (a parameter's update, in place); the
/// runtime returns argument k's buffer as the result
/// (`ms-update-parameters-in-place`).
inline constexpr llvm::StringLiteral kInPlaceOfAttr = "ms.in_place_of";

/// `func`'s argument tagged `name = id` (an integer tag: ms.comm_bucket,
/// ms.comm_peer), or null.
inline mlir::BlockArgument taggedArgument(mlir::func::FuncOp func,
                                          llvm::StringRef name, int64_t id) {
  for (mlir::BlockArgument arg : func.getArguments())
    if (auto tag = func.getArgAttrOfType<mlir::IntegerAttr>(
            arg.getArgNumber(), name);
        tag && tag.getInt() == id)
      return arg;
  return {};
}

} // namespace ms

#endif // MS_SUPPORT_ARGUMENTATTRIBUTES_H
