//===- Idx.cpp - IDX (MNIST-style) data files -----------------------------===//
//
// Format (http://yann.lecun.com/exdb/mnist/): two zero bytes, a type byte, a
// rank byte, one big-endian u32 per dimension, then the data, big-endian,
// row-major. The data sets ship gzipped; zlib inflates them.
//
//===----------------------------------------------------------------------===//

#include "ms/Runtime/Formats/Idx.h"
#include "ms/Support/FileAccess.h"
#include "ms/Support/Error.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <zlib.h>

using namespace ms::runtime;
using llvm::StringRef;
using ms::fileError;

namespace {

bool isGzip(llvm::ArrayRef<uint8_t> bytes) {
  return bytes.size() >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b;
}

uint32_t readBigEndian32(const uint8_t *p);

/// How many bytes the IDX file starting with `prefix` can have: nullopt
/// while the header is incomplete, 0 once its magic shows it is no IDX file
/// (parseIdx then says why), else the header plus the data it describes.
std::optional<uint64_t> idxSizeLimit(llvm::ArrayRef<uint8_t> prefix) {
  if (prefix.size() < 4)
    return std::nullopt;
  if (prefix[0] != 0 || prefix[1] != 0 || prefix[3] == 0)
    return 0;
  uint64_t headerSize = 4 + 4 * uint64_t(prefix[3]);
  if (prefix.size() < headerSize)
    return std::nullopt;
  // Larger than any element type, and dims are capped at 2^40 bytes in
  // parseIdx, so this is a bound, not the exact size.
  uint64_t size = 8;
  for (unsigned i = 0; i < prefix[3]; ++i) {
    size = llvm::SaturatingMultiply(
        size, uint64_t(readBigEndian32(prefix.data() + 4 + 4 * i)));
  }
  return llvm::SaturatingAdd(headerSize, size);
}

/// Inflates a whole gzip file; a stream that ends early or fails its CRC is
/// an error. Inflation stops once it passes what the IDX header inside can
/// describe, so a small file cannot expand without bound in memory.
llvm::Expected<std::vector<uint8_t>> gunzip(StringRef path,
                                            llvm::ArrayRef<uint8_t> bytes) {
  z_stream stream;
  std::memset(&stream, 0, sizeof(stream));
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK)
    return fileError(path, "cannot start gzip decompression");
  std::vector<uint8_t> out;
  stream.next_in = const_cast<Bytef *>(bytes.data());
  stream.avail_in = static_cast<uInt>(bytes.size());
  int status = Z_OK;
  while (status == Z_OK) {
    size_t used = out.size();
    out.resize(used + std::max<size_t>(1 << 20, bytes.size() * 2));
    stream.next_out = out.data() + used;
    stream.avail_out = static_cast<uInt>(out.size() - used);
    status = inflate(&stream, Z_NO_FLUSH);
    out.resize(out.size() - stream.avail_out);
    // Concatenated gzip members are one gzip file (RFC 1952, 2.2).
    if (status == Z_STREAM_END && stream.avail_in >= 2 &&
        stream.next_in[0] == 0x1f && stream.next_in[1] == 0x8b &&
        inflateReset(&stream) == Z_OK)
      status = Z_OK;
    if (status == Z_BUF_ERROR && stream.avail_in == 0)
      break; // Out of input before the end of the stream.
    std::optional<uint64_t> limit = idxSizeLimit(out);
    if (status == Z_OK && limit && out.size() > *limit) {
      inflateEnd(&stream);
      if (*limit == 0)
        return out; // Not IDX: parseIdx reports what is wrong.
      return fileError(path, "the gzip stream inflates past the " +
                                 llvm::Twine(*limit) +
                                 " bytes its IDX header can describe");
    }
  }
  std::string message = stream.msg ? stream.msg : "";
  bool trailing = status == Z_STREAM_END && stream.avail_in != 0;
  inflateEnd(&stream);
  if (status == Z_STREAM_END) {
    if (trailing)
      return fileError(path, "unexpected bytes after the gzip stream");
    return out;
  }
  if (status == Z_BUF_ERROR)
    return fileError(path, "truncated gzip stream (the file ends before the "
                           "compressed data does)");
  return fileError(path, "corrupt gzip stream" +
                             (message.empty() ? "" : " (" + message + ")"));
}

