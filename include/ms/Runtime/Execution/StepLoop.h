//===- StepLoop.h - Dataset sink mode: many train steps, one call -*- C++ -*-===//
//
// Model.train(dataset_sink_mode=True) runs sink_size steps per call: each
// step takes the data pipeline's next batch and the parameters the last
// step left, so no Python runs between steps. The loop knows neither the
// pipeline nor the compiled step: both come in as callables.
//
//===----------------------------------------------------------------------===//
#ifndef MS_RUNTIME_EXECUTION_STEPLOOP_H
#define MS_RUNTIME_EXECUTION_STEPLOOP_H

#include "ms/Runtime/Memory/HostTensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace ms {
namespace runtime {

/// Fills `batch` with the next batch's columns and returns true, or returns
/// false when the data has ended.
using NextBatch =
    llvm::function_ref<llvm::Expected<bool>(std::vector<HostTensor> &batch)>;

/// Whether the step was compiled for these arguments' types.
using MatchesStep = llvm::function_ref<bool(llvm::ArrayRef<HostTensor> args)>;

/// Runs one step on arguments it matches. `donated(i)` says whether
/// argument i's buffer is the loop's alone, so an update in place may
/// overwrite it.
using RunStep = llvm::function_ref<llvm::Expected<std::vector<HostTensor>>(
    llvm::ArrayRef<HostTensor> args, llvm::function_ref<bool(size_t)> donated)>;

/// Result `result` of a step is the new value of parameter `param`.
struct ParamUpdate {
  size_t param;
  size_t result;
};

/// What the loop carries from step to step.
struct StepLoopState {
  /// The parameters' values: the caller's first, then each step's updates.
  std::vector<HostTensor> params;
  /// Whether params[i]'s buffer is the loop's alone (an updated value
  /// always is); the caller says so for the first values.
  std::vector<bool> owned;
  /// The last step's results.
  std::vector<HostTensor> outputs;
  /// Steps run so far.
  int64_t steps = 0;
  /// The batch the loop stopped at because the step does not match it (a
  /// last partial batch, say: the caller compiles for it); else empty.
  std::vector<HostTensor> unmatched;
};

/// Runs up to `maxSteps` steps, each on (batch columns, state.params,
/// captures), or fewer when the data ends first or a batch does not match
/// the step (left in state.unmatched). An error names the step it
/// happened at (counting from 1 in this call).
llvm::Error runStepLoop(NextBatch next, MatchesStep matches, RunStep run,
                        llvm::ArrayRef<HostTensor> captures,
                        llvm::ArrayRef<ParamUpdate> updates, int64_t maxSteps,
                        StepLoopState &state);

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_EXECUTION_STEPLOOP_H
