//===- ParamInit.cpp - Default parameter initialization -------------------===//

#include "ms/Runtime/Execution/ParamInit.h"

#include "llvm/ADT/StringRef.h"

#include <cmath>

namespace ms {
namespace runtime {
namespace {

/// FNV-1a: a stable hash, so a parameter's values do not depend on the
/// standard library.
uint64_t stableHash(llvm::StringRef text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

/// fan_in of an [out, in, ...] weight: the product of every dim but the
/// first. In double: only its square root is used, and a bias may read the
/// shape of a weight too large to allocate, whose product overflows int64.
double fanIn(llvm::ArrayRef<int64_t> shape) {
  double fan = 1;
  for (int64_t d : shape.drop_front())
    fan *= static_cast<double>(d);
  return fan;
}

} // namespace

uint64_t UniformRandom::nextBits() {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void fillUniform(HostTensor &tensor, float low, float high, uint64_t seed) {
  UniformRandom random(seed);
  float *data = tensor.dataAs<float>();
  for (int64_t i = 0, e = tensor.numElements(); i < e; ++i)
    data[i] = low + (high - low) * random.next();
}

llvm::Expected<HostTensor> initParameter(const TensorSpec &spec,
                                         const EntrySignature &signature,
                                         uint64_t seed) {
  llvm::StringRef name = spec.paramName;
  auto fail = [&](const llvm::Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot initialize parameter '" + name +
                                       "' (" + spec.typeString() +
                                       "): " + why);
  };
  if (spec.dtype != DType::F32)
    return fail("only f32 parameters can be initialized");
  llvm::Expected<HostTensor> allocated =
      HostTensor::allocate(spec.dtype, spec.shape);
  if (!allocated)
    return fail(llvm::toString(allocated.takeError()));
  HostTensor tensor = std::move(*allocated);
  uint64_t paramSeed = seed ^ stableHash(name);
  llvm::StringRef leaf = name.rsplit('.').second.empty() ? name
                                                         : name.rsplit('.').second;
  if (leaf == "weight") {
    if (spec.shape.size() < 2)
      return fail("a weight needs rank 2 or more ([out, in, ...])");
    float bound = 1.0f / std::sqrt(static_cast<float>(fanIn(spec.shape)));
    fillUniform(tensor, -bound, bound, paramSeed);
    return tensor;
  }
  if (leaf == "bias") {
    // The bias bound comes from its layer's weight.
    std::string weightName = (name.drop_back(leaf.size()) + "weight").str();
    for (const TensorSpec &other : signature.args) {
      if (other.paramName != weightName)
        continue;
      float bound = 1.0f / std::sqrt(static_cast<float>(fanIn(other.shape)));
      fillUniform(tensor, -bound, bound, paramSeed);
      return tensor;
    }
    return fail("no parameter '" + weightName + "' to take fan_in from");
  }
  if (leaf == "gamma" || leaf == "moving_variance") {
    float *data = tensor.dataAs<float>();
    std::fill(data, data + tensor.numElements(), 1.0f);
    return tensor;
  }
  if (leaf == "beta" || leaf == "moving_mean")
    return tensor; // zero-filled
  return fail("its name does not end in weight, bias, gamma, beta, "
              "moving_mean or moving_variance");
}

} // namespace runtime
} // namespace ms