uint32_t readBigEndian32(const uint8_t *p) {
  return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) |
         (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}

} // namespace

size_t ms::runtime::idxTypeSize(IdxType type) {
  switch (type) {
  case IdxType::U8:
  case IdxType::I8:
    return 1;
  case IdxType::I16:
    return 2;
  case IdxType::I32:
  case IdxType::F32:
    return 4;
  case IdxType::F64:
    return 8;
  }
  return 1;
}

int64_t IdxArray::itemSize() const {
  int64_t size = 1;
  for (size_t i = 1; i < dims.size(); ++i)
    size *= dims[i];
  return size;
}

double IdxArray::value(int64_t index) const {
  size_t size = idxTypeSize(type);
  const uint8_t *p = data.data() + index * size;
  uint64_t bits = 0;
  for (size_t i = 0; i < size; ++i)
    bits = (bits << 8) | p[i];
  switch (type) {
  case IdxType::U8:
    return static_cast<double>(bits);
  case IdxType::I8:
    return static_cast<int8_t>(bits);
  case IdxType::I16:
    return static_cast<int16_t>(bits);
  case IdxType::I32:
    return static_cast<int32_t>(bits);
  case IdxType::F32: {
    uint32_t word = static_cast<uint32_t>(bits);
    float f;
    std::memcpy(&f, &word, sizeof(f));
    return f;
  }
  case IdxType::F64: {
    double d;
    std::memcpy(&d, &bits, sizeof(d));
    return d;
  }
  }
  return 0;
}

namespace {
/// parseIdx, with `kind` naming the bytes in size errors ("the file", or
/// "the decompressed file" for a gzipped one).
llvm::Expected<IdxArray> parseIdxBytes(StringRef path,
                                       llvm::ArrayRef<uint8_t> bytes,
                                       StringRef kind) {
  if (bytes.size() < 4)
    return fileError(path, "too short for an IDX header (" +
                               llvm::Twine(bytes.size()) + " bytes)");
  if (bytes[0] != 0 || bytes[1] != 0)
    return fileError(path, "not an IDX file (it does not start with two "
                           "zero bytes)");
  IdxArray idx;
  idx.path = path.str();
  uint8_t typeByte = bytes[2];
  switch (typeByte) {
  case 0x08: case 0x09: case 0x0B: case 0x0C: case 0x0D: case 0x0E:
    idx.type = static_cast<IdxType>(typeByte);
    break;
  default:
    return fileError(path, "unknown IDX element type 0x" +
                               llvm::utohexstr(typeByte, /*LowerCase=*/false,
                                               /*Width=*/2) +
                               " (expected 0x08, 0x09, 0x0B, 0x0C, 0x0D or "
                               "0x0E)");
  }
  unsigned rank = bytes[3];
  if (rank == 0)
    return fileError(path, "IDX rank is 0; expected at least one dimension");
  size_t headerSize = 4 + 4 * size_t(rank);
  if (bytes.size() < headerSize)
    return fileError(path, "truncated IDX header: rank " + llvm::Twine(rank) +
                               " needs " + llvm::Twine(headerSize) +
                               " bytes, " + kind + " has " +
                               llvm::Twine(bytes.size()));
  uint64_t expected = idxTypeSize(idx.type);
  // The bytes the header describes with dim 0 taken as at least 1: zero
  // items must not hide item dims whose product overflows (itemSize()).
  uint64_t described = expected;
  for (unsigned i = 0; i < rank; ++i) {
    uint32_t dim = readBigEndian32(bytes.data() + 4 + 4 * i);
    // Zero items is an empty data set; an item with no elements has nothing
    // to fill a tensor row with.
    if (dim == 0 && i > 0)
      return fileError(path, "IDX dimension " + llvm::Twine(i) +
                                 " is 0; items must not be empty");
    idx.dims.push_back(dim);
    // Dims are u32, at most 255 of them: stop before the product overflows.
    if (dim != 0 && described > (uint64_t(1) << 40) / dim)
      return fileError(path, "IDX dimensions are implausibly large");
    described *= std::max<uint32_t>(dim, 1);
    expected *= dim;
  }
  uint64_t available = bytes.size() - headerSize;
  if (available < expected)
    return fileError(path, "truncated: the header says " +
                               llvm::Twine(expected) +
                               " bytes of data, " + kind + " has " +
                               llvm::Twine(available));
  if (available > expected)
    return fileError(path, llvm::Twine(available - expected) +
                               " unexpected bytes after the data (the "
                               "header says " +
                               llvm::Twine(expected) + ")");
  idx.data.assign(bytes.begin() + headerSize, bytes.end());
  return idx;
}
} // namespace

