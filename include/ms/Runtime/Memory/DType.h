//===- DType.h - Element types of host tensors ------------------*- C++ -*-===//
//
// DType and everything known about each one come from the single table in
// DTypes.def; adding a dtype is one row there.
//
//===----------------------------------------------------------------------===//

#ifndef MS_RUNTIME_MEMORY_DTYPE_H
#define MS_RUNTIME_MEMORY_DTYPE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace ms {
namespace runtime {

/// Element types a HostTensor can hold.
enum class DType {
#define MS_DTYPE(Enum, Mlir, Bytes, Kind, Npy, SafeTensors, Format) Enum,
#include "ms/Runtime/Memory/DTypes.def"
};

enum class DTypeKind { Float, Signed, Unsigned, Bool };

/// One row of DTypes.def.
struct DTypeInfo {
  DType dtype;
  llvm::StringRef mlir;        ///< "f32", "ui8", "i1", ...
  size_t bytes;
  DTypeKind kind;
  llvm::StringRef npy;         ///< numpy descr code without byte order, or ""
  llvm::StringRef safeTensors; ///< safetensors dtype name
  char format;                 ///< Python buffer-format char, or 0
};

/// Every dtype, in enum order.
llvm::ArrayRef<DTypeInfo> allDTypes();
const DTypeInfo &dtypeInfo(DType dtype);

/// Size in bytes of one element of `dtype`.
inline size_t dtypeSize(DType dtype) { return dtypeInfo(dtype).bytes; }
/// MLIR spelling of `dtype`, e.g. "f32", "i64", "ui8", "i1".
inline llvm::StringRef dtypeName(DType dtype) { return dtypeInfo(dtype).mlir; }
inline bool isFloatDType(DType dtype) {
  return dtypeInfo(dtype).kind == DTypeKind::Float;
}

/// The dtype whose numpy descr code (without byte order) is `code`.
std::optional<DType> dtypeFromNpyCode(llvm::StringRef code);
/// The dtype whose safetensors name is `name`.
std::optional<DType> dtypeFromSafeTensorsName(llvm::StringRef name);

/// float16 / bfloat16 bit patterns to and from double (round to nearest,
/// ties to even).
double halfToDouble(uint16_t bits);
uint16_t doubleToHalf(double value);
double bfloat16ToDouble(uint16_t bits);
uint16_t doubleToBfloat16(double value);

/// Element `i` of a `dtype` buffer as a double (exact for every dtype but
/// 64-bit integers beyond 2^53).
double loadElement(const void *data, DType dtype, int64_t i);
/// Element `i` of an integer or bool `dtype` buffer, exactly.
int64_t loadInteger(const void *data, DType dtype, int64_t i);
/// Stores `value` converted to `dtype` (C conversion for integers, rounding
/// to nearest for floats, nonzero -> 1 for bool) as element `i`.
void storeElement(void *data, DType dtype, int64_t i, double value);

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_MEMORY_DTYPE_H
