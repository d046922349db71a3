//===- PackedParams.cpp - Parameters in the layout a graph asks for -------===//

#include "ms/Runtime/PackedParams.h"

#include "ms/Runtime/Diagnostics.h"
#include "ms/Support/PackedRows.h"

#include <algorithm>
#include <atomic>
#include <cstring>

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

/// [rows, cols] as [rows / width, cols, width] (PackedLayout::Panels*).
llvm::Expected<HostTensor> packPanels(const HostTensor &tensor,
                                      int64_t width) {
  int64_t rows = tensor.shape()[0], cols = tensor.shape()[1];
  if (rows % width != 0)
    return makeError("cannot pack " + tensor.typeString() + " in panels of " +
                     llvm::Twine(width) + " rows");
  llvm::Expected<HostTensor> packed =
      HostTensor::allocate(tensor.dtype(), {rows / width, cols, width});
  if (!packed)
    return packed.takeError();
  size_t size = dtypeSize(tensor.dtype());
  auto *src = static_cast<const char *>(tensor.data());
  auto *dst = static_cast<char *>(packed->data());
  // Each panel is the transpose of its `width` rows.
  for (int64_t p = 0; p < rows / width; ++p)
    transposeBlocked(src + p * width * cols * size,
                     dst + p * cols * width * size, width, cols, width, size);
  return packed;
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

llvm::Expected<HostTensor> packTensor(const HostTensor &tensor,
                                      PackedLayout layout) {
  if (layout == PackedLayout::None)
    return tensor;
  if (tensor.rank() != 2)
    return makeError("cannot transpose a parameter of type " +
                     tensor.typeString() + " (not rank 2)");
  int64_t rows = tensor.shape()[0], cols = tensor.shape()[1];
  size_t size = dtypeSize(tensor.dtype());
  if (int64_t width = panelWidth(layout))
    return packPanels(tensor, width);
  int64_t dstRow = layout == PackedLayout::TransposePadded
                       ? paddedRowLength(rows, static_cast<int64_t>(size))
                       : rows;
  llvm::Expected<HostTensor> packed =
      HostTensor::allocate(tensor.dtype(), {cols, dstRow});
  if (!packed)
    return packed.takeError();
  // The padding stays as allocate() leaves it: zeros.
  transposeBlocked(static_cast<const char *>(tensor.data()),
                   static_cast<char *>(packed->data()), rows, cols, dstRow,
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
