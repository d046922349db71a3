//===- Diagnostics.h - Located, one-line diagnostics ------------*- C++ -*-===//
#ifndef MS_RUNTIME_JIT_DIAGNOSTICS_H
#define MS_RUNTIME_JIT_DIAGNOSTICS_H

#include "ms/Support/Error.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace ms {

/// Renders a location the way users read it: "file:line:col", the Cell path
/// of a NameLoc ("dense_relu_sequential.0 at net.py:12:0"), fused parts
/// joined with " / ".
std::string formatLocation(mlir::Location loc);

/// Collects the errors emitted while it is alive, as one line each:
/// "<location>: error: <message>".
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(mlir::MLIRContext *context);
  ~DiagnosticCollector();

  const std::vector<std::string> &messages() const { return lines; }
  /// An llvm::Error holding the first collected line (the cause; later
  /// ones cascade from it), or `fallback` if none.
  llvm::Error takeError(llvm::StringRef fallback);

private:
  mlir::MLIRContext *context;
  mlir::DiagnosticEngine::HandlerID handler;
  std::vector<std::string> lines;
};

} // namespace ms

#endif // MS_RUNTIME_JIT_DIAGNOSTICS_H
