//===- Evaluation.cpp - Classifier accuracy over an IDX data set ----------===//

#include "ms/Runtime/Execution/Evaluation.h"
#include "ms/Support/Error.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>

using namespace ms::runtime;

using ms::makeError;

namespace {

/// Every one of the first `count` labels must name one of `classes` classes.
llvm::Error checkLabels(const IdxArray &labels, int64_t count,
                        int64_t classes) {
  for (int64_t i = 0; i < count; ++i) {
    double label = labels.value(i);
    if (label >= 0 && label < double(classes) && label == std::floor(label))
      continue;
    std::string text;
    llvm::raw_string_ostream(text) << llvm::format("%.17g", label);
    return makeError(labels.path + ": label " + llvm::Twine(i) + " is " +
                     text +
                     ", outside the entry's " + llvm::Twine(classes) +
                     " classes [0, " + llvm::Twine(classes - 1) + "]");
  }
  return llvm::Error::success();
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

  int64_t classes = 0;
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
    classes = logits->shape()[1];
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
  // A label no logit can match would only show up as a wrong accuracy.
  if (auto err = checkLabels(labels, count, classes))
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
