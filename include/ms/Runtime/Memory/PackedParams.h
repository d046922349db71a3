//===- PackedParams.h - Parameters in the layout a graph asks for -*- C++ -*-===//
//
// A compiled graph may ask for a parameter in another layout (ms.packed on
// its argument, see ms-pack-parameters): a batch-1 dense layer reads its
// weight as [in, out]. Parameters stay run-time data, so the runtime makes
// the packed copy: once per bound parameter buffer, reused on later calls.
// A copy is made again when the parameter is bound to another buffer, or
// after invalidatePackedParams() (Parameter.set_data, load_param_into_net,
// or any write into a bound buffer, such as a train step's update in
// place: JitModule::bindInPlaceResults).
//
//===----------------------------------------------------------------------===//
#ifndef MS_RUNTIME_MEMORY_PACKEDPARAMS_H
#define MS_RUNTIME_MEMORY_PACKEDPARAMS_H

#include "ms/Runtime/Memory/HostTensor.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace ms {
namespace runtime {

/// The layouts a graph may ask for (the value of ms.packed).
enum class PackedLayout {
  None,
  Transpose, // a [rows, cols] parameter passed as [cols, rows]
  // Passed as [cols, paddedRowLength(rows)] (ms/Support/PackedRows.h): the
  // transpose, each row followed by zeros.
  TransposePadded,
  // Passed as [rows / W, cols, W]: panel p is the transpose of rows
  // [p * W, (p + 1) * W), so each W-wide GEMV tile streams its own
  // contiguous panel. W is the batch-1 register tile's width: 256 f32 with
  // AVX-512, 64 with AVX2 (TileSizeModel's chooseSmallRowTiles).
  Panels64,
  Panels256,
};

/// W of a panel layout; 0 for the others.
int64_t panelWidth(PackedLayout layout);

/// A trailing argument of a compiled entry that callers do not pass: the
/// runtime's copy of caller argument `arg` in `layout` (ms.packed_copy_of,
/// for a weight that the entry reads in both layouts).
struct PackedCopy {
  size_t arg;
  PackedLayout layout;
};

/// Parses an ms.packed value ("transpose", "transpose_padded", "panels64",
/// "panels256"); nullopt if unknown.
std::optional<PackedLayout> parsePackedLayout(llvm::StringRef text);

/// The ms.packed value of `layout`; "" for None.
llvm::StringRef packedLayoutName(PackedLayout layout);

/// The shape a [rows, cols] parameter of `elementBytes`-byte elements has
/// in `layout`; nullopt when the layout cannot hold it (not rank 2, or
/// rows that are not whole panels).
std::optional<std::vector<int64_t>>
packedShape(PackedLayout layout, llvm::ArrayRef<int64_t> shape,
            size_t elementBytes);

/// `tensor` (rank 2) in `layout`, in a new buffer of packedShape().
llvm::Expected<HostTensor> packTensor(const HostTensor &tensor,
                                      PackedLayout layout);

/// Makes every packed copy in the process stale: each is made again, once,
/// before its graph's next call. Cheap (one atomic increment).
void invalidatePackedParams();

class PackedParamCache {
public:
  /// `layouts[i]` is what the entry asks for argument i (in place of the
  /// caller's); `copies` are its trailing packed arguments.
  explicit PackedParamCache(llvm::ArrayRef<PackedLayout> layouts,
                            llvm::ArrayRef<PackedCopy> copies = {});

  bool empty() const { return slots.empty(); }

  /// (entry argument index, packed copy) for each packed argument, in
  /// order: the ones in place of `args[i]` at i, then the trailing copies
  /// at args.size(), args.size() + 1, ... Packs the ones whose buffer is
  /// new, rebound or invalidated. The copies stay valid for the call even
  /// if another thread repacks.
  llvm::Error resolve(llvm::ArrayRef<HostTensor> args,
                      llvm::SmallVectorImpl<std::pair<size_t, HostTensor>> &out);

  /// How many packed copies this cache has made (for tests and stats).
  unsigned packCount() const { return packs; }

private:
  struct Slot {
    size_t arg;      // the caller's argument it copies
    size_t position; // the entry argument it is passed as
    PackedLayout layout;
    std::weak_ptr<void> source; // identifies the buffer; never reused
    uint64_t epoch = 0;
    HostTensor packed;
  };
  bool isCurrent(const Slot &slot, const HostTensor &arg,
                 uint64_t epoch) const;

  std::mutex mutex;
  std::vector<Slot> slots;
  unsigned packs = 0;
};

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_MEMORY_PACKEDPARAMS_H
