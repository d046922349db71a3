//===- Evaluation.h - Classifier accuracy over an IDX data set --*- C++ -*-===//
//
// Runs a classifier over every image of an IDX file, one fixed-size batch at
// a time (the entry's static batch), and scores its argmax against the IDX
// labels. Used by ms-run --eval-labels.
//
//===----------------------------------------------------------------------===//

#ifndef MS_RUNTIME_EXECUTION_EVALUATION_H
#define MS_RUNTIME_EXECUTION_EVALUATION_H

#include "ms/Runtime/Formats/Idx.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace ms {
namespace runtime {

struct ClassifierScore {
  int64_t correct = 0;
  int64_t total = 0;
  /// Wall time of the timed pass (after one untimed warm-up batch).
  double seconds = 0;

  double accuracyPercent() const {
    return total ? 100.0 * double(correct) / double(total) : 0.0;
  }
  double imagesPerSecond() const { return seconds > 0 ? total / seconds : 0; }
};

/// The index of the largest value of each row of a [N, classes] f32 tensor
/// (the first one on ties, like numpy's argmax).
std::vector<int64_t> argmaxRows(const HostTensor &logits);

/// Runs a batch of the entry's input shape; returns its logits [N, classes].
using BatchRunner =
    llvm::function_ref<llvm::Expected<HostTensor>(const HostTensor &batch)>;

/// Scores the first `limit` images (all when `limit` is 0) in batches of
/// `batchShape[0]`; the last batch is zero-padded and only its real images
/// count. The first batch runs once untimed first, so compilation (PyNative
/// kernels) stays out of the timing.
llvm::Expected<ClassifierScore>
evaluateClassifier(const IdxArray &images, const IdxArray &labels,
                   DType dtype, llvm::ArrayRef<int64_t> batchShape,
                   int64_t limit, BatchRunner run);

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_EXECUTION_EVALUATION_H
