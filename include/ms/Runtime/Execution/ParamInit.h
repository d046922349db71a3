//===- ParamInit.h - Default parameter initialization -----------*- C++ -*-===//
//
// Fills parameters the way MindSpore's layers do when no checkpoint gives
// them: nn.Dense's HeUniform(sqrt(5)) weight and Uniform bias, both
// U(-1/sqrt(fan_in), 1/sqrt(fan_in)); norm scales (gamma, moving_variance)
// with ones; shifts and means with zeros. Deterministic per (seed, name), so
// adding a parameter does not change the others.
//
//===----------------------------------------------------------------------===//
#ifndef MS_RUNTIME_EXECUTION_PARAMINIT_H
#define MS_RUNTIME_EXECUTION_PARAMINIT_H

#include "ms/Runtime/Jit/Signature.h"

namespace ms {
namespace runtime {

/// A deterministic uniform generator on [0, 1) (splitmix64 + 24-bit floats).
class UniformRandom {
public:
  explicit UniformRandom(uint64_t seed) : state(seed) {}
  uint64_t nextBits();
  float next() { return static_cast<float>(nextBits() >> 40) * 0x1p-24f; }

private:
  uint64_t state;
};

/// Fills `tensor` (f32) with U[low, high) from `seed`.
void fillUniform(HostTensor &tensor, float low, float high, uint64_t seed);

/// Initializes the parameter `spec` of `signature` as its layer would.
/// Errors if the name does not say which kind of parameter it is.
llvm::Expected<HostTensor> initParameter(const TensorSpec &spec,
                                         const EntrySignature &signature,
                                         uint64_t seed);

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_EXECUTION_PARAMINIT_H
