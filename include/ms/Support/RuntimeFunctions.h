//===- RuntimeFunctions.h - Declarations of runtime functions ---*- C++ -*-===//
//
// Lowerings that call into the ms runtime (the collectives, the transpose
// kernels) declare the function they call in the module on first use; this
// is that declaration, in one place.
//
//===----------------------------------------------------------------------===//
#ifndef MS_SUPPORT_RUNTIMEFUNCTIONS_H
#define MS_SUPPORT_RUNTIMEFUNCTIONS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace ms {

/// The private function `name` of `module`, declared at the module's start
/// with `arguments` and `results` if it is not there yet (MLIR's
/// func::lookupOrCreateFnDecl needs exactly one result). `builder` keeps
/// its insertion point; a pattern passes its rewriter, so the new op is
/// seen.
inline mlir::func::FuncOp
lookupOrDeclareRuntimeFunction(mlir::OpBuilder &builder, mlir::ModuleOp module,
                               llvm::StringRef name,
                               mlir::TypeRange arguments,
                               mlir::TypeRange results = {}) {
  if (auto existing = module.lookupSymbol<mlir::func::FuncOp>(name))
    return existing;
  mlir::OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  auto function = mlir::func::FuncOp::create(
      builder, module.getLoc(), name,
      builder.getFunctionType(arguments, results));
  function.setPrivate();
  return function;
}

} // namespace ms

#endif // MS_SUPPORT_RUNTIMEFUNCTIONS_H
