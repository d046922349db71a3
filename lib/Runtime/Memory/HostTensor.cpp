//===- HostTensor.cpp - Dense host-side tensor buffer ---------------------===//

#include "ms/Runtime/Memory/HostTensor.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>
#include <iterator>

using namespace ms::runtime;

std::string ms::runtime::shapeString(llvm::ArrayRef<int64_t> shape) {
  std::string result;
  llvm::raw_string_ostream os(result);
  os << '[';
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      os << ", ";
    os << shape[i];
  }
  os << ']';
  return result;
}

std::optional<uint64_t>
ms::runtime::checkedByteSize(DType dtype, llvm::ArrayRef<int64_t> shape) {
  // The compiler builtin, not llvm::checkedMul: this runs on every PyNative
  // op, and checkedMul's APInt division showed in its profile.
  int64_t count = 1;
  for (int64_t d : shape)
    if (d < 0 || __builtin_mul_overflow(count, d, &count))
      return std::nullopt;
  int64_t bytes;
  if (__builtin_mul_overflow(count, static_cast<int64_t>(dtypeSize(dtype)),
                             &bytes))
    return std::nullopt;
  return static_cast<uint64_t>(bytes);
}

HostTensor::HostTensor(DType dtype, llvm::ArrayRef<int64_t> shape) {
  llvm::Expected<HostTensor> tensor = allocate(dtype, shape);
  if (!tensor)
    llvm::report_fatal_error("HostTensor " + llvm::Twine(dtypeName(dtype)) +
                             shapeString(shape) + ": " +
                             llvm::toString(tensor.takeError()));
  *this = std::move(*tensor);
}

HostTensor HostTensor::adopt(DType dtype, llvm::ArrayRef<int64_t> shape,
                             std::shared_ptr<void> storage) {
  HostTensor tensor;
  tensor.valid = true;
  tensor.elementType = dtype;
  tensor.dims.assign(shape.begin(), shape.end());
  tensor.numElts = 1;
  for (int64_t d : shape)
    tensor.numElts *= d;
  tensor.storage = std::move(storage);
  return tensor;
}

llvm::Expected<HostTensor>
HostTensor::allocateFrom(DType dtype, llvm::ArrayRef<int64_t> shape,
                         StorageSource source) {
  auto error = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  for (int64_t d : shape)
    if (d < 0)
      return error("negative dimension");
  std::optional<uint64_t> bytes = checkedByteSize(dtype, shape);
  if (!bytes)
    return error("size overflows");
  std::shared_ptr<void> storage = source(*bytes);
  if (!storage)
    return error("needs " + formatByteSize(*bytes) + ", allocation failed");
  return adopt(dtype, shape, std::move(storage));
}

llvm::Expected<HostTensor>
HostTensor::allocate(DType dtype, llvm::ArrayRef<int64_t> shape) {
  return allocateFrom(dtype, shape, [](uint64_t bytes) {
    // calloc, not aligned_alloc + memset: large blocks come from mmap
    // already zeroed, so a big tensor is not touched page by page before
    // use. The extra kAlignment bytes make room to align (and keep empty
    // tensors' data() non-null). bytes fits in int64, so this sum cannot
    // wrap.
    void *raw = std::calloc(1, bytes + kAlignment);
    if (!raw)
      return std::shared_ptr<void>();
    uintptr_t address = reinterpret_cast<uintptr_t>(raw);
    void *aligned = reinterpret_cast<void *>((address + kAlignment - 1) &
                                             ~uintptr_t(kAlignment - 1));
    return std::shared_ptr<void>(aligned, [raw](void *) { std::free(raw); });
  });
}

std::vector<int64_t> HostTensor::strides() const {
  std::vector<int64_t> result(dims.size(), 1);
  for (size_t i = dims.size(); i > 1; --i)
    result[i - 2] = result[i - 1] * dims[i - 1];
  return result;
}

std::string HostTensor::typeString() const {
  std::string result = "tensor<";
  for (int64_t d : dims)
    result += std::to_string(d) + "x";
  result += dtypeName(elementType).str();
  result += ">";
  return result;
}

bool HostTensor::sameTypeAs(const HostTensor &other) const {
  return valid == other.valid && elementType == other.elementType &&
         dims == other.dims;
}

HostTensor HostTensor::clone() const {
  if (!valid)
    return HostTensor();
  HostTensor copy(elementType, dims);
  if (byteSize())
    std::memcpy(copy.data(), data(), byteSize());
  return copy;
}
