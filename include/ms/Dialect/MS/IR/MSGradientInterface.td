//===- MSGradientInterface.td - Reverse-mode gradient rules -*- tablegen -*-===//
//
// The per-op rule that `ms-autodiff` (lib/Dialect/MS/Transforms/Autodiff.cpp)
// calls while it walks a function backwards. Rules are external models kept
// with each op family's code (lib/Dialect/MS/IR/Gradients/<Family>.cpp) and
// attached when the dialect initializes; docs/autodiff.md says how to add one.
//
//===----------------------------------------------------------------------===//

#ifndef MS_DIALECT_MS_IR_MSGRADIENTINTERFACE_TD
#define MS_DIALECT_MS_IR_MSGRADIENTINTERFACE_TD

include "mlir/IR/OpBase.td"

def MS_GradientOpInterface : OpInterface<"GradientOpInterface"> {
  let cppNamespace = "::ms";
  let description = [{
    An op that can propagate cotangents (vector-Jacobian products) from its
    results to its operands. The rule may use the op's operands and results
    (forward values are shared with the gradient function, not recomputed).
  }];
  let methods = [
    InterfaceMethod<[{
        Builds, at the builder's insertion point, the cotangents of the
        operands from `resultGrads`, the cotangents of the results (one per
        result, null where none flows). Fills `operandGrads` (already sized
        to the operand count, all null) with a value of each operand's type,
        or leaves null where the operand gets no gradient (integer indices,
        batch_norm's moving statistics). A failure has emitted an error at
        the op.
      }],
      "::llvm::LogicalResult", "buildGradient",
      (ins "::mlir::OpBuilder &":$builder,
           "::llvm::ArrayRef<::mlir::Value>":$resultGrads,
           "::llvm::MutableArrayRef<::mlir::Value>":$operandGrads)>
  ];
}

#endif // MS_DIALECT_MS_IR_MSGRADIENTINTERFACE_TD
