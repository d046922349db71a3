//===- EvaluationTest.cpp - Classifier scoring over IDX data --------------===//

#include "ms/Runtime/Execution/Evaluation.h"

#include "gtest/gtest.h"

using namespace ms::runtime;

namespace {

/// `count` one-element items valued 0..count-1, as an IDX array.
IdxArray items(const std::string &path, int64_t count, int64_t modulo) {
  IdxArray idx;
  idx.path = path;
  idx.dims = {count};
  for (int64_t i = 0; i < count; ++i)
    idx.data.push_back(static_cast<uint8_t>(i % modulo));
  return idx;
}

TEST(EvaluationTest, ArgmaxTakesTheFirstOfTies) {
  HostTensor logits(DType::F32, {2, 3});
  float values[] = {1, 5, 5, -1, -2, -3};
  std::copy(values, values + 6, logits.dataAs<float>());
  EXPECT_EQ(argmaxRows(logits), (std::vector<int64_t>{1, 0}));
}

/// A "classifier" that predicts (pixel * 255) % 3 for each one-pixel image:
/// right exactly when the label is pixel % 3.
llvm::Expected<HostTensor> predictMod3(const HostTensor &batch) {
  int64_t n = batch.shape()[0];
  HostTensor logits(DType::F32, {n, 3});
  for (int64_t i = 0; i < n; ++i) {
    int64_t pixel = static_cast<int64_t>(batch.dataAs<float>()[i] * 255 + 0.5);
    logits.dataAs<float>()[i * 3 + pixel % 3] = 1.0f;
  }
  return logits;
}

TEST(EvaluationTest, ScoresEveryImageOnceIncludingAShortLastBatch) {
  IdxArray images = items("images", 10, 256);
  IdxArray labels = items("labels", 10, 3);
  labels.data[4] = 0; // One wrong label: 4 % 3 = 1.
  int calls = 0;
  auto score = evaluateClassifier(images, labels, DType::F32, {4, 1}, 0,
                                  [&](const HostTensor &batch) {
                                    ++calls;
                                    return predictMod3(batch);
                                  });
  ASSERT_TRUE(static_cast<bool>(score)) << llvm::toString(score.takeError());
  EXPECT_EQ(score->total, 10);
  EXPECT_EQ(score->correct, 9);
  EXPECT_EQ(calls, 1 + 3); // The warm-up batch, then batches of 4, 4, 2.

  auto limited = evaluateClassifier(images, labels, DType::F32, {4, 1}, 5,
                                    predictMod3);
  ASSERT_TRUE(static_cast<bool>(limited));
  EXPECT_EQ(limited->total, 5);
  EXPECT_EQ(limited->correct, 4);
}

TEST(EvaluationTest, RejectsMismatchedLabelsAndLogits) {
  IdxArray images = items("images", 10, 256);
  auto fewer = evaluateClassifier(images, items("labels", 9, 3), DType::F32,
                                  {4, 1}, 0, predictMod3);
  ASSERT_FALSE(static_cast<bool>(fewer));
  EXPECT_EQ(llvm::toString(fewer.takeError()),
            "labels has 9 labels, but images has 10 images");
  auto wrongRank = evaluateClassifier(
      images, items("labels", 10, 3), DType::F32, {4, 1}, 0,
      [](const HostTensor &) -> llvm::Expected<HostTensor> {
        return HostTensor(DType::F32, {4});
      });
  ASSERT_FALSE(static_cast<bool>(wrongRank));
  EXPECT_NE(llvm::toString(wrongRank.takeError()).find("needs f32 logits [4"),
            std::string::npos);
}

TEST(EvaluationTest, RejectsLabelsOutsideTheClasses) {
  IdxArray images = items("images", 10, 256);
  // predictMod3 has 3 classes: labels 0, 1 and 2 only.
  IdxArray labels = items("labels", 10, 3);
  labels.data[6] = 200;
  labels.data[8] = 3;
  auto score = evaluateClassifier(images, labels, DType::F32, {4, 1}, 0,
                                  predictMod3);
  ASSERT_FALSE(static_cast<bool>(score));
  EXPECT_EQ(llvm::toString(score.takeError()),
            "labels: label 6 is 200, outside the entry's 3 classes [0, 2]");
  // Only the evaluated labels count.
  auto limited = evaluateClassifier(images, labels, DType::F32, {4, 1}, 6,
                                    predictMod3);
  ASSERT_TRUE(static_cast<bool>(limited))
      << llvm::toString(limited.takeError());
  EXPECT_EQ(limited->total, 6);

  // Signed and fractional labels (i8 and f32 IDX data) are checked too.
  IdxArray negative = labels;
  negative.type = IdxType::I8;
  negative.data[6] = 0xff;
  auto fromNegative = evaluateClassifier(images, negative, DType::F32, {4, 1},
                                         0, predictMod3);
  ASSERT_FALSE(static_cast<bool>(fromNegative));
  EXPECT_EQ(llvm::toString(fromNegative.takeError()),
            "labels: label 6 is -1, outside the entry's 3 classes [0, 2]");
  IdxArray fractional;
  fractional.path = "labels";
  fractional.type = IdxType::F32;
  fractional.dims = {10};
  const uint8_t oneAndAHalf[] = {0x3f, 0xc0, 0, 0}; // 1.5f, big-endian
  const uint8_t zero[] = {0, 0, 0, 0};
  for (int i = 0; i < 10; ++i)
    fractional.data.insert(fractional.data.end(), i == 2 ? oneAndAHalf : zero,
                           (i == 2 ? oneAndAHalf : zero) + 4);
  auto fromFraction = evaluateClassifier(images, fractional, DType::F32,
                                         {4, 1}, 0, predictMod3);
  ASSERT_FALSE(static_cast<bool>(fromFraction));
  EXPECT_EQ(llvm::toString(fromFraction.takeError()),
            "labels: label 2 is 1.5, outside the entry's 3 classes [0, 2]");
}

} // namespace