llvm::Expected<IdxArray> ms::runtime::parseIdx(StringRef path,
                                               llvm::ArrayRef<uint8_t> bytes) {
  return parseIdxBytes(path, bytes, "the file");
}

llvm::Expected<IdxArray> ms::runtime::readIdx(StringRef path) {
  auto buffer = readRegularFile(path);
  if (!buffer)
    return buffer.takeError();
  llvm::ArrayRef<uint8_t> bytes(
      reinterpret_cast<const uint8_t *>((*buffer)->getBufferStart()),
      (*buffer)->getBufferSize());
  if (!isGzip(bytes))
    return parseIdx(path, bytes);
  auto inflated = gunzip(path, bytes);
  if (!inflated)
    return inflated.takeError();
  return parseIdxBytes(path, *inflated, "the decompressed file");
}

namespace {

/// Where each item goes in a row of the tensor: as is (rowStride 0), or an
/// image of `cols` columns zero-padded evenly into rows of rowStride.
struct ItemPlacement {
  int64_t padTop = 0, padLeft = 0, cols = 0, rowStride = 0;
};

llvm::Expected<ItemPlacement> placeItems(const IdxArray &idx,
                                         llvm::ArrayRef<int64_t> shape,
                                         int64_t rowSize,
                                         const std::string &wanted) {
  llvm::ArrayRef<int64_t> itemDims = llvm::ArrayRef(idx.dims).drop_front();
  if (llvm::is_contained(itemDims, 0))
    return fileError(idx.path, "items of shape " + shapeString(itemDims) +
                                   " are empty and cannot fill " + wanted);
  ItemPlacement place;
  place.cols = rowSize;
  if (idx.itemSize() == rowSize)
    return place;
  llvm::ArrayRef<int64_t> spatial = shape.drop_front();
  if (spatial.size() == 3 && spatial[0] == 1)
    spatial = spatial.drop_front();
  bool padded = itemDims.size() == 2 && spatial.size() == 2 &&
                spatial[0] >= itemDims[0] && spatial[1] >= itemDims[1] &&
                (spatial[0] - itemDims[0]) % 2 == 0 &&
                (spatial[1] - itemDims[1]) % 2 == 0;
  if (!padded)
    return fileError(idx.path, "items of shape " + shapeString(itemDims) +
                                   " do not fit " + wanted +
                                   " (expected rows of the same size, or "
                                   "[N, 1, H, W] / [N, H, W] images at least "
                                   "as large, padded evenly)");
  place.padTop = (spatial[0] - itemDims[0]) / 2;
  place.padLeft = (spatial[1] - itemDims[1]) / 2;
  place.cols = itemDims[1];
  place.rowStride = spatial[1];
  return place;
}

/// IDX integers fill f32, i32 and i64 tensors; IDX floats only f32.
llvm::Error checkFillable(const IdxArray &idx, DType dtype,
                          const std::string &wanted) {
  bool integerData = idx.type != IdxType::F32 && idx.type != IdxType::F64;
  if ((dtype == DType::I32 || dtype == DType::I64) && !integerData)
    return fileError(idx.path,
                     "holds floating-point data, which cannot fill " + wanted);
  if (dtype != DType::F32 && dtype != DType::I32 && dtype != DType::I64)
    return fileError(idx.path, "cannot fill " + wanted +
                                   " (IDX inputs fill f32, i32 or i64 "
                                   "tensors)");
  return llvm::Error::success();
}

/// Copies items first .. first + count - 1 into `tensor`'s first rows.
/// Row by row (an image row lands at its padded place), so the hot case,
/// u8 pixels into f32, is a plain loop the compiler vectorizes: it runs
/// once per batch inside ms-run's timed evaluation.
void copyItems(const IdxArray &idx, int64_t first, int64_t count,
               const ItemPlacement &place, int64_t rowSize,
               HostTensor &tensor) {
  DType dtype = tensor.dtype();
  int64_t itemSize = idx.itemSize();
  auto store = [&](int64_t at, double v) {
    // u8 pixels become [0, 1] exactly as float(p) / 255.0f computes.
    if (dtype == DType::F32 && idx.type == IdxType::U8)
      tensor.dataAs<float>()[at] = static_cast<float>(v) / 255.0f;
    else
      storeElement(tensor.data(), dtype, at, v);
  };
  bool pixels = dtype == DType::F32 && idx.type == IdxType::U8;
  for (int64_t item = 0; item < count; ++item) {
    for (int64_t row = 0; row < itemSize / place.cols; ++row) {
      int64_t from = (first + item) * itemSize + row * place.cols;
      int64_t to = item * rowSize +
                   (place.rowStride
                        ? (place.padTop + row) * place.rowStride + place.padLeft
                        : row * place.cols);
      if (pixels) {
        const uint8_t *in = idx.data.data() + from;
        float *out = tensor.dataAs<float>() + to;
        for (int64_t i = 0; i < place.cols; ++i)
          out[i] = static_cast<float>(in[i]) / 255.0f;
        continue;
      }
      for (int64_t i = 0; i < place.cols; ++i)
        store(to + i, idx.value(from + i));
    }
  }
}

} // namespace

