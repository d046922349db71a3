//===- Evaluation.cpp - Classifier accuracy over an IDX data set ----------===//

#include "ms/Runtime/Evaluation.h"

#include "llvm/ADT/Twine.h"

#include <chrono>

using namespace ms::runtime;

namespace {
llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}
} // namespace

std::vector<int64_t> ms::runtime::argmaxRows(const HostTensor &logits) {
  int64_t rows = logits.shape()[0], cols = logits.shape()[1];
  const float *data = logits.dataAs<float>();
  std::vector<int64_t> result(rows, 0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 1; c < cols; ++c)
      if (data[r * cols + c] > data[r * cols + result[r]])
        result[r] = c;
  return result;
}

llvm::Expected<ClassifierScore> ms::runtime::evaluateClassifier(
    const IdxArray &images, const IdxArray &labels, DType dtype,
    llvm::ArrayRef<int64_t> batchShape, int64_t limit, BatchRunner run) {
  if (labels.dims.size() != 1)
    return makeError(labels.path + ": labels must be a 1-D IDX array, got " +
                     shapeString(labels.dims));
  if (labels.numItems() != images.numItems())
    return makeError(labels.path + " has " + llvm::Twine(labels.numItems()) +
                     " labels, but " + images.path + " has " +
                     llvm::Twine(images.numItems()) + " images");
  if (batchShape.empty() || batchShape[0] <= 0)
    return makeError("the entry's input " + shapeString(batchShape) +
                     " has no batch dimension to evaluate in");
  int64_t count = limit > 0 ? std::min(limit, images.numItems())
                            : images.numItems();
  int64_t batch = batchShape[0];

  auto runBatch = [&](int64_t first,
                      ClassifierScore *score) -> llvm::Error {
    auto input = idxSlice(images, first, dtype, batchShape,
                          /*allowShort=*/true);
    if (!input)
      return input.takeError();
    auto logits = run(*input);
    if (!logits)
      return logits.takeError();
    if (logits->dtype() != DType::F32 || logits->shape().size() != 2 ||
        logits->shape()[0] != batch)
      return makeError("the entry returns " +
                       llvm::Twine(dtypeName(logits->dtype())) +
                       shapeString(logits->shape()) + "; evaluation needs f32 "
                       "logits [" + llvm::Twine(batch) + ", classes]");
    if (!score)
      return llvm::Error::success();
    std::vector<int64_t> predicted = argmaxRows(*logits);
    for (int64_t i = 0; i < batch && first + i < count; ++i) {
      score->correct +=
          predicted[i] == static_cast<int64_t>(labels.value(first + i));
      ++score->total;
    }
    return llvm::Error::success();
  };

  ClassifierScore score;
  if (count == 0)
    return score;
  if (auto err = runBatch(0, nullptr))
    return std::move(err);
  auto start = std::chrono::steady_clock::now();
  for (int64_t first = 0; first < count; first += batch)
    if (auto err = runBatch(first, &score))
      return std::move(err);
  score.seconds = std::chrono::duration<double>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  return score;
}
