//===- Gradients.h - Attaching the per-family gradient rules ----*- C++ -*-===//
//
// Internal to the dialect library. Each family file defines its rules as
// plain functions and attaches them with GradientModel. The rules are
// external models, not DeclareOpInterfaceMethods in MSOps.td, so that a
// family's rules sit next to each other (and next to nothing else), and an
// op family added later gets its rules without touching the shared op
// definitions: one attach call in its own file.
//
//===----------------------------------------------------------------------===//
#ifndef MS_LIB_DIALECT_MS_IR_GRADIENTS_GRADIENTS_H
#define MS_LIB_DIALECT_MS_IR_GRADIENTS_GRADIENTS_H

#include "ms/Dialect/MS/IR/MSGradientInterface.h"
#include "ms/Dialect/MS/IR/MSOps.h"

namespace ms {
namespace grad {

/// The result cotangents a rule reads (null where none flows; never all
/// null) and the operand cotangents it fills.
using Grads = llvm::ArrayRef<mlir::Value>;
using OperandGrads = llvm::MutableArrayRef<mlir::Value>;

/// A rule: the op, a builder placed after it, its Grads and OperandGrads.
template <typename OpTy>
using RuleFn = llvm::LogicalResult (*)(OpTy, mlir::OpBuilder &, Grads,
                                       OperandGrads);

template <typename OpTy, RuleFn<OpTy> Rule>
struct GradientModel
    : GradientOpInterface::ExternalModel<GradientModel<OpTy, Rule>, OpTy> {
  llvm::LogicalResult
  buildGradient(mlir::Operation *op, mlir::OpBuilder &builder,
                llvm::ArrayRef<mlir::Value> resultGrads,
                llvm::MutableArrayRef<mlir::Value> operandGrads) const {
    return Rule(llvm::cast<OpTy>(op), builder, resultGrads, operandGrads);
  }
};

template <typename OpTy, RuleFn<OpTy> Rule>
void attachRule(mlir::MLIRContext &context) {
  OpTy::template attachInterface<GradientModel<OpTy, Rule>>(context);
}

/// The type of a ranked tensor value.
inline mlir::RankedTensorType tensorType(mlir::Value value) {
  return llvm::cast<mlir::RankedTensorType>(value.getType());
}

// One per family file.
void attachElementwiseGradients(mlir::MLIRContext &context);
void attachLinearGradients(mlir::MLIRContext &context);
void attachConvGradients(mlir::MLIRContext &context);
void attachPoolingGradients(mlir::MLIRContext &context);
void attachNormalizationGradients(mlir::MLIRContext &context);
void attachReductionGradients(mlir::MLIRContext &context);
void attachDataMovementGradients(mlir::MLIRContext &context);
void attachLogicalGradients(mlir::MLIRContext &context);
void attachArithGradients(mlir::MLIRContext &context);
void attachScanSortGradients(mlir::MLIRContext &context);
void attachResizeGradients(mlir::MLIRContext &context);
void attachCommunicationGradients(mlir::MLIRContext &context);

/// All of the above (called from MSDialect::initialize).
void attachGradientRules(mlir::MLIRContext &context);

} // namespace grad
} // namespace ms

#endif // MS_LIB_DIALECT_MS_IR_GRADIENTS_GRADIENTS_H
