//===- TransformScript.h - Apply a transform-dialect script -----*- C++ -*-===//
#ifndef MS_CODEGEN_CPU_TRANSFORMSCRIPT_H
#define MS_CODEGEN_CPU_TRANSFORMSCRIPT_H

#include "mlir/IR/Operation.h"

namespace ms {

/// Parses `script` (a module holding @__transform_main) and applies it to
/// `payload`. Errors are emitted as diagnostics.
llvm::LogicalResult applyTransformScript(mlir::Operation *payload,
                                         llvm::StringRef script);

} // namespace ms

#endif // MS_CODEGEN_CPU_TRANSFORMSCRIPT_H
