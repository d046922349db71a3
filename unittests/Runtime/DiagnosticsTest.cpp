//===- DiagnosticsTest.cpp - One-line located errors ----------------------===//

#include "ms/Runtime/Jit/Diagnostics.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace ms;

namespace {

TEST(DiagnosticsTest, OneLinePerErrorWithCellPathAndUsefulNotes) {
  mlir::MLIRContext context;
  mlir::Location loc = mlir::NameLoc::get(
      mlir::StringAttr::get(&context, "features.0"),
      mlir::FileLineColLoc::get(&context, "net.py", 12, 3));
  DiagnosticCollector collector(&context);
  mlir::InFlightDiagnostic diag = mlir::emitError(loc, "shapes disagree");
  diag.attachNote() << "expected [6, 5]";
  // What MLIR attaches on verifier failures: the whole op, over many lines.
  diag.attachNote() << "see current operation:\n%0 = \"x.y\"() : () -> ()\n";
  diag.report();
  mlir::emitWarning(loc, "warnings are not errors");
  ASSERT_EQ(collector.messages().size(), 1u);
  EXPECT_EQ(collector.messages()[0],
            "net.py:12:3 (features.0): error: shapes disagree; note: "
            "expected [6, 5]");
  std::string text =
      llvm::toString(collector.takeError("fallback message"));
  EXPECT_EQ(text.find('\n'), std::string::npos);
  EXPECT_EQ(llvm::toString(collector.takeError("fallback message")),
            "fallback message");
}

} // namespace
