//===- MSShapeInference.h - Shape rules shared by ms ops --------*- C++ -*-===//
//
// Each function checks the operand types of one op family, emits an error
// that names the op and the dimensions that disagree, and on success appends
// the result type.
//
//===----------------------------------------------------------------------===//
#ifndef MS_DIALECT_MS_IR_MSSHAPEINFERENCE_H
#define MS_DIALECT_MS_IR_MSSHAPEINFERENCE_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace ms {

llvm::LogicalResult inferUnaryType(llvm::StringRef opName,
                                   std::optional<mlir::Location> loc,
                                   mlir::Type input,
                                   llvm::SmallVectorImpl<mlir::Type> &types);

llvm::LogicalResult inferBroadcastType(llvm::StringRef opName,
                                       std::optional<mlir::Location> loc,
                                       mlir::Type lhs, mlir::Type rhs,
                                       llvm::SmallVectorImpl<mlir::Type> &types);

llvm::LogicalResult inferReduceType(llvm::StringRef opName,
                                    std::optional<mlir::Location> loc,
                                    mlir::Type input,
                                    mlir::DenseI64ArrayAttr axes, bool keepDims,
                                    llvm::SmallVectorImpl<mlir::Type> &types);

llvm::LogicalResult inferAxisOpType(llvm::StringRef opName,
                                    std::optional<mlir::Location> loc,
                                    mlir::Type input, int64_t axis,
                                    llvm::SmallVectorImpl<mlir::Type> &types);

llvm::LogicalResult inferPoolType(llvm::StringRef opName,
                                  std::optional<mlir::Location> loc,
                                  mlir::Type input,
                                  llvm::ArrayRef<int64_t> kernelSize,
                                  llvm::ArrayRef<int64_t> stride,
                                  llvm::StringRef padMode,
                                  llvm::SmallVectorImpl<mlir::Type> &types);

/// Normalizes reduction axes to [0, rank), sorted; empty means all axes.
/// Assumes the axes were verified.
llvm::SmallVector<int64_t> normalizeReduceAxes(llvm::ArrayRef<int64_t> axes,
                                               int64_t rank);

/// Output size and padding of one spatial dimension of a convolution.
struct ConvDim {
  int64_t padBefore = 0, padAfter = 0, output = 0;
};

/// The geometry of a conv2d along H and W, or std::nullopt with `why` set.
std::optional<std::pair<ConvDim, ConvDim>>
convGeometry(llvm::ArrayRef<int64_t> inputShape,
             llvm::ArrayRef<int64_t> weightShape, llvm::StringRef padMode,
             llvm::ArrayRef<int64_t> padding, llvm::ArrayRef<int64_t> stride,
             llvm::ArrayRef<int64_t> dilation, std::string &why);

/// The numpy broadcast of two shapes, or std::nullopt if they clash.
std::optional<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> lhs, llvm::ArrayRef<int64_t> rhs);

} // namespace ms

#endif // MS_DIALECT_MS_IR_MSSHAPEINFERENCE_H
