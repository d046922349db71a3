//===- Diagnostics.cpp - Located, one-line diagnostics --------------------===//

#include "ms/Runtime/Jit/Diagnostics.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace ms {
namespace {

void collectLocationParts(Location loc, std::vector<std::string> &names,
                          std::vector<std::string> &files) {
  if (auto file = dyn_cast<FileLineColLoc>(loc)) {
    files.push_back((file.getFilename().strref() + ":" +
                     llvm::Twine(file.getLine()) + ":" +
                     llvm::Twine(file.getColumn()))
                        .str());
  } else if (auto name = dyn_cast<NameLoc>(loc)) {
    names.push_back(name.getName().str());
    collectLocationParts(name.getChildLoc(), names, files);
  } else if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location part : fused.getLocations())
      collectLocationParts(part, names, files);
  } else if (auto callSite = dyn_cast<CallSiteLoc>(loc)) {
    collectLocationParts(callSite.getCallee(), names, files);
  }
}

} // namespace

std::string formatLocation(Location loc) {
  std::vector<std::string> names, files;
  collectLocationParts(loc, names, files);
  std::string where = llvm::join(files, ", ");
  if (names.empty())
    return where.empty() ? "<unknown location>" : where;
  std::string cell = llvm::join(names, "/");
  return where.empty() ? cell : where + " (" + cell + ")";
}

DiagnosticCollector::DiagnosticCollector(MLIRContext *context)
    : context(context) {
  handler = context->getDiagEngine().registerHandler([this](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return success();
    std::string line =
        formatLocation(diag.getLocation()) + ": error: " + diag.str();
    for (Diagnostic &note : diag.getNotes()) {
      // MLIR attaches the failing op's whole IR; it breaks the one-line
      // contract and tells users nothing the location does not.
      std::string text = note.str();
      if (llvm::StringRef(text).starts_with("see current operation"))
        continue;
      line += "; note: " + text;
    }
    lines.push_back(line);
    return success();
  });
}

DiagnosticCollector::~DiagnosticCollector() {
  context->getDiagEngine().eraseHandler(handler);
}

llvm::Error DiagnosticCollector::takeError(llvm::StringRef fallback) {
  // The first error is the cause: the parser, for one, goes on to report
  // what its recovery trips over ("expected ']'" after "integer value too
  // large"), and the tools promise one line.
  std::string text = lines.empty() ? fallback.str() : lines.front();
  lines.clear();
  return llvm::createStringError(llvm::inconvertibleErrorCode(), text);
}

} // namespace ms
