//===- Array.h - Dataset values: typed n-d arrays and rows ------*- C++ -*-===//
//
// The values a dataset pipeline moves: immutable, row-major arrays of the
// element types numpy and MindSpore's dataset use (uint8 images, uint32
// labels, ...), which are more than a HostTensor holds. A row is one array
// per column. Arrays are never written after they are made, so sources can
// hand out views of their file data and copies share buffers freely.
//
//===----------------------------------------------------------------------===//

#ifndef MS_DATA_ARRAY_H
#define MS_DATA_ARRAY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ms {
namespace data {

/// Element types of dataset arrays, named as numpy names them.
enum class ElemType : uint8_t {
  Bool, I8, U8, I16, U16, I32, U32, I64, U64, F16, F32, F64
};

/// Bytes per element.
size_t elemSize(ElemType type);
/// numpy's name: "uint8", "float32", "bool", ...
llvm::StringRef elemName(ElemType type);
/// The type numpy calls `name`, if any.
std::optional<ElemType> elemFromName(llvm::StringRef name);
bool isFloat(ElemType type);

/// "[28, 28, 1]".
std::string shapeStr(llvm::ArrayRef<int64_t> shape);

/// An immutable row-major array sharing its buffer with its copies.
struct Array {
  ElemType type = ElemType::F32;
  llvm::SmallVector<int64_t, 4> shape;
  std::shared_ptr<const void> buffer; ///< Keeps `bytes` alive.
  const uint8_t *bytes = nullptr;

  /// A new array with uninitialized (64-byte aligned) storage, filled by
  /// the caller through mutableData() before anyone else sees it. For
  /// shapes of arrays that exist already (their size is known to fit).
  static Array allocate(ElemType type, llvm::ArrayRef<int64_t> shape);
  /// The same for a shape that comes from user input (a transform's output
  /// size, a class count): an error, not an abort, when its bytes overflow,
  /// pass the machine's physical memory or cannot be had.
  static llvm::Expected<Array> tryAllocate(ElemType type,
                                           llvm::ArrayRef<int64_t> shape);
  /// A view of `data` that keeps `owner` alive.
  static Array view(ElemType type, llvm::ArrayRef<int64_t> shape,
                    std::shared_ptr<const void> owner, const void *data);

  int64_t numElements() const;
  size_t byteSize() const { return numElements() * elemSize(type); }
  size_t rank() const { return shape.size(); }
  /// The same data with another shape of equal element count.
  Array reshaped(llvm::ArrayRef<int64_t> newShape) const;
  /// "uint8[28, 28, 1]".
  std::string typeStr() const;

  template <typename T> const T *data() const {
    return reinterpret_cast<const T *>(bytes);
  }
  /// Only for an array just made by allocate().
  template <typename T> T *mutableData() {
    return reinterpret_cast<T *>(const_cast<uint8_t *>(bytes));
  }
};

/// One dataset row: an array per column.
using Row = std::vector<Array>;

/// Calls f(T()) with T the C++ type of `type` (_Float16 for F16, bool for
/// Bool).
template <typename F> auto visitType(ElemType type, F &&f) {
  switch (type) {
  case ElemType::Bool: return f(bool());
  case ElemType::I8: return f(int8_t());
  case ElemType::U8: return f(uint8_t());
  case ElemType::I16: return f(int16_t());
  case ElemType::U16: return f(uint16_t());
  case ElemType::I32: return f(int32_t());
  case ElemType::U32: return f(uint32_t());
  case ElemType::I64: return f(int64_t());
  case ElemType::U64: return f(uint64_t());
  case ElemType::F16: return f(_Float16());
  case ElemType::F32: return f(float());
  case ElemType::F64: break;
  }
  return f(double());
}

/// `in` converted element by element to `to` as numpy's astype does
/// (floats to integers truncate toward zero).
Array castArray(const Array &in, ElemType to);

} // namespace data
} // namespace ms

#endif // MS_DATA_ARRAY_H
