//===- MLIRFuzzSupport.h - Shared pieces of the IR fuzz targets -*- C++ -*-===//
//
// A context set up the way the tools set theirs up, and quiet parsing.
//
//===----------------------------------------------------------------------===//
#ifndef MS_FUZZ_MLIRFUZZSUPPORT_H
#define MS_FUZZ_MLIRFUZZSUPPORT_H

#include "FuzzSupport.h"

#include "ms/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>
#include <string>

namespace ms {
namespace fuzz {

/// A fresh context per input, prepared exactly as ms-opt and ms-run prepare
/// theirs. A fresh one keeps a crash reproducible from its input alone
/// (nothing uniqued by earlier inputs) and memory flat over a long run.
inline std::unique_ptr<mlir::MLIRContext> makeContext() {
  auto context = std::make_unique<mlir::MLIRContext>(
      mlir::MLIRContext::Threading::DISABLED);
  prepareContext(*context);
  return context;
}

/// Parses (and, as the tools do, verifies) `data` as a module. Diagnostics
/// are dropped: a rejected input is the expected outcome, not a finding.
inline mlir::OwningOpRef<mlir::ModuleOp>
parseModule(mlir::MLIRContext &context, const uint8_t *data, size_t size) {
  mlir::ParserConfig config(&context, /*verifyAfterParse=*/true);
  // MLIR's lexer reads the byte after the text and expects a NUL there, as
  // files read by the tools have; libFuzzer's data has none. A std::string
  // gives it one (and the parser's view, like a tool's, stops at any NUL).
  std::string text(reinterpret_cast<const char *>(data), size);
  return mlir::parseSourceString<mlir::ModuleOp>(text, config, "fuzz-input");
}

/// Swallows every diagnostic of a context while alive.
struct QuietDiagnostics : mlir::ScopedDiagnosticHandler {
  explicit QuietDiagnostics(mlir::MLIRContext &context)
      : mlir::ScopedDiagnosticHandler(
            &context, [](mlir::Diagnostic &) { return mlir::success(); }) {}
};

/// The start of every IR target: parses `data` in a fresh, quiet context
/// and hands the module to `use` when it parses and verifies.
inline void withParsedModule(const uint8_t *data, size_t size,
                             llvm::function_ref<void(mlir::ModuleOp)> use) {
  auto context = makeContext();
  QuietDiagnostics quiet(*context);
  if (auto module = parseModule(*context, data, size))
    use(*module);
}

} // namespace fuzz
} // namespace ms

#endif // MS_FUZZ_MLIRFUZZSUPPORT_H
