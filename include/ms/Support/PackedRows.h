//===- PackedRows.h - Shapes of packed weights ------------------*- C++ -*-===//
//
// The compiler (ms-pack-parameters) and the runtime (PackedParams) must
// agree on these: one asks for the type, the other makes the buffer.
//
//===----------------------------------------------------------------------===//
#ifndef MS_SUPPORT_PACKEDROWS_H
#define MS_SUPPORT_PACKEDROWS_H

#include <cstdint>

namespace ms {

/// The elements in a row of an [in, out] weight packed for a batch-1 dense
/// layer ("transpose_padded" when more than `length`). Each thread of a
/// batch-1 dense reads its own slice of every row. When a row is an even
/// number of 64-byte cache lines, those slices land on a fraction of a
/// cache's sets (half of them for two threads' halves of 2 KiB rows), and
/// a share that fits a core's L2 thrashes in it: measured on 512-float
/// rows, half of each of 1296 rows read at 36 GB/s, against 128 GB/s with
/// one more line per row. An odd number of lines spreads the rows over
/// every set.
inline int64_t paddedRowLength(int64_t length, int64_t elementBytes) {
  constexpr int64_t kLineBytes = 64;
  if (length <= 0 || elementBytes <= 0 || kLineBytes % elementBytes != 0)
    return length;
  int64_t lineElements = kLineBytes / elementBytes;
  if (length % lineElements != 0 || (length / lineElements) % 2 != 0)
    return length;
  return length + lineElements;
}

/// The panel widths the runtime can pack a weight into ("panels64",
/// "panels256"): a batch-1 register tile's width with AVX2 and AVX-512.
inline constexpr int64_t kPanelWidths[] = {64, 256};

inline constexpr bool isPanelWidth(int64_t width) {
  for (int64_t known : kPanelWidths)
    if (width == known)
      return true;
  return false;
}

} // namespace ms

#endif // MS_SUPPORT_PACKEDROWS_H
