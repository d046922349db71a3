//===- ModuleText.h - ms modules to and from text ---------------*- C++ -*-===//
//
// The text-in, text-out services for frontends (Autodiff.h,
// FunctionLinking.h) parse and print modules the same way.
//
//===----------------------------------------------------------------------===//
#ifndef MS_RUNTIME_JIT_MODULETEXT_H
#define MS_RUNTIME_JIT_MODULETEXT_H

#include "ms/Runtime/Jit/Diagnostics.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace ms {
namespace runtime {

/// `source` parsed (and verified) in `context`; errors name the buffer
/// `bufferName` ("<autodiff>:3:5: error: ..."), and say "cannot parse
/// <what>" when no diagnostic did.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
parseModuleText(mlir::MLIRContext &context, DiagnosticCollector &diagnostics,
                llvm::StringRef source, llvm::StringRef bufferName,
                llvm::StringRef what);

/// The module as MLIR prints it, with its locations (the Cell paths and
/// file:line the frontend gave the ops).
std::string printModuleText(mlir::ModuleOp module);

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_JIT_MODULETEXT_H
