//===- MatrixTransposes.cpp - 2-D transposes on tensors -------------------===//

#include "ms/Codegen/CPU/MatrixTransposes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace ms {

Value emptyTransposeOf(OpBuilder &b, Location loc, Value matrix) {
  auto type = cast<RankedTensorType>(matrix.getType());
  return tensor::EmptyOp::create(
      b, loc, ArrayRef<int64_t>{type.getDimSize(1), type.getDimSize(0)},
      type.getElementType());
}

Value transposeOf(OpBuilder &b, Location loc, Value matrix) {
  return linalg::TransposeOp::create(b, loc, matrix,
                                     emptyTransposeOf(b, loc, matrix),
                                     ArrayRef<int64_t>{1, 0})
      ->getResult(0);
}

} // namespace ms