llvm::Expected<HostTensor> ms::runtime::idxSlice(const IdxArray &idx,
                                                 int64_t first, DType dtype,
                                                 llvm::ArrayRef<int64_t> shape,
                                                 bool allowShort) {
  StringRef path = idx.path;
  std::string wanted = std::string(dtypeName(dtype)) + shapeString(shape);
  if (shape.empty())
    return fileError(path, "cannot fill a rank-0 tensor from IDX items");
  int64_t count = shape[0];
  // The shape is the entry's, which may be larger than memory: the product
  // is checked here and the allocation below.
  std::optional<int64_t> checkedRowSize = int64_t(1);
  for (int64_t d : shape.drop_front())
    if (checkedRowSize)
      checkedRowSize = llvm::checkedMul(*checkedRowSize, d);
  if (!checkedRowSize)
    return fileError(path, "cannot fill " + wanted + ": size overflows");
  int64_t rowSize = *checkedRowSize;
  llvm::Expected<ItemPlacement> place = placeItems(idx, shape, rowSize, wanted);
  if (!place)
    return place.takeError();
  if (llvm::Error error = checkFillable(idx, dtype, wanted))
    return std::move(error);
  // first <= numItems < 2^32 here, so first + count only overflows for a
  // count no IDX file can satisfy anyway.
  std::optional<int64_t> end = llvm::checkedAdd(first, count);
  if (first < 0 || first > idx.numItems() ||
      (!allowShort && (!end || *end > idx.numItems())))
    return fileError(path, "has " + llvm::Twine(idx.numItems()) +
                               " items; items " + llvm::Twine(first) + " to " +
                               (end ? std::to_string(*end - 1)
                                    : std::string("beyond")) +
                               " are needed for " + wanted);

  llvm::Expected<HostTensor> allocated = HostTensor::allocate(dtype, shape);
  if (!allocated)
    return fileError(path, "cannot fill " + wanted + ": " +
                               llvm::toString(allocated.takeError()));
  HostTensor tensor = std::move(*allocated);
  copyItems(idx, first, std::min(count, idx.numItems() - first), *place,
            rowSize, tensor);
  return tensor;
}
