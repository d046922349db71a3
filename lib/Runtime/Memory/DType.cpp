//===- DType.cpp - Element types of host tensors --------------------------===//

#include "ms/Runtime/Memory/DType.h"

#include "llvm/Support/ErrorHandling.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace ms::runtime;

namespace {

const DTypeInfo kDTypes[] = {
#define MS_DTYPE(Enum, Mlir, Bytes, Kind, Npy, SafeTensors, Format)            \
  {DType::Enum, Mlir, Bytes, DTypeKind::Kind, Npy, SafeTensors, Format},
#include "ms/Runtime/Memory/DTypes.def"
};

template <typename T> T load(const void *data, int64_t i) {
  T value;
  std::memcpy(&value, static_cast<const char *>(data) + i * sizeof(T),
              sizeof(T));
  return value;
}

template <typename T> void store(void *data, int64_t i, T value) {
  std::memcpy(static_cast<char *>(data) + i * sizeof(T), &value, sizeof(T));
}

} // namespace

llvm::ArrayRef<DTypeInfo> ms::runtime::allDTypes() { return kDTypes; }

const DTypeInfo &ms::runtime::dtypeInfo(DType dtype) {
  return kDTypes[static_cast<size_t>(dtype)];
}

std::optional<DType> ms::runtime::dtypeFromNpyCode(llvm::StringRef code) {
  for (const DTypeInfo &info : kDTypes)
    if (!info.npy.empty() && info.npy == code)
      return info.dtype;
  return std::nullopt;
}

std::optional<DType>
ms::runtime::dtypeFromSafeTensorsName(llvm::StringRef name) {
  for (const DTypeInfo &info : kDTypes)
    if (info.safeTensors == name)
      return info.dtype;
  return std::nullopt;
}

double ms::runtime::halfToDouble(uint16_t bits) {
  bool negative = bits & 0x8000;
  int exponent = (bits >> 10) & 0x1f;
  int mantissa = bits & 0x3ff;
  double value;
  if (exponent == 0)
    value = std::ldexp(double(mantissa), -24);
  else if (exponent == 31)
    value = mantissa ? std::numeric_limits<double>::quiet_NaN()
                     : std::numeric_limits<double>::infinity();
  else
    value = std::ldexp(double(mantissa + 1024), exponent - 25);
  return negative ? -value : value;
}

uint16_t ms::runtime::doubleToHalf(double value) {
  uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  if (std::isnan(value))
    return sign | 0x7e00;
  double a = std::fabs(value);
  if (a < std::ldexp(1.0, -14)) {
    // Subnormal range: the result is a multiple of 2^-24. A rounded value of
    // 1024 lands exactly on the smallest normal's encoding.
    double m = std::nearbyint(std::ldexp(a, 24));
    return sign | uint16_t(m);
  }
  int e;
  std::frexp(a, &e);
  e -= 1; // a in [2^e, 2^(e+1))
  double m = std::nearbyint(std::ldexp(a, 10 - e));
  if (m == 2048) {
    m = 1024;
    ++e;
  }
  int biased = e + 15;
  if (biased >= 31)
    return sign | 0x7c00;
  return sign | uint16_t(biased << 10) | uint16_t(int(m) - 1024);
}

double ms::runtime::bfloat16ToDouble(uint16_t bits) {
  uint32_t wide = uint32_t(bits) << 16;
  float f;
  std::memcpy(&f, &wide, sizeof(f));
  return f;
}

uint16_t ms::runtime::doubleToBfloat16(double value) {
  // Round to float first (bfloat16 keeps float's exponent range), then to
  // bfloat16's 8-bit significand, ties to even.
  float f = static_cast<float>(value);
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  if (std::isnan(f))
    return uint16_t((bits >> 16) | 0x40);
  bits += 0x7fff + ((bits >> 16) & 1);
  return uint16_t(bits >> 16);
}

double ms::runtime::loadElement(const void *data, DType dtype, int64_t i) {
  switch (dtypeInfo(dtype).kind) {
  case DTypeKind::Float:
    if (dtype == DType::F32)
      return load<float>(data, i);
    if (dtype == DType::F64)
      return load<double>(data, i);
    if (dtype == DType::F16)
      return halfToDouble(load<uint16_t>(data, i));
    return bfloat16ToDouble(load<uint16_t>(data, i));
  default:
    return static_cast<double>(loadInteger(data, dtype, i));
  }
}

int64_t ms::runtime::loadInteger(const void *data, DType dtype, int64_t i) {
  const DTypeInfo &info = dtypeInfo(dtype);
  // Each branch widens on its own: a ?: of int32_t and uint32_t would
  // convert the signed value to unsigned first.
  if (info.kind == DTypeKind::Signed) {
    switch (info.bytes) {
    case 1:
      return load<int8_t>(data, i);
    case 2:
      return load<int16_t>(data, i);
    case 4:
      return load<int32_t>(data, i);
    default:
      return load<int64_t>(data, i);
    }
  }
  switch (info.bytes) {
  case 1:
    return load<uint8_t>(data, i);
  case 2:
    return load<uint16_t>(data, i);
  case 4:
    return load<uint32_t>(data, i);
  default:
    return static_cast<int64_t>(load<uint64_t>(data, i));
  }
}

void ms::runtime::storeElement(void *data, DType dtype, int64_t i,
                               double value) {
  const DTypeInfo &info = dtypeInfo(dtype);
  switch (info.kind) {
  case DTypeKind::Float:
    if (dtype == DType::F32)
      return store<float>(data, i, static_cast<float>(value));
    if (dtype == DType::F64)
      return store<double>(data, i, value);
    if (dtype == DType::F16)
      return store<uint16_t>(data, i, doubleToHalf(value));
    return store<uint16_t>(data, i, doubleToBfloat16(value));
  case DTypeKind::Bool:
    return store<uint8_t>(data, i, value != 0 ? 1 : 0);
  case DTypeKind::Signed:
  case DTypeKind::Unsigned:
    break;
  }
  bool isSigned = info.kind == DTypeKind::Signed;
  switch (info.bytes) {
  case 1:
    return isSigned ? store<int8_t>(data, i, static_cast<int8_t>(value))
                    : store<uint8_t>(data, i, static_cast<uint8_t>(value));
  case 2:
    return isSigned ? store<int16_t>(data, i, static_cast<int16_t>(value))
                    : store<uint16_t>(data, i, static_cast<uint16_t>(value));
  case 4:
    return isSigned ? store<int32_t>(data, i, static_cast<int32_t>(value))
                    : store<uint32_t>(data, i, static_cast<uint32_t>(value));
  default:
    return isSigned ? store<int64_t>(data, i, static_cast<int64_t>(value))
                    : store<uint64_t>(data, i, static_cast<uint64_t>(value));
  }
}
