//===- HostTensor.cpp - Dense host-side tensor buffer ---------------------===//

#include "ms/Runtime/HostTensor.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>

using namespace ms::runtime;

size_t ms::runtime::dtypeSize(DType dtype) {
  switch (dtype) {
  case DType::F32:
  case DType::I32:
    return 4;
  case DType::F16:
    return 2;
  case DType::I64:
    return 8;
  }
  llvm_unreachable("unknown DType");
}

llvm::StringRef ms::runtime::dtypeName(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "f32";
  case DType::F16:
    return "f16";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  }
  llvm_unreachable("unknown DType");
}

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

HostTensor::HostTensor(DType dtype, llvm::ArrayRef<int64_t> shape)
    : valid(true), elementType(dtype), dims(shape.begin(), shape.end()) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0)
      llvm::report_fatal_error("HostTensor: negative dimension");
    if (d != 0 && n > INT64_MAX / d)
      llvm::report_fatal_error("HostTensor: element count overflows");
    n *= d;
  }
  numElts = n;
  size_t bytes = byteSize();
  if (numElts != 0 && bytes / dtypeSize(dtype) != static_cast<size_t>(n))
    llvm::report_fatal_error("HostTensor: byte size overflows");
  // aligned_alloc needs a non-zero size that is a multiple of the alignment;
  // always allocating keeps data() non-null even for empty tensors.
  size_t allocBytes = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  if (allocBytes < bytes)
    llvm::report_fatal_error("HostTensor: byte size overflows");
  if (allocBytes == 0)
    allocBytes = kAlignment;
  void *ptr = std::aligned_alloc(kAlignment, allocBytes);
  if (!ptr)
    llvm::report_bad_alloc_error("HostTensor: out of memory");
  std::memset(ptr, 0, allocBytes);
  storage = std::shared_ptr<void>(ptr, [](void *p) { std::free(p); });
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
