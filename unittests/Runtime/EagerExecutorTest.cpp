//===- EagerExecutorTest.cpp - PyNative executor and kernel cache ---------===//

#include "ms/Runtime/EagerExecutor.h"

#include "gtest/gtest.h"

#include <cmath>
#include <string>

using namespace ms::runtime;

namespace {

HostTensor filled(llvm::ArrayRef<int64_t> shape,
                  std::initializer_list<float> values) {
  HostTensor t(DType::F32, shape);
  float *data = t.dataAs<float>();
  size_t i = 0;
  for (float v : values)
    data[i++] = v;
  return t;
}

std::string errorText(llvm::Error error) {
  return llvm::toString(std::move(error));
}

class EagerExecutorTest : public ::testing::Test {
protected:
  EagerExecutor executor;
};

TEST_F(EagerExecutorTest, RunsOneOpOnRealBuffers) {
  HostTensor x = filled({1, 4}, {-2.0f, -0.0f, 0.5f, 3.0f});
  auto out = executor.run({"ms.relu", ""}, {x});
  ASSERT_TRUE(static_cast<bool>(out)) << errorText(out.takeError());
  ASSERT_EQ(out->size(), 1u);
  const HostTensor &y = out->front();
  EXPECT_EQ(y.typeString(), "tensor<1x4xf32>");
  EXPECT_EQ(y.dataAs<float>()[0], 0.0f);
  EXPECT_EQ(y.dataAs<float>()[2], 0.5f);
  EXPECT_EQ(y.dataAs<float>()[3], 3.0f);
  // The input is untouched: results live in buffers the executor allocated.
  EXPECT_EQ(x.dataAs<float>()[0], -2.0f);
  EXPECT_NE(y.data(), x.data());
}

TEST_F(EagerExecutorTest, CachesKernelsByOpAttributesAndTypes) {
  HostTensor a = filled({2, 2}, {1, 2, 3, 4});
  HostTensor b = filled({2}, {10, 20});
  ASSERT_TRUE(static_cast<bool>(executor.run({"ms.add", ""}, {a, b})));
  EXPECT_EQ(executor.stats().misses, 1u);
  EXPECT_EQ(executor.stats().hits, 0u);

  // Same op, same types: a hit, no new kernel.
  auto again = executor.run({"ms.add", ""}, {a, b});
  ASSERT_TRUE(static_cast<bool>(again));
  EXPECT_EQ(executor.stats().hits, 1u);
  EXPECT_EQ(executor.numKernels(), 1u);
  EXPECT_EQ(again->front().dataAs<float>()[3], 24.0f);

  // A new shape is a new kernel.
  HostTensor c = filled({3}, {1, 2, 3});
  ASSERT_TRUE(static_cast<bool>(executor.run({"ms.add", ""}, {c, c})));
  EXPECT_EQ(executor.stats().misses, 2u);

  // New attributes are a new kernel too.
  HostTensor m = filled({2, 3}, {1, 2, 3, 4, 5, 6});
  auto sum0 = executor.run({"ms.reduce_sum", "{axes = array<i64: 0>}"}, {m});
  auto sum1 = executor.run({"ms.reduce_sum", "{axes = array<i64: 1>}"}, {m});
  ASSERT_TRUE(sum0 && sum1);
  EXPECT_EQ(executor.stats().misses, 4u);
  EXPECT_EQ(executor.numKernels(), 4u);
  EXPECT_EQ(sum0->front().typeString(), "tensor<3xf32>");
  EXPECT_EQ(sum1->front().typeString(), "tensor<2xf32>");
  EXPECT_EQ(sum1->front().dataAs<float>()[1], 15.0f);
  EXPECT_GT(executor.stats().compileSeconds, 0.0);
}

TEST_F(EagerExecutorTest, ShapeMismatchIsAnErrorNamingTheDims) {
  HostTensor x(DType::F32, {4, 8});
  HostTensor w(DType::F32, {3, 9});
  auto out = executor.run({"ms.dense", ""}, {x, w});
  ASSERT_FALSE(static_cast<bool>(out));
  std::string message = errorText(out.takeError());
  EXPECT_NE(message.find("'ms.dense' op input feature size 8"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("weight in-dim 9"), std::string::npos) << message;
  // Nothing bad was cached, and the executor still works.
  EXPECT_EQ(executor.numKernels(), 0u);
  HostTensor good(DType::F32, {3, 8});
  EXPECT_TRUE(static_cast<bool>(executor.run({"ms.dense", ""}, {x, good})));
}

TEST_F(EagerExecutorTest, KernelThatFailsToCompileLeavesExecutorUsable) {
  HostTensor x = filled({4}, {1, 2, 3, 4});
  // Training-mode dropout verifies but the lowering rejects it.
  auto out = executor.run({"ms.dropout", "{training}"}, {x});
  ASSERT_FALSE(static_cast<bool>(out));
  std::string message = errorText(out.takeError());
  EXPECT_NE(message.find("in training mode is not supported"),
            std::string::npos)
      << message;
  // Asking again fails the same way (failures are not cached as kernels) ...
  auto second = executor.run({"ms.dropout", "{training}"}, {x});
  ASSERT_FALSE(static_cast<bool>(second));
  llvm::consumeError(second.takeError());
  EXPECT_EQ(executor.numKernels(), 0u);
  // ... and other ops still compile and run.
  auto neg = executor.run({"ms.neg", ""}, {x});
  ASSERT_TRUE(static_cast<bool>(neg)) << errorText(neg.takeError());
  EXPECT_EQ(neg->front().dataAs<float>()[3], -4.0f);
}

TEST_F(EagerExecutorTest, RejectsUnknownOpsAndBadAttributes) {
  HostTensor x(DType::F32, {4});
  auto unknown = executor.run({"ms.frobnicate", ""}, {x});
  ASSERT_FALSE(static_cast<bool>(unknown));
  EXPECT_NE(errorText(unknown.takeError()).find("is not an ms op"),
            std::string::npos);

  auto foreign = executor.run({"arith.addf", ""}, {x, x});
  ASSERT_FALSE(static_cast<bool>(foreign));
  EXPECT_NE(errorText(foreign.takeError()).find("is not an ms op"),
            std::string::npos);

  auto garbage = executor.run({"ms.softmax", "{axis = }"}, {x});
  ASSERT_FALSE(static_cast<bool>(garbage));
  EXPECT_NE(errorText(garbage.takeError()).find("attribute"),
            std::string::npos);

  auto missing = executor.run({"ms.reshape", ""}, {x});
  ASSERT_FALSE(static_cast<bool>(missing));
  EXPECT_NE(errorText(missing.takeError()).find("requires attribute 'shape'"),
            std::string::npos);

  auto wrongArity = executor.run({"ms.add", ""}, {x});
  ASSERT_FALSE(static_cast<bool>(wrongArity));
  EXPECT_EQ(errorText(wrongArity.takeError()),
            "'ms.add' takes 2 operands, got 1");
  auto denseArity = executor.run({"ms.dense", ""}, {x});
  ASSERT_FALSE(static_cast<bool>(denseArity));
  EXPECT_EQ(errorText(denseArity.takeError()),
            "'ms.dense' takes 2 or 3 operands, got 1");
  auto intInput = executor.run({"ms.relu", ""}, {HostTensor(DType::I32, {4})});
  ASSERT_FALSE(static_cast<bool>(intInput));
  EXPECT_NE(errorText(intInput.takeError()).find("must be ranked tensor of "
                                                 "32-bit float values"),
            std::string::npos);

  EXPECT_EQ(executor.numKernels(), 0u);
  EXPECT_TRUE(static_cast<bool>(executor.run({"ms.abs", ""}, {x})));
}

TEST_F(EagerExecutorTest, MatchesHandComputedDense) {
  // y = x @ w^T + b with x [1, 3], w [2, 3], b [2].
  HostTensor x = filled({1, 3}, {1, 2, 3});
  HostTensor w = filled({2, 3}, {1, 0, -1, 0.5f, 0.5f, 0.5f});
  HostTensor b = filled({2}, {0.25f, -1});
  auto out = executor.run({"ms.dense", ""}, {x, w, b});
  ASSERT_TRUE(static_cast<bool>(out)) << errorText(out.takeError());
  EXPECT_EQ(out->front().dataAs<float>()[0], 1 - 3 + 0.25f);
  EXPECT_EQ(out->front().dataAs<float>()[1], 3 - 1.0f);
}

} // namespace

namespace {

TEST(EagerExecutorInferTest, InfersResultTypesWithoutCompiling) {
  EagerExecutor executor;
  TensorSpec x{DType::F32, {64, 1, 28, 28}, ""};
  auto flat = executor.inferResults({"ms.flatten", ""}, {x});
  ASSERT_TRUE(static_cast<bool>(flat)) << llvm::toString(flat.takeError());
  EXPECT_EQ(flat->front().typeString(), "tensor<64x784xf32>");
  TensorSpec w{DType::F32, {10, 784}, ""};
  auto dense = executor.inferResults({"ms.dense", ""}, {flat->front(), w});
  ASSERT_TRUE(static_cast<bool>(dense));
  EXPECT_EQ(dense->front().typeString(), "tensor<64x10xf32>");
  auto bad = executor.inferResults({"ms.dense", ""}, {x, w});
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("does not match weight"),
            std::string::npos);
  EXPECT_EQ(executor.numKernels(), 0u);
  EXPECT_EQ(executor.stats().misses, 0u);
}

} // namespace
