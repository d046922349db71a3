//===- StepLoop.cpp - Dataset sink mode: many train steps, one call -------===//

#include "ms/Runtime/Execution/StepLoop.h"
#include "ms/Support/Error.h"

#include "llvm/ADT/Twine.h"

using namespace ms::runtime;

namespace {

llvm::Error stepError(int64_t step, llvm::Error err) {
  return ms::makeError("dataset sink mode: step " + llvm::Twine(step) + ": " +
                       llvm::toString(std::move(err)));
}

} // namespace

llvm::Error ms::runtime::runStepLoop(NextBatch next, MatchesStep matches,
                                     RunStep run,
                                     llvm::ArrayRef<HostTensor> captures,
                                     llvm::ArrayRef<ParamUpdate> updates,
                                     int64_t maxSteps, StepLoopState &state) {
  std::vector<HostTensor> batch, args;
  for (int64_t step = 1; step <= maxSteps; ++step) {
    batch.clear();
    llvm::Expected<bool> more = next(batch);
    if (!more)
      return stepError(step, more.takeError());
    if (!*more)
      return llvm::Error::success();
    args = batch;
    args.insert(args.end(), state.params.begin(), state.params.end());
    args.insert(args.end(), captures.begin(), captures.end());
    if (!matches(args)) {
      state.unmatched = std::move(batch);
      return llvm::Error::success();
    }
    // The last results share the updated parameters' buffers: let go of
    // them, so the step may update those in place.
    state.outputs.clear();
    size_t first = batch.size(), count = state.params.size();
    llvm::Expected<std::vector<HostTensor>> results =
        run(args, [&](size_t i) {
          return i >= first && i < first + count && state.owned[i - first];
        });
    if (!results)
      return stepError(step, results.takeError());
    args.clear(); // the step's own references to the old values
    for (const ParamUpdate &update : updates) {
      state.params[update.param] = (*results)[update.result];
      state.owned[update.param] = true;
    }
    state.outputs = std::move(*results);
    ++state.steps;
  }
  return llvm::Error::success();
}
