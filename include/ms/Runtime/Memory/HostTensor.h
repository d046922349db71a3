//===- HostTensor.h - Dense host-side tensor buffer -------------*- C++ -*-===//
//
// A simple row-major, contiguous host buffer with a dtype and a shape, used
// to move tensors between files (.npy, .safetensors), the compiled program
// and the printer.
//
//===----------------------------------------------------------------------===//

#ifndef MS_RUNTIME_MEMORY_HOSTTENSOR_H
#define MS_RUNTIME_MEMORY_HOSTTENSOR_H

#include "ms/Runtime/Memory/DType.h"
#include "ms/Support/ByteSize.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ms {
namespace runtime {

/// Formats a shape as "[64, 10]" ("[]" for rank 0).
std::string shapeString(llvm::ArrayRef<int64_t> shape);

using ms::formatByteSize;

/// Bytes a tensor of `dtype` and `shape` holds, or nullopt if a dimension is
/// negative or the element count or byte size does not fit in int64.
std::optional<uint64_t> checkedByteSize(DType dtype,
                                        llvm::ArrayRef<int64_t> shape);

/// A dense, row-major, contiguous host tensor.
///
/// The storage is 64-byte aligned and owned through a std::shared_ptr, so
/// copying a HostTensor is cheap and the copies SHARE the same buffer; writes
/// through one are visible through the others. Use clone() for a deep copy.
/// A default-constructed HostTensor is empty and invalid (isValid() false).
class HostTensor {
public:
  /// Alignment of every buffer, in bytes.
  static constexpr size_t kAlignment = 64;

  HostTensor() = default;

  /// Allocates zero-filled storage for `shape`. Zero-element shapes are
  /// valid. Sizes from user input (files, signatures, Python) go through
  /// allocate(); this constructor is for sizes known to fit, and aborts if
  /// the size overflows or the allocation fails.
  HostTensor(DType dtype, llvm::ArrayRef<int64_t> shape);

  /// Like the constructor, but a negative dimension, a size that overflows
  /// or a failed allocation is an error, one line without a location:
  /// "negative dimension", "size overflows" or "needs 32 GiB, allocation
  /// failed". Callers prefix it with what the tensor is for.
  static llvm::Expected<HostTensor> allocate(DType dtype,
                                             llvm::ArrayRef<int64_t> shape);

  /// Storage of `bytes` bytes, kAlignment-aligned (non-null even for 0), or
  /// null when there is none to be had.
  using StorageSource = llvm::function_ref<std::shared_ptr<void>(uint64_t)>;

  /// Like allocate(), with the storage from `source`, which need not zero
  /// it; the same checks and errors.
  static llvm::Expected<HostTensor> allocateFrom(DType dtype,
                                                 llvm::ArrayRef<int64_t> shape,
                                                 StorageSource source);

  /// A tensor over `storage` without a copy: at least the bytes of `shape`,
  /// kAlignment-aligned, not written by anyone else. The tensor shares its
  /// ownership (the dataset pipeline hands its batches over this way).
  static HostTensor adopt(DType dtype, llvm::ArrayRef<int64_t> shape,
                          std::shared_ptr<void> storage);

  bool isValid() const { return valid; }
  explicit operator bool() const { return valid; }

  DType dtype() const { return elementType; }
  llvm::ArrayRef<int64_t> shape() const { return dims; }
  size_t rank() const { return dims.size(); }
  int64_t numElements() const { return numElts; }
  size_t byteSize() const {
    return static_cast<size_t>(numElts) * dtypeSize(elementType);
  }

  /// Row-major strides, in elements.
  std::vector<int64_t> strides() const;

  void *data() { return storage.get(); }
  const void *data() const { return storage.get(); }

  /// The buffer's owner, shared by every copy of this tensor. Caches keep a
  /// weak_ptr to it: unlike the data pointer, it never names another buffer
  /// after this one is freed.
  const std::shared_ptr<void> &buffer() const { return storage; }

  template <typename T> T *dataAs() { return static_cast<T *>(data()); }
  template <typename T> const T *dataAs() const {
    return static_cast<const T *>(data());
  }

  /// MLIR-style type, e.g. "tensor<64x10xf32>" or "tensor<f32>".
  std::string typeString() const;

  /// True if both tensors have the same dtype and shape.
  bool sameTypeAs(const HostTensor &other) const;

  /// Deep copy with its own buffer.
  HostTensor clone() const;

private:
  bool valid = false;
  DType elementType = DType::F32;
  // Inline up to rank 4: PyNative copies operands and makes a result on
  // every op, and a heap-allocated shape was a malloc and free each time.
  llvm::SmallVector<int64_t, 4> dims;
  int64_t numElts = 0;
  std::shared_ptr<void> storage;
};

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_MEMORY_HOSTTENSOR_H
