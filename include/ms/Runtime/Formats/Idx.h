//===- Idx.h - IDX (MNIST-style) data files ---------------------*- C++ -*-===//
//
// Reads the IDX format of the MNIST and Fashion-MNIST data sets, gzipped or
// not, and turns a slice of it into the tensor an entry function expects.
// Every error is a single line starting with the file path.
//
//===----------------------------------------------------------------------===//

#ifndef MS_RUNTIME_FORMATS_IDX_H
#define MS_RUNTIME_FORMATS_IDX_H

#include "ms/Runtime/Memory/HostTensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ms {
namespace runtime {

/// The element types IDX defines (the third byte of the magic number).
enum class IdxType : uint8_t {
  U8 = 0x08,
  I8 = 0x09,
  I16 = 0x0B,
  I32 = 0x0C,
  F32 = 0x0D,
  F64 = 0x0E
};

/// An IDX array: dims[0] items of shape dims[1:], the data kept as stored
/// (big-endian).
struct IdxArray {
  std::string path;
  IdxType type = IdxType::U8;
  std::vector<int64_t> dims;
  std::vector<uint8_t> data;

  int64_t numItems() const { return dims.empty() ? 0 : dims[0]; }
  /// Elements per item (the product of dims[1:]).
  int64_t itemSize() const;
  /// Element `index` (flat), widened to double: exact for every IDX type.
  double value(int64_t index) const;
};

/// Bytes per element of an IDX type.
size_t idxTypeSize(IdxType type);

/// Parses IDX bytes (already decompressed); `path` names them in errors.
llvm::Expected<IdxArray> parseIdx(llvm::StringRef path,
                                  llvm::ArrayRef<uint8_t> bytes);

/// Reads an IDX file; gzip is recognized by its magic bytes, not the name.
llvm::Expected<IdxArray> readIdx(llvm::StringRef path);

/// Items [first, first + shape[0]) of `idx` as a tensor of `dtype` and
/// `shape`. f32 tensors get u8 data scaled to [0, 1] (float(v) / 255) and
/// other types unscaled; i32/i64 tensors need integer data. Each item either
/// has as many elements as a row of `shape`, or is an image [r, c] that
/// `shape` [N, 1, H, W] or [N, H, W] holds zero-padded evenly on each side.
/// Items past the end of `idx` are left zero when `allowShort` (the last
/// batch of an evaluation) and are an error otherwise.
llvm::Expected<HostTensor> idxSlice(const IdxArray &idx, int64_t first,
                                    DType dtype, llvm::ArrayRef<int64_t> shape,
                                    bool allowShort = false);

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_FORMATS_IDX_H
