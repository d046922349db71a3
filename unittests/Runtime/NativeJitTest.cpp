//===- NativeJitTest.cpp - Host code in the process's JIT -----------------===//

#include "ms/Pipelines/Pipelines.h"
#include "ms/Runtime/Jit/NativeJit.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <string>
#include <utility>

using namespace ms::runtime;

namespace {

/// `steps` multiplications of `value` by %unit: the lines of MLIR, and the
/// last product (`value` itself for no steps).
std::pair<std::string, std::string>
multiplyByUnit(const std::string &value, const std::string &prefix,
               int steps) {
  std::string lines, last = value;
  for (int i = 0; i < steps; ++i) {
    std::string next = "%" + prefix + std::to_string(i);
    lines += "  " + next + " = llvm.fmul " + last + ", %unit : f32\n";
    last = next;
  }
  return {lines, last};
}

/// *out = scale(*in) + 1, with scale a function of its own, so that split
/// codegen has two functions that call across parts. Each function is a
/// chain of `steps` multiplications by 1 (exact, so the result stays known)
/// and adds: emitHostObjects splits only functions large enough to be
/// worth a thread.
std::string twoFunctions(int steps) {
  auto [scaleLines, scaled] = multiplyByUnit("%a", "s", steps);
  auto [entryLines, loaded] = multiplyByUnit("%v", "t", steps);
  return "llvm.func @scale(%a: f32) -> f32 {\n"
         "  %unit = llvm.mlir.constant(1.0 : f32) : f32\n"
         "  %c = llvm.mlir.constant(3.0 : f32) : f32\n" +
         scaleLines + "  %r = llvm.fmul " + scaled +
         ", %c : f32\n"
         "  llvm.return %r : f32\n}\n"
         "llvm.func @_mlir_ciface_affine(%in: !llvm.ptr, %out: !llvm.ptr) {\n"
         "  %unit = llvm.mlir.constant(1.0 : f32) : f32\n"
         "  %v = llvm.load %in : !llvm.ptr -> f32\n" +
         entryLines + "  %s = llvm.call @scale(" + loaded +
         ") : (f32) -> f32\n"
         "  %r = llvm.fadd %s, %unit : f32\n"
         "  llvm.store %r, %out : f32, !llvm.ptr\n  llvm.return\n}\n";
}

class NativeJitTest : public ::testing::Test {
protected:
  NativeJitTest() { ms::prepareContext(context); }

  std::vector<std::string> emit(unsigned parts, int steps = 4,
                                llvm::StringRef entry = "affine") {
    auto module = mlir::parseSourceString<mlir::ModuleOp>(
        twoFunctions(steps), &context);
    EXPECT_TRUE(module);
    auto objects = emitHostObjects(*module, entry, parts);
    if (!objects) {
      ADD_FAILURE() << llvm::toString(objects.takeError());
      return {};
    }
    return std::move(*objects);
  }

  /// Calls `code` through its packed entry, as JitModule does.
  static float call(const NativeCode &code, float x) {
    float y = 0;
    float *in = &x, *out = &y;
    void *arguments[] = {&in, &out};
    code.call(arguments);
    return y;
  }

  mlir::MLIRContext context;
};

TEST_F(NativeJitTest, OnePartLinksAndRuns) {
  std::vector<std::string> objects = emit(1);
  ASSERT_EQ(objects.size(), 1u);
  auto code = NativeCode::link(objects, "affine", /*openMP=*/false);
  ASSERT_TRUE(bool(code)) << llvm::toString(code.takeError());
  EXPECT_EQ(call(**code, 2.0f), 7.0f);
}

TEST_F(NativeJitTest, LargeFunctionsCompileAtOnceAndLinkIntoOneModule) {
  std::vector<std::string> objects = emit(2, /*steps=*/300);
  ASSERT_EQ(objects.size(), 2u);
  auto code = NativeCode::link(objects, "affine", /*openMP=*/false);
  ASSERT_TRUE(bool(code)) << llvm::toString(code.takeError());
  EXPECT_EQ(call(**code, -1.5f), -3.5f);
}

TEST_F(NativeJitTest, SmallFunctionsStayInOnePart) {
  EXPECT_EQ(emit(2, /*steps=*/4).size(), 1u);
}

TEST_F(NativeJitTest, SameSymbolsInTwoModulesDoNotClash) {
  std::vector<std::string> objects = emit(1);
  auto first = NativeCode::link(objects, "affine", /*openMP=*/false);
  auto second = NativeCode::link(objects, "affine", /*openMP=*/false);
  ASSERT_TRUE(bool(first)) << llvm::toString(first.takeError());
  ASSERT_TRUE(bool(second)) << llvm::toString(second.takeError());
  EXPECT_EQ(call(**first, 1.0f), 4.0f);
  // Unlinking one module leaves the other's code in place.
  first->reset();
  EXPECT_EQ(call(**second, 1.0f), 4.0f);
}

TEST_F(NativeJitTest, ModuleWithoutTheEntryIsAnError) {
  auto module =
      mlir::parseSourceString<mlir::ModuleOp>(twoFunctions(4), &context);
  ASSERT_TRUE(module);
  auto objects = emitHostObjects(*module, "missing", 1);
  ASSERT_FALSE(bool(objects));
  EXPECT_EQ(llvm::toString(objects.takeError()),
            "compiled module has no C entry for @missing");
}

TEST_F(NativeJitTest, ObjectsWithoutTheEntryAreAnError) {
  std::vector<std::string> objects = emit(1);
  auto code = NativeCode::link(objects, "missing", /*openMP=*/false);
  ASSERT_FALSE(bool(code));
  EXPECT_NE(llvm::toString(code.takeError())
                .find("compiled code has no C entry for @missing"),
            std::string::npos);
}

TEST_F(NativeJitTest, CorruptObjectIsAnError) {
  auto code = NativeCode::link({std::string("not an object file")}, "affine",
                               /*openMP=*/false);
  ASSERT_FALSE(bool(code));
  llvm::consumeError(code.takeError());
}

} // namespace
