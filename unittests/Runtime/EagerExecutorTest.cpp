//===- EagerExecutorTest.cpp - PyNative executor and kernel cache ---------===//

#include "ms/Runtime/Execution/EagerExecutor.h"
#include "ms/Runtime/Execution/KernelCache.h"

#include "gtest/gtest.h"

#include <chrono>

#include <cmath>
#include <string>
#include <vector>

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

TEST_F(EagerExecutorTest, RunTimeIsTheKernelsShareOfTheWallTime) {
  // runSeconds is counted in timestamp ticks and converted when read: it
  // must be positive and within the wall time the runs took.
  HostTensor x(DType::F32, {256, 256});
  ASSERT_TRUE(static_cast<bool>(executor.run({"ms.tanh", ""}, {x})));
  double before = executor.stats().runSeconds; // the first run's
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 200; ++i)
    ASSERT_TRUE(static_cast<bool>(executor.run({"ms.tanh", ""}, {x})));
  std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
  double ran = executor.stats().runSeconds - before;
  EXPECT_GT(ran, 0.0);
  EXPECT_LE(ran, wall.count() * 1.05);
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
  // Training-mode dropout without its rng_state infers a result type, but
  // the verifier rejects the kernel when it is built.
  auto out = executor.run({"ms.dropout", "{training}"}, {x});
  ASSERT_FALSE(static_cast<bool>(out));
  std::string message = errorText(out.takeError());
  EXPECT_NE(message.find("in training mode needs an rng_state operand"),
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
  auto intInput = executor.run({"ms.exp", ""}, {HostTensor(DType::I32, {4})});
  ASSERT_FALSE(static_cast<bool>(intInput));
  EXPECT_NE(errorText(intInput.takeError())
                .find("must be ranked tensor of floats (f16, bf16, f32 or "
                      "f64), but got 'tensor<4xi32>'"),
            std::string::npos);

  EXPECT_EQ(executor.numKernels(), 0u);
  EXPECT_TRUE(static_cast<bool>(executor.run({"ms.abs", ""}, {x})));
}

TEST_F(EagerExecutorTest, ReshapesCopyWithoutCompilingAKernel) {
  HostTensor x = filled({2, 1, 3}, {1, 2, 3, 4, 5, 6});
  auto flat = executor.run({"ms.flatten", ""}, {x});
  ASSERT_TRUE(static_cast<bool>(flat)) << errorText(flat.takeError());
  auto shaped = executor.run({"ms.reshape", "{shape = array<i64: 3, -1>}"},
                             {x});
  ASSERT_TRUE(static_cast<bool>(shaped)) << errorText(shaped.takeError());
  EXPECT_EQ(flat->front().typeString(), "tensor<2x3xf32>");
  EXPECT_EQ(shaped->front().typeString(), "tensor<3x2xf32>");
  for (const HostTensor &y : {flat->front(), shaped->front()}) {
    // A copy of the elements in order, in a buffer of its own.
    EXPECT_NE(y.data(), x.data());
    for (int i = 0; i < 6; ++i)
      EXPECT_EQ(y.dataAs<float>()[i], float(i + 1)) << i;
  }
  // Run again (its shape now known) and compiled nothing either time.
  ASSERT_TRUE(static_cast<bool>(executor.run({"ms.flatten", ""}, {x})));
  EXPECT_EQ(executor.stats().misses, 0u);
  EXPECT_EQ(executor.stats().hits, 0u);
  EXPECT_EQ(executor.numKernels(), 0u);
}

TEST_F(EagerExecutorTest, ReshapeToAnotherElementCountIsAnError) {
  HostTensor x = filled({2, 3}, {1, 2, 3, 4, 5, 6});
  auto bad = executor.run({"ms.reshape", "{shape = array<i64: 4, 2>}"}, {x});
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_NE(errorText(bad.takeError()).find("ms.reshape"), std::string::npos);
  // The executor stays usable.
  EXPECT_TRUE(static_cast<bool>(executor.run({"ms.flatten", ""}, {x})));
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

TEST_F(EagerExecutorTest, RunsALoadedGraphKernelByKernel) {
  auto graph = executor.loadGraph(R"mlir(
func.func @construct(%x: tensor<1x4xf32>, %y: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = ms.add %x, %y : tensor<1x4xf32>, tensor<1x4xf32>
  %1 = ms.relu %0 : tensor<1x4xf32>
  return %1 : tensor<1x4xf32>
}
)mlir",
                                  "construct");
  ASSERT_TRUE(static_cast<bool>(graph)) << errorText(graph.takeError());
  HostTensor x = filled({1, 4}, {-2, 1, 0.5f, 3});
  HostTensor y = filled({1, 4}, {1, -3, 0.5f, 1});
  auto out = (*graph)->run({x, y});
  ASSERT_TRUE(static_cast<bool>(out)) << errorText(out.takeError());
  const float *r = out->front().dataAs<float>();
  EXPECT_EQ(r[0], 0.0f);
  EXPECT_EQ(r[1], 0.0f);
  EXPECT_EQ(r[2], 1.0f);
  EXPECT_EQ(r[3], 4.0f);
  // One kernel per op.
  EXPECT_EQ(executor.stats().misses, 2u);
  // The signature is checked before any op runs.
  auto wrong = (*graph)->run({x});
  ASSERT_FALSE(static_cast<bool>(wrong));
  consumeError(wrong.takeError());
}

