//===- FunctionLinkingTest.cpp - Declarations given bodies, calls inlined -===//

#include "ms/Runtime/Jit/FunctionLinking.h"

#include "gtest/gtest.h"

#include <string>

using namespace ms::runtime;

namespace {

// The graph a frontend captures: it calls @__ms_linked_0, declared only.
const char *kGraph = R"mlir(
func.func @construct(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %b = "tensor.extract"(%c) : (tensor<i1>) -> i1
  %r = "scf.if"(%b) ({
    %y = "func.call"(%x) {callee = @__ms_linked_0} : (tensor<4xf32>) -> tensor<4xf32>
    "scf.yield"(%y) : (tensor<4xf32>) -> ()
  }, {
    "scf.yield"(%x) : (tensor<4xf32>) -> ()
  }) : (i1) -> tensor<4xf32>
  %z = "func.call"(%r) {callee = @__ms_linked_0} : (tensor<4xf32>) -> tensor<4xf32>
  return %z : tensor<4xf32>
}
func.func private @__ms_linked_0(tensor<4xf32>) -> tensor<4xf32>
)mlir";

// What ms-autodiff hands back: a module with the function to call.
const char *kDefinition = R"mlir(
func.func @construct_grad(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ms.relu %x : tensor<4xf32> loc("fc.relu"("net.py":7:0))
  %1 = ms.tanh %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
)mlir";

size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1))
    ++n;
  return n;
}

TEST(FunctionLinkingTest, EveryCallIsInlinedAndTheDeclarationGoes) {
  auto linked = linkFunctions(
      kGraph, {{kDefinition, "construct_grad", "__ms_linked_0"}});
  ASSERT_TRUE(static_cast<bool>(linked)) << llvm::toString(linked.takeError());
  EXPECT_EQ(count(*linked, "@__ms_linked_0"), 0u) << *linked;
  EXPECT_EQ(count(*linked, "call"), 0u) << *linked; // nor callsite locs
  // Once inside the branch, once after it.
  EXPECT_EQ(count(*linked, "ms.relu"), 2u) << *linked;
  EXPECT_EQ(count(*linked, "ms.tanh"), 2u) << *linked;
  // The inlined ops keep their Cell path and file:line.
  EXPECT_NE(linked->find("loc(\"fc.relu\"("), std::string::npos) << *linked;
  EXPECT_NE(linked->find("loc(\"net.py\":7:0)"), std::string::npos)
      << *linked;
}

TEST(FunctionLinkingTest, WithoutDefinitionsTheGraphComesBackWhole) {
  const char *plain = "func.func @construct(%x: tensor<2xf32>) -> "
                      "tensor<2xf32> {\n  return %x : tensor<2xf32>\n}\n";
  auto linked = linkFunctions(plain, {});
  ASSERT_TRUE(static_cast<bool>(linked)) << llvm::toString(linked.takeError());
  EXPECT_NE(linked->find("func.func @construct"), std::string::npos);
}

std::string error(llvm::Expected<std::string> result) {
  EXPECT_FALSE(static_cast<bool>(result));
  return result ? "" : llvm::toString(result.takeError());
}

TEST(FunctionLinkingTest, ATypeMismatchIsOneError) {
  const char *other = "func.func @g(%x: tensor<3xf32>) -> tensor<3xf32> {\n"
                      "  return %x : tensor<3xf32>\n}\n";
  std::string message =
      error(linkFunctions(kGraph, {{other, "g", "__ms_linked_0"}}));
  EXPECT_NE(message.find("@g has type"), std::string::npos) << message;
  EXPECT_NE(message.find("tensor<3xf32>"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST(FunctionLinkingTest, AMissingFunctionOrDeclarationIsOneError) {
  EXPECT_NE(error(linkFunctions(kGraph, {{kDefinition, "nope",
                                          "__ms_linked_0"}}))
                .find("has no function @nope"),
            std::string::npos);
  EXPECT_NE(error(linkFunctions(kGraph, {{kDefinition, "construct_grad",
                                          "__ms_linked_9"}}))
                .find("no declaration of @__ms_linked_9"),
            std::string::npos);
}

TEST(FunctionLinkingTest, BadTextNamesWhatItWasFor) {
  std::string message =
      error(linkFunctions(kGraph, {{"func.func @", "f", "__ms_linked_0"}}));
  EXPECT_NE(message.find("<link __ms_linked_0>"), std::string::npos)
      << message;
  message = error(linkFunctions("not mlir", {}));
  EXPECT_NE(message.find("<graph>"), std::string::npos) << message;
}

} // namespace
