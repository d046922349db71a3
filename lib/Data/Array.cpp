//===- Array.cpp - Dataset values -----------------------------------------===//

#include "ms/Data/Array.h"

#include "ms/Support/ByteSize.h"
#include "ms/Support/MemoryBound.h"

#include <cmath>
#include <limits>
#include <cstdlib>
#include <cstring>

using namespace ms;
using namespace ms::data;

namespace {
struct TypeInfo {
  ElemType type;
  const char *name;
  size_t size;
};
constexpr TypeInfo kTypes[] = {
    {ElemType::Bool, "bool", 1},     {ElemType::I8, "int8", 1},
    {ElemType::U8, "uint8", 1},      {ElemType::I16, "int16", 2},
    {ElemType::U16, "uint16", 2},    {ElemType::I32, "int32", 4},
    {ElemType::U32, "uint32", 4},    {ElemType::I64, "int64", 8},
    {ElemType::U64, "uint64", 8},    {ElemType::F16, "float16", 2},
    {ElemType::F32, "float32", 4},   {ElemType::F64, "float64", 8},
};
} // namespace

size_t ms::data::elemSize(ElemType type) {
  return kTypes[static_cast<int>(type)].size;
}

llvm::StringRef ms::data::elemName(ElemType type) {
  return kTypes[static_cast<int>(type)].name;
}

std::optional<ElemType> ms::data::elemFromName(llvm::StringRef name) {
  for (const TypeInfo &info : kTypes)
    if (name == info.name)
      return info.type;
  return std::nullopt;
}

bool ms::data::isFloat(ElemType type) {
  return type == ElemType::F16 || type == ElemType::F32 ||
         type == ElemType::F64;
}

std::string ms::data::shapeStr(llvm::ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

Array Array::allocate(ElemType type, llvm::ArrayRef<int64_t> shape) {
  llvm::Expected<Array> a = tryAllocate(type, shape);
  if (!a)
    std::abort(); // As operator new would, without exceptions.
  return std::move(*a);
}

llvm::Expected<Array> Array::tryAllocate(ElemType type,
                                         llvm::ArrayRef<int64_t> shape) {
  auto fail = [&](const llvm::Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   shapeStr(shape) + " " + elemName(type) +
                                       " array " + why);
  };
  std::optional<int64_t> size = checkedByteSize(elemSize(type), shape);
  if (!size)
    return fail("has more than 8 EiB");
  if (*size > physicalMemoryBytes())
    return fail("of " + formatByteSize(*size) +
                " is more than this machine's memory (" +
                formatByteSize(physicalMemoryBytes()) + ")");
  size_t bytes = (static_cast<size_t>(*size) + 63) / 64 * 64;
  void *p = std::aligned_alloc(64, bytes ? bytes : 64);
  if (!p)
    return fail("of " + formatByteSize(*size) + " cannot be allocated");
  Array a;
  a.type = type;
  a.shape.assign(shape.begin(), shape.end());
  a.buffer = std::shared_ptr<const void>(p, std::free);
  a.bytes = static_cast<const uint8_t *>(p);
  return a;
}

Array Array::view(ElemType type, llvm::ArrayRef<int64_t> shape,
                  std::shared_ptr<const void> owner, const void *data) {
  Array a;
  a.type = type;
  a.shape.assign(shape.begin(), shape.end());
  a.buffer = std::move(owner);
  a.bytes = static_cast<const uint8_t *>(data);
  return a;
}

int64_t Array::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

Array Array::reshaped(llvm::ArrayRef<int64_t> newShape) const {
  Array a = *this;
  a.shape.assign(newShape.begin(), newShape.end());
  return a;
}

std::string Array::typeStr() const {
  return elemName(type).str() + shapeStr(shape);
}


/// `value` as Out. A float outside Out's range has no C++ conversion (it
/// is undefined behaviour), so floats are truncated, clamped to int64 and
/// then converted, which wraps into unsigned types as numpy does on x86
/// (-1.7 -> uint8 255); NaN becomes 0.
template <typename Out, typename In> static Out convertValue(In value) {
  if constexpr (std::is_floating_point_v<In> && std::is_integral_v<Out>) {
    double d = static_cast<double>(value);
    if (std::isnan(d))
      return Out(0);
    d = std::trunc(d);
    if (d <= -9.2e18)
      return static_cast<Out>(std::numeric_limits<int64_t>::min());
    if (d >= 9.2e18)
      return static_cast<Out>(std::numeric_limits<int64_t>::max());
    return static_cast<Out>(static_cast<int64_t>(d));
  } else {
    return static_cast<Out>(value);
  }
}

Array ms::data::castArray(const Array &in, ElemType to) {
  if (in.type == to)
    return in;
  Array out = Array::allocate(to, in.shape);
  int64_t n = in.numElements();
  visitType(in.type, [&](auto inTag) {
    using In = decltype(inTag);
    const In *src = in.data<In>();
    visitType(to, [&](auto outTag) {
      using Out = decltype(outTag);
      Out *dst = out.mutableData<Out>();
      for (int64_t i = 0; i < n; ++i) {
        if constexpr (std::is_same_v<Out, bool>)
          dst[i] = src[i] != In(0);
        else if constexpr (std::is_same_v<In, _Float16>)
          dst[i] = convertValue<Out>(static_cast<float>(src[i]));
        else
          dst[i] = convertValue<Out>(src[i]);
      }
    });
  });
  return out;
}