TEST_F(EagerExecutorTest, LoadedGraphRunsAgainWithConstantsAndAttributes) {
  // The graph is prepared once at load (op calls, value slots); each run
  // materializes its constants and looks its kernels up again.
  auto graph = executor.loadGraph(R"mlir(
func.func @construct(%x: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2x3xf32>) {
  %c = arith.constant dense<2.0> : tensor<2x3xf32>
  %0 = ms.mul %x, %c : tensor<2x3xf32>, tensor<2x3xf32>
  %1 = ms.reduce_sum %0 axes [1] : tensor<2x3xf32>
  return %1, %x : tensor<2xf32>, tensor<2x3xf32>
}
)mlir",
                                  "construct");
  ASSERT_TRUE(static_cast<bool>(graph)) << errorText(graph.takeError());
  HostTensor x = filled({2, 3}, {1, 2, 3, -1, 0, 4});
  for (int run = 0; run < 2; ++run) {
    auto out = (*graph)->run({x});
    ASSERT_TRUE(static_cast<bool>(out)) << errorText(out.takeError());
    ASSERT_EQ(out->size(), 2u);
    EXPECT_EQ(out->front().dataAs<float>()[0], 12.0f);
    EXPECT_EQ(out->front().dataAs<float>()[1], 6.0f);
    // An argument returned as is is the caller's buffer.
    EXPECT_EQ((*out)[1].data(), x.data());
  }
  EXPECT_EQ(executor.stats().misses, 2u);
  EXPECT_EQ(executor.stats().hits, 2u);
}

TEST_F(EagerExecutorTest, LoadGraphRejectsOpsThatAreNotMsOps) {
  auto graph = executor.loadGraph(R"mlir(
func.func @construct(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
)mlir",
                                  "construct", "<g>");
  ASSERT_FALSE(static_cast<bool>(graph));
  std::string text = errorText(graph.takeError());
  EXPECT_NE(text.find("<g>:3:"), std::string::npos) << text;
  EXPECT_NE(text.find("PyNative runs ms ops only; 'arith.addf' is not one"),
            std::string::npos)
      << text;
}

TEST_F(EagerExecutorTest, LoadGraphReportsBadSourceAndEntry) {
  auto bad = executor.loadGraph("func.func @construct(", "construct", "<g>");
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_NE(errorText(bad.takeError()).find("<g>"), std::string::npos);
  auto missing = executor.loadGraph("func.func @f() { return }", "construct");
  ASSERT_FALSE(static_cast<bool>(missing));
  EXPECT_EQ(errorText(missing.takeError()),
            "no function named @construct in the graph");
}

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

//===----------------------------------------------------------------------===//
// The LRU bound of the kernel cache
//===----------------------------------------------------------------------===//

namespace {

std::vector<std::string> recency(const LRUCache<int> &cache) {
  return {cache.keysByRecency().begin(), cache.keysByRecency().end()};
}

/// Counts destructions, to see that eviction frees what a value owns.
struct Tracked {
  explicit Tracked(int *live) : live(live) { ++*live; }
  ~Tracked() { --*live; }
  int *live;
};

} // namespace

TEST(LRUCacheTest, CountsHitsAndMisses) {
  LRUCache<int> cache(4);
  EXPECT_EQ(cache.lookup("a"), nullptr);
  int *a = cache.insert("a", std::make_unique<int>(1));
  EXPECT_EQ(cache.lookup("a"), a);
  EXPECT_EQ(*cache.lookup("a"), 1);
  EXPECT_EQ(cache.lookup("b"), nullptr);
  EXPECT_EQ(cache.hits(), 2u);
  EXPECT_EQ(cache.misses(), 2u);
  EXPECT_EQ(cache.evictions(), 0u);
  EXPECT_EQ(cache.size(), 1u);
}

