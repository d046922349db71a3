//===- Autodiff.h - Reverse-mode differentiation of ms functions -*- C++ -*-===//
//
// The driver behind the `ms-autodiff` pass, for frontends that build the
// gradient function themselves (the Python package's grad/value_and_grad).
// docs/autodiff.md describes the algorithm and how to add a rule.
//
//===----------------------------------------------------------------------===//
#ifndef MS_DIALECT_MS_TRANSFORMS_AUTODIFF_H
#define MS_DIALECT_MS_TRANSFORMS_AUTODIFF_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace ms {

/// Adds to `fn`'s module, right after `fn`, the function `gradName` with
/// signature
///
///   (fn's args..., sens_0, ..., sens_{R-1})
///       -> (fn's results..., d/d arg wrt[0], ..., d/d arg wrt[k])
///
/// where sens_i, the cotangent of result i, has that result's type (pass
/// ones for a scalar loss); results that are not float tensors take none.
/// The forward ops stay in the new function and the backward reuses their
/// values. An argument nothing flows from gets an explicit zeros constant.
///
/// With `savedForward` (PyNative: the tape has already computed every
/// forward value) the forward values the gradient function reads, results
/// included, are arguments instead, placed after fn's and before the sens:
///
///   (fn's args..., saved_0, ..., saved_{S-1}, sens...) -> (same results)
///
/// Each saved argument carries `ms.saved = array<i64: op, result>`: result
/// `result` of the `op`-th op of fn's body. Only constants, which cost
/// less to materialize than to pass, stay as ops; no other forward op is
/// left to run again.
/// Errors (an op without a gradient rule, a wrt index out of range or not
/// a float tensor, a name already taken) are emitted at their location,
/// prefixed "ms-autodiff: ", and nothing is added to the module. The
/// context must have the arith dialect loaded (ms tools always do).
mlir::FailureOr<mlir::func::FuncOp>
buildGradientFunc(mlir::func::FuncOp fn, llvm::ArrayRef<unsigned> wrt,
                  llvm::StringRef gradName, bool savedForward = false);

/// The argument attribute naming a saved forward value (see above).
inline constexpr llvm::StringLiteral kSavedAttrName = "ms.saved";

} // namespace ms

#endif // MS_DIALECT_MS_TRANSFORMS_AUTODIFF_H
