//===- StepLoopTest.cpp - Dataset sink mode's step loop -------------------===//

#include "ms/Runtime/Execution/StepLoop.h"
#include "ms/Support/Error.h"

#include "gtest/gtest.h"

using namespace ms::runtime;

namespace {

HostTensor scalar(float value) {
  HostTensor t(DType::F32, {});
  *t.dataAs<float>() = value;
  return t;
}

float valueOf(const HostTensor &t) { return *t.dataAs<float>(); }

/// Batches 1, 2, ..., count, then the end of the data.
struct Batches {
  int64_t count, served = 0;
  llvm::Expected<bool> operator()(std::vector<HostTensor> &batch) {
    if (served == count)
      return false;
    batch.push_back(scalar(static_cast<float>(++served)));
    return true;
  }
};

/// A "train step" on (batch, w, scale): loss = w * batch, and w becomes
/// w - batch * scale (updated in place when donated, as a compiled step
/// updates a parameter it may overwrite). Records each call's donations.
struct Step {
  std::vector<std::vector<bool>> donations;
  llvm::Expected<std::vector<HostTensor>>
  operator()(llvm::ArrayRef<HostTensor> args,
             llvm::function_ref<bool(size_t)> donated) {
    donations.push_back({donated(0), donated(1), donated(2)});
    float batch = valueOf(args[0]), w = valueOf(args[1]);
    HostTensor updated = donated(1) ? args[1] : scalar(0);
    *updated.dataAs<float>() = w - batch * valueOf(args[2]);
    return std::vector<HostTensor>{scalar(w * batch), updated};
  }
};

bool anyArgs(llvm::ArrayRef<HostTensor>) { return true; }

StepLoopState startingAt(float w, bool owned) {
  StepLoopState state;
  state.params = {scalar(w)};
  state.owned = {owned};
  return state;
}

TEST(StepLoopTest, EachStepSeesTheLastStepsParameters) {
  Batches batches{10};
  Step step;
  StepLoopState state = startingAt(1.0f, /*owned=*/false);
  HostTensor scale = scalar(0.5f);
  ParamUpdate update{0, 1};
  ASSERT_FALSE(llvm::errorToBool(
      runStepLoop(batches, anyArgs, step, scale, update, /*maxSteps=*/3, state)));
  // w: 1 -> 0.5 -> -0.5 -> -2; the last loss is w * 3 before the update.
  EXPECT_EQ(state.steps, 3);
  EXPECT_EQ(batches.served, 3);
  EXPECT_FLOAT_EQ(valueOf(state.params[0]), -2.0f);
  ASSERT_EQ(state.outputs.size(), 2u);
  EXPECT_FLOAT_EQ(valueOf(state.outputs[0]), -1.5f);
}

TEST(StepLoopTest, OnlyTheLoopsOwnParametersAreDonated) {
  Batches batches{10};
  Step step;
  HostTensor callers = scalar(1.0f);
  StepLoopState state;
  state.params = {callers};
  state.owned = {false};
  HostTensor scale = scalar(0.5f);
  ParamUpdate update{0, 1};
  ASSERT_FALSE(llvm::errorToBool(
      runStepLoop(batches, anyArgs, step, scale, update, 3, state)));
  // Never the batch or the capture; the parameter once the loop owns it.
  std::vector<std::vector<bool>> want = {
      {false, false, false}, {false, true, false}, {false, true, false}};
  EXPECT_EQ(step.donations, want);
  // The caller's buffer kept its value.
  EXPECT_FLOAT_EQ(valueOf(callers), 1.0f);
}

TEST(StepLoopTest, StopsWhenTheDataEnds) {
  Batches batches{2};
  Step step;
  StepLoopState state = startingAt(1.0f, true);
  HostTensor scale = scalar(1.0f);
  ParamUpdate update{0, 1};
  ASSERT_FALSE(llvm::errorToBool(
      runStepLoop(batches, anyArgs, step, scale, update, 5, state)));
  EXPECT_EQ(state.steps, 2);
  EXPECT_FLOAT_EQ(valueOf(state.params[0]), -2.0f);
}

TEST(StepLoopTest, StopsAtABatchTheStepDoesNotMatch) {
  Batches batches{10};
  Step step;
  // The third batch "has another shape": the step was not compiled for it.
  auto notThree = [](llvm::ArrayRef<HostTensor> args) {
    return valueOf(args[0]) != 3.0f;
  };
  StepLoopState state = startingAt(1.0f, true);
  HostTensor scale = scalar(0.5f);
  ParamUpdate update{0, 1};
  ASSERT_FALSE(llvm::errorToBool(
      runStepLoop(batches, notThree, step, scale, update, 5, state)));
  EXPECT_EQ(state.steps, 2);
  ASSERT_EQ(state.unmatched.size(), 1u);
  EXPECT_FLOAT_EQ(valueOf(state.unmatched[0]), 3.0f);
  EXPECT_EQ(step.donations.size(), 2u);
}

TEST(StepLoopTest, AnErrorNamesItsStep) {
  Batches batches{5};
  int calls = 0;
  auto failing = [&](llvm::ArrayRef<HostTensor>, llvm::function_ref<bool(size_t)>)
      -> llvm::Expected<std::vector<HostTensor>> {
    if (++calls == 2)
      return ms::makeError("argument 0: expected tensor<f32>");
    return std::vector<HostTensor>{scalar(0), scalar(0)};
  };
  StepLoopState state = startingAt(1.0f, true);
  HostTensor scale = scalar(1.0f);
  ParamUpdate update{0, 1};
  llvm::Error err = runStepLoop(batches, anyArgs, failing, scale, update, 5, state);
  EXPECT_EQ(llvm::toString(std::move(err)),
            "dataset sink mode: step 2: argument 0: expected tensor<f32>");
  EXPECT_EQ(state.steps, 1);
}

TEST(StepLoopTest, APipelineErrorNamesItsStep) {
  auto broken = [](std::vector<HostTensor> &) -> llvm::Expected<bool> {
    return ms::makeError("decode failed");
  };
  Step step;
  StepLoopState state = startingAt(1.0f, true);
  llvm::Error err = runStepLoop(broken, anyArgs, step, {}, {}, 5, state);
  EXPECT_EQ(llvm::toString(std::move(err)),
            "dataset sink mode: step 1: decode failed");
  EXPECT_TRUE(step.donations.empty());
}

} // namespace
