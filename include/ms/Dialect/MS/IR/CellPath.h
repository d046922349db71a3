//===- CellPath.h - The Cell path an op's location names --------*- C++ -*-===//
//
// Captured ops carry loc("<cell path>"(file:line:col)): the attribute path
// of the Cell that ran them, as MindSpore names parameters ("fc1",
// "features.0.conv"), around the Python line.
//
//===----------------------------------------------------------------------===//
#ifndef MS_DIALECT_MS_IR_CELLPATH_H
#define MS_DIALECT_MS_IR_CELLPATH_H

#include "mlir/IR/Location.h"

#include <string>

namespace ms {

/// The first Cell path `loc` names, or "" when it names none.
std::string cellPathOf(mlir::Location loc);

} // namespace ms

#endif // MS_DIALECT_MS_IR_CELLPATH_H
