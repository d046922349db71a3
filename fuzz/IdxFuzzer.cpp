//===- IdxFuzzer.cpp - The IDX reader -------------------------------------===//
//
// Parses the input as an IDX file (raw; gzip is a zlib concern), then slices
// its first items the ways ms-run and the evaluator do: images zero-padded
// into a LeNet-sized [N, 1, 32, 32] f32 batch, labels into i32.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "ms/Runtime/Formats/Idx.h"

using namespace ms::runtime;

static void slice(const IdxArray &idx, DType dtype,
                  llvm::ArrayRef<int64_t> shape) {
  auto tensor = idxSlice(idx, /*first=*/0, dtype, shape, /*allowShort=*/true);
  if (!tensor)
    ms::fuzz::ignore(tensor.takeError());
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  auto idx = parseIdx("fuzz-input", llvm::ArrayRef<uint8_t>(data, size));
  if (!idx) {
    ms::fuzz::ignore(idx.takeError());
    return 0;
  }
  if (idx->dims.size() == 1) {
    slice(*idx, DType::I32, {2});
    slice(*idx, DType::I64, {2});
    return 0;
  }
  slice(*idx, DType::F32, {2, 1, 32, 32});
  slice(*idx, DType::F32, {2, 32, 32});
  return 0;
}