TEST(LRUCacheTest, EvictsTheLeastRecentlyUsed) {
  LRUCache<int> cache(3);
  cache.insert("a", std::make_unique<int>(1));
  cache.insert("b", std::make_unique<int>(2));
  cache.insert("c", std::make_unique<int>(3));
  EXPECT_EQ(recency(cache), (std::vector<std::string>{"c", "b", "a"}));
  // A hit makes "a" the most recently used, so "b" goes first.
  ASSERT_NE(cache.lookup("a"), nullptr);
  EXPECT_EQ(recency(cache), (std::vector<std::string>{"a", "c", "b"}));
  cache.insert("d", std::make_unique<int>(4));
  EXPECT_EQ(cache.size(), 3u);
  EXPECT_EQ(cache.evictions(), 1u);
  EXPECT_EQ(cache.lookup("b"), nullptr);
  EXPECT_EQ(recency(cache), (std::vector<std::string>{"d", "a", "c"}));
  cache.insert("e", std::make_unique<int>(5));
  EXPECT_EQ(cache.lookup("c"), nullptr);
  EXPECT_EQ(*cache.lookup("a"), 1);
  EXPECT_EQ(*cache.lookup("d"), 4);
  EXPECT_EQ(*cache.lookup("e"), 5);
  EXPECT_EQ(cache.evictions(), 2u);
}

TEST(LRUCacheTest, ReplacingAKeyEvictsNothing) {
  LRUCache<int> cache(2);
  cache.insert("a", std::make_unique<int>(1));
  cache.insert("b", std::make_unique<int>(2));
  cache.insert("a", std::make_unique<int>(10));
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.evictions(), 0u);
  EXPECT_EQ(*cache.lookup("a"), 10);
  EXPECT_EQ(recency(cache), (std::vector<std::string>{"a", "b"}));
}

TEST(LRUCacheTest, ShrinkingFreesTheOldestValues) {
  int live = 0;
  LRUCache<Tracked> cache(8);
  for (std::string key : {"a", "b", "c", "d", "e"})
    cache.insert(key, std::make_unique<Tracked>(&live));
  EXPECT_EQ(live, 5);
  cache.setCapacity(2);
  EXPECT_EQ(live, 2);
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.evictions(), 3u);
  EXPECT_NE(cache.lookup("e"), nullptr);
  EXPECT_NE(cache.lookup("d"), nullptr);
  EXPECT_EQ(cache.lookup("a"), nullptr);
  // A capacity of 0 would evict what was just inserted: it means 1.
  cache.setCapacity(0);
  EXPECT_EQ(cache.capacity(), 1u);
  Tracked *kept = cache.insert("f", std::make_unique<Tracked>(&live));
  EXPECT_EQ(cache.lookup("f"), kept);
  EXPECT_EQ(live, 1);
}

TEST(EagerKernelCacheTest, KeepsAtMostTheConfiguredKernels) {
  EagerOptions options;
  options.kernelCacheSize = 2;
  EagerExecutor executor(options);
  EXPECT_EQ(executor.kernelCacheSize(), 2u);
  // Three shapes: three kernels compiled, the first evicted.
  for (int64_t n : {1, 2, 3}) {
    HostTensor x(DType::F32, {n});
    ASSERT_TRUE(static_cast<bool>(executor.run({"ms.relu", ""}, {x})));
  }
  EXPECT_EQ(executor.numKernels(), 2u);
  EXPECT_EQ(executor.stats().misses, 3u);
  EXPECT_EQ(executor.stats().evictions, 1u);
  // Shape 3 is still cached; shape 1 compiles again (and evicts shape 2).
  HostTensor three = filled({3}, {-1, 2, -3});
  auto hit = executor.run({"ms.relu", ""}, {three});
  ASSERT_TRUE(static_cast<bool>(hit));
  EXPECT_EQ(executor.stats().hits, 1u);
  EXPECT_EQ(hit->front().dataAs<float>()[1], 2.0f);
  HostTensor one(DType::F32, {1});
  ASSERT_TRUE(static_cast<bool>(executor.run({"ms.relu", ""}, {one})));
  EXPECT_EQ(executor.stats().misses, 4u);
  EXPECT_EQ(executor.stats().evictions, 2u);
  EXPECT_NE(formatStats(executor.stats()).find("2 evictions"),
            std::string::npos);
  executor.setKernelCacheSize(1);
  EXPECT_EQ(executor.numKernels(), 1u);
  EXPECT_EQ(executor.stats().evictions, 3u);
}
