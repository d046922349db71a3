//===- PackedParams.cpp - Parameters in the layout a graph asks for -------===//

#include "ms/Runtime/Memory/PackedParams.h"

#include "ms/Support/Error.h"
#include "ms/Support/PackedRows.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <iterator>

namespace ms {
namespace runtime {
namespace {

std::atomic<uint64_t> packEpoch{1};

/// Copies a [rows, cols] matrix of `size`-byte elements to [cols, rows],
/// each of its rows `dstRow` elements apart, in square blocks, so both
/// sides stay in cache.
void transposeBlocked(const char *src, char *dst, int64_t rows, int64_t cols,
                      int64_t dstRow, size_t size) {
  constexpr int64_t kBlock = 32;
  for (int64_t r0 = 0; r0 < rows; r0 += kBlock)
    for (int64_t c0 = 0; c0 < cols; c0 += kBlock)
      for (int64_t r = r0, re = std::min(rows, r0 + kBlock); r < re; ++r)
        for (int64_t c = c0, ce = std::min(cols, c0 + kBlock); c < ce; ++c)
          std::memcpy(dst + (c * dstRow + r) * size,
                      src + (r * cols + c) * size, size);
}

bool sameBuffer(const std::weak_ptr<void> &cached,
                const std::shared_ptr<void> &current) {
  return !cached.owner_before(current) && !current.owner_before(cached);
}

} // namespace

constexpr std::pair<PackedLayout, llvm::StringLiteral> kLayoutNames[] = {
    {PackedLayout::Transpose, "transpose"},
    {PackedLayout::TransposePadded, "transpose_padded"},
    {PackedLayout::Panels64, "panels64"},
    {PackedLayout::Panels256, "panels256"}};

std::optional<PackedLayout> parsePackedLayout(llvm::StringRef text) {
  for (auto [layout, name] : kLayoutNames)
    if (text == name)
      return layout;
  return std::nullopt;
}

llvm::StringRef packedLayoutName(PackedLayout layout) {
  for (auto [known, name] : kLayoutNames)
    if (layout == known)
      return name;
  return "";
}

// One PackedLayout per width the compiler may ask for.
static_assert(std::size(kPanelWidths) == 2 && isPanelWidth(64) &&
                  isPanelWidth(256),
              "PackedLayout::Panels<W> must match ms::kPanelWidths");

int64_t panelWidth(PackedLayout layout) {
  switch (layout) {
  case PackedLayout::Panels64:
    return 64;
  case PackedLayout::Panels256:
    return 256;
  default:
    return 0;
  }
}

void invalidatePackedParams() { packEpoch.fetch_add(1); }

std::optional<std::vector<int64_t>>
packedShape(PackedLayout layout, llvm::ArrayRef<int64_t> shape,
            size_t elementBytes) {
  if (layout == PackedLayout::None)
    return std::vector<int64_t>(shape.begin(), shape.end());
  if (shape.size() != 2 || shape[0] < 0 || shape[1] < 0)
    return std::nullopt;
  int64_t rows = shape[0], cols = shape[1];
  if (int64_t width = panelWidth(layout)) {
    if (rows % width != 0)
      return std::nullopt;
    return std::vector<int64_t>{rows / width, cols, width};
  }
  if (layout == PackedLayout::TransposePadded)
    return std::vector<int64_t>{
        cols, paddedRowLength(rows, static_cast<int64_t>(elementBytes))};
  return std::vector<int64_t>{cols, rows};
}

llvm::Expected<HostTensor> packTensor(const HostTensor &tensor,
                                      PackedLayout layout) {
  if (layout == PackedLayout::None)
    return tensor;
  size_t size = dtypeSize(tensor.dtype());
  std::optional<std::vector<int64_t>> shape =
      packedShape(layout, tensor.shape(), size);
  if (!shape)
    return makeError("cannot pack a parameter of type " +
                     tensor.typeString() + " as " +
                     packedLayoutName(layout));
  llvm::Expected<HostTensor> packed =
      HostTensor::allocate(tensor.dtype(), *shape);
  if (!packed)
    return packed.takeError();
  int64_t rows = tensor.shape()[0], cols = tensor.shape()[1];
  auto *src = static_cast<const char *>(tensor.data());
  auto *dst = static_cast<char *>(packed->data());
  // A panel of `width` rows is their transpose; the transposes are one
  // panel of all the rows, with each row of the copy (padding zeroed by
  // allocate()) as long as the packed shape's last dimension.
  int64_t width = panelWidth(layout) ? panelWidth(layout) : rows;
  int64_t dstRow = shape->back();
  for (int64_t p = 0; p < rows / std::max<int64_t>(width, 1); ++p)
    transposeBlocked(src + p * width * cols * size,
                     dst + p * cols * dstRow * size, width, cols, dstRow,
                     size);
  return packed;
}

PackedParamCache::PackedParamCache(llvm::ArrayRef<PackedLayout> layouts,
                                   llvm::ArrayRef<PackedCopy> copies) {
  for (auto [i, layout] : llvm::enumerate(layouts))
    if (layout != PackedLayout::None)
      slots.push_back({i, i, layout, {}, 0, HostTensor()});
  for (auto [k, copy] : llvm::enumerate(copies))
    slots.push_back(
        {copy.arg, layouts.size() + k, copy.layout, {}, 0, HostTensor()});
}

bool PackedParamCache::isCurrent(const Slot &slot, const HostTensor &arg,
                                 uint64_t epoch) const {
  return slot.packed.isValid() && slot.epoch == epoch &&
         sameBuffer(slot.source, arg.buffer());
}

llvm::Error PackedParamCache::resolve(
    llvm::ArrayRef<HostTensor> args,
    llvm::SmallVectorImpl<std::pair<size_t, HostTensor>> &out) {
  std::lock_guard<std::mutex> lock(mutex);
  uint64_t epoch = packEpoch.load();
  for (Slot &slot : slots) {
    if (slot.arg >= args.size())
      return makeError("packed argument " + llvm::Twine(slot.position) +
                       " copies argument " + llvm::Twine(slot.arg) +
                       ", which the call does not have");
    const HostTensor &arg = args[slot.arg];
    if (!isCurrent(slot, arg, epoch)) {
      llvm::Expected<HostTensor> packed = packTensor(arg, slot.layout);
      if (!packed)
        return makeError("packing argument " + llvm::Twine(slot.arg) + ": " +
                         llvm::toString(packed.takeError()));
      slot.packed = std::move(*packed);
      slot.source = arg.buffer();
      slot.epoch = epoch;
      ++packs;
    }
    out.emplace_back(slot.position, slot.packed);
  }
  return llvm::Error::success();
}

} // namespace runtime
} // namespace ms
