//===- MSOpProperties.h - Op properties that passes ask about ---*- C++ -*-===//
//
// The C++ side of the traits and the interface in MSBase.td: which ms ops
// are elementwise, keep the rows of a batch apart, or are exact in every
// precision. Passes ask these instead of listing ops.
//
//===----------------------------------------------------------------------===//
#ifndef MS_DIALECT_MS_IR_MSOPPROPERTIES_H
#define MS_DIALECT_MS_IR_MSOPPROPERTIES_H

#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace ms {

/// The largest rank an ms op's tensors may have (MindSpore's, for most of
/// its ops).
constexpr int64_t kMaxRank = 8;

/// MS_BoundedRank's check: an error at `op` naming the first operand or
/// result of rank above kMaxRank.
mlir::LogicalResult verifyBoundedRank(mlir::Operation *op);

namespace OpTrait {

/// MS_BoundedRank: every operand and result has rank <= kMaxRank.
template <typename ConcreteType>
class BoundedRank
    : public mlir::OpTrait::TraitBase<ConcreteType, BoundedRank> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyBoundedRank(op);
  }
};

/// MS_RowIndependent: row i of each result reads only row i of the batched
/// operands, whatever the op's attributes.
template <typename ConcreteType>
class RowIndependent
    : public mlir::OpTrait::TraitBase<ConcreteType, RowIndependent> {};

/// MS_Elementwise: element i of each result reads element i of each operand
/// (numpy broadcasting), so it is row independent too.
template <typename ConcreteType>
class Elementwise
    : public mlir::OpTrait::TraitBase<ConcreteType, Elementwise> {};

/// MS_DtypeNeutral: exact in every precision (moves, picks, compares or
/// converts values).
template <typename ConcreteType>
class DtypeNeutral
    : public mlir::OpTrait::TraitBase<ConcreteType, DtypeNeutral> {};

} // namespace OpTrait

/// Whether `op` keeps the rows of a batch apart whatever its attributes.
inline bool isRowIndependent(mlir::Operation *op) {
  return op->hasTrait<OpTrait::RowIndependent>() ||
         op->hasTrait<OpTrait::Elementwise>();
}

/// What RowIndependenceOpInterface says of an op along `axis` (already in
/// [0, rank)): it mixes the rows when it works along the batch dim.
std::string whyRowsMixAlongAxis(int64_t axis);
/// The same for an op reducing over `axes` (in [0, rank)).
std::string whyRowsMixOverAxes(llvm::ArrayRef<int64_t> axes);

} // namespace ms

#include "ms/Dialect/MS/IR/MSOpProperties.h.inc"

#endif // MS_DIALECT_MS_IR_MSOPPROPERTIES_H
