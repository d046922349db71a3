//===- PackedParamsTest.cpp - Tests for the packed parameter cache --------===//

#include "ms/Runtime/Memory/PackedParams.h"
#include "ms/Support/PackedRows.h"

#include "gtest/gtest.h"

using namespace ms::runtime;

namespace {

/// A [rows, cols] f32 tensor holding base, base + 1, ...
HostTensor matrix(int64_t rows, int64_t cols, float base = 0) {
  HostTensor t(DType::F32, {rows, cols});
  for (int64_t i = 0; i < rows * cols; ++i)
    t.dataAs<float>()[i] = base + float(i);
  return t;
}

/// The packed copy the cache passes for argument 1 of (x, w).
HostTensor resolveWeight(PackedParamCache &cache, const HostTensor &x,
                         const HostTensor &w) {
  llvm::SmallVector<std::pair<size_t, HostTensor>, 4> packed;
  llvm::Error err = cache.resolve({x, w}, packed);
  EXPECT_FALSE(bool(err)) << llvm::toString(std::move(err));
  EXPECT_EQ(packed.size(), 1u);
  EXPECT_EQ(packed.front().first, 1u);
  return packed.front().second;
}

TEST(PackedParamsTest, TransposeLayout) {
  EXPECT_EQ(parsePackedLayout("transpose"), PackedLayout::Transpose);
  EXPECT_EQ(parsePackedLayout("blocked"), std::nullopt);
  HostTensor w = matrix(3, 37); // not a multiple of the 32-element blocks
  llvm::Expected<HostTensor> t = packTensor(w, PackedLayout::Transpose);
  ASSERT_TRUE(bool(t));
  ASSERT_EQ(t->shape(), llvm::ArrayRef<int64_t>({37, 3}));
  for (int64_t r = 0; r < 3; ++r)
    for (int64_t c = 0; c < 37; ++c)
      EXPECT_EQ(t->dataAs<float>()[c * 3 + r], w.dataAs<float>()[r * 37 + c]);
}

TEST(PackedParamsTest, TransposePaddedLayout) {
  EXPECT_EQ(parsePackedLayout("transpose_padded"),
            PackedLayout::TransposePadded);
  EXPECT_EQ(packedLayoutName(PackedLayout::TransposePadded),
            "transpose_padded");
  // 32 rows are two 64-byte lines of f32 once transposed: padded to three.
  HostTensor w = matrix(32, 5, 1);
  llvm::Expected<HostTensor> t = packTensor(w, PackedLayout::TransposePadded);
  ASSERT_TRUE(bool(t));
  ASSERT_EQ(t->shape(), llvm::ArrayRef<int64_t>({5, 48}));
  for (int64_t c = 0; c < 5; ++c)
    for (int64_t r = 0; r < 48; ++r)
      EXPECT_EQ(t->dataAs<float>()[c * 48 + r],
                r < 32 ? w.dataAs<float>()[r * 5 + c] : 0.f)
          << "row " << c << ", element " << r;
  // 48 rows are three lines already: the plain transpose.
  llvm::Expected<HostTensor> odd =
      packTensor(matrix(48, 5), PackedLayout::TransposePadded);
  ASSERT_TRUE(bool(odd));
  EXPECT_EQ(odd->shape(), llvm::ArrayRef<int64_t>({5, 48}));
}

TEST(PackedParamsTest, PanelLayouts) {
  EXPECT_EQ(parsePackedLayout("panels64"), PackedLayout::Panels64);
  EXPECT_EQ(parsePackedLayout("panels256"), PackedLayout::Panels256);
  EXPECT_EQ(parsePackedLayout("panels16"), std::nullopt);
  EXPECT_EQ(packedLayoutName(PackedLayout::Panels256), "panels256");
  EXPECT_EQ(panelWidth(PackedLayout::Panels64), 64);
  EXPECT_EQ(panelWidth(PackedLayout::Transpose), 0);
  // [128, 3] in panels of 64: panel p, row k, lane j is w[p * 64 + j, k].
  HostTensor w = matrix(128, 3, 1);
  llvm::Expected<HostTensor> t = packTensor(w, PackedLayout::Panels64);
  ASSERT_TRUE(bool(t));
  ASSERT_EQ(t->shape(), llvm::ArrayRef<int64_t>({2, 3, 64}));
  for (int64_t p = 0; p < 2; ++p)
    for (int64_t k = 0; k < 3; ++k)
      for (int64_t j = 0; j < 64; ++j)
        EXPECT_EQ(t->dataAs<float>()[(p * 3 + k) * 64 + j],
                  w.dataAs<float>()[(p * 64 + j) * 3 + k])
            << "panel " << p << ", row " << k << ", lane " << j;
  // Rows that are not whole panels are an error, not a short panel.
  llvm::Expected<HostTensor> ragged =
      packTensor(matrix(96, 3), PackedLayout::Panels64);
  ASSERT_FALSE(bool(ragged));
  EXPECT_EQ(llvm::toString(ragged.takeError()),
            "cannot pack a parameter of type tensor<96x3xf32> as panels64");
}

TEST(PackedParamsTest, PaddedRowLengthMakesTheLinesOdd) {
  EXPECT_EQ(ms::paddedRowLength(512, 4), 528);
  EXPECT_EQ(ms::paddedRowLength(16, 4), 16);
  EXPECT_EQ(ms::paddedRowLength(10, 4), 10);
  EXPECT_EQ(ms::paddedRowLength(64, 2), 96);
  EXPECT_EQ(ms::paddedRowLength(0, 4), 0);
  EXPECT_EQ(ms::paddedRowLength(32, 0), 32);
}

TEST(PackedParamsTest, PacksOncePerBufferAndReuses) {
  PackedParamCache cache({PackedLayout::None, PackedLayout::Transpose});
  EXPECT_FALSE(cache.empty());
  HostTensor x = matrix(1, 4), w = matrix(2, 4);
  HostTensor first = resolveWeight(cache, x, w);
  HostTensor again = resolveWeight(cache, x, w);
  EXPECT_EQ(cache.packCount(), 1u);
  EXPECT_EQ(first.data(), again.data());
  // A copy of the HostTensor shares the buffer: still the same parameter.
  HostTensor alias = w;
  resolveWeight(cache, x, alias);
  EXPECT_EQ(cache.packCount(), 1u);
  EXPECT_EQ(again.dataAs<float>()[1], w.dataAs<float>()[4]);
}

TEST(PackedParamsTest, RebindingPacksTheNewBuffer) {
  PackedParamCache cache({PackedLayout::None, PackedLayout::Transpose});
  HostTensor x = matrix(1, 4);
  HostTensor w = matrix(2, 4);
  resolveWeight(cache, x, w);
  HostTensor other = matrix(2, 4, 100);
  HostTensor packed = resolveWeight(cache, x, other);
  EXPECT_EQ(cache.packCount(), 2u);
  EXPECT_EQ(packed.dataAs<float>()[0], 100.f);
  EXPECT_EQ(packed.dataAs<float>()[1], 104.f);
}

TEST(PackedParamsTest, FreedBufferAtTheSameAddressIsNotReused) {
  PackedParamCache cache({PackedLayout::None, PackedLayout::Transpose});
  HostTensor x = matrix(1, 4);
  // The allocator may hand the next buffer the freed one's address; the
  // cache must still see a new parameter.
  resolveWeight(cache, x, matrix(2, 4, 0));
  HostTensor packed = resolveWeight(cache, x, matrix(2, 4, 50));
  EXPECT_EQ(cache.packCount(), 2u);
  EXPECT_EQ(packed.dataAs<float>()[0], 50.f);
}

TEST(PackedParamsTest, InvalidationRepacksTheSameBuffer) {
  PackedParamCache cache({PackedLayout::None, PackedLayout::Transpose});
  HostTensor x = matrix(1, 4), w = matrix(2, 4);
  HostTensor before = resolveWeight(cache, x, w);
  w.dataAs<float>()[0] = 42; // written in place (set_data of this buffer)
  invalidatePackedParams();
  HostTensor after = resolveWeight(cache, x, w);
  EXPECT_EQ(cache.packCount(), 2u);
  EXPECT_EQ(after.dataAs<float>()[0], 42.f);
  // The copy handed out before stays valid and unchanged.
  EXPECT_EQ(before.dataAs<float>()[0], 0.f);
}

TEST(PackedParamsTest, TrailingCopiesFollowTheArguments) {
  // Argument 1 is read both as passed and as a copy (a ?-batch graph's
  // large and batch-1 tiles), argument 2 only packed: the in-place copy
  // comes at its own index, the trailing one after the caller's three.
  PackedParamCache cache(
      {PackedLayout::None, PackedLayout::None, PackedLayout::Transpose},
      {{1, PackedLayout::Transpose}});
  HostTensor x = matrix(1, 4), w = matrix(2, 4), v = matrix(3, 2, 10);
  llvm::SmallVector<std::pair<size_t, HostTensor>, 4> packed;
  ASSERT_FALSE(bool(cache.resolve({x, w, v}, packed)));
  ASSERT_EQ(packed.size(), 2u);
  EXPECT_EQ(packed[0].first, 2u);
  EXPECT_EQ(packed[0].second.dataAs<float>()[1], 12.f);
  EXPECT_EQ(packed[1].first, 3u);
  EXPECT_EQ(packed[1].second.shape(), llvm::ArrayRef<int64_t>({4, 2}));
  EXPECT_EQ(packed[1].second.dataAs<float>()[1], w.dataAs<float>()[4]);
  // Reused on the next call, as in-place copies are.
  packed.clear();
  ASSERT_FALSE(bool(cache.resolve({x, w, v}, packed)));
  EXPECT_EQ(cache.packCount(), 2u);
}

TEST(PackedParamsTest, CopyOfAMissingArgumentIsAnError) {
  PackedParamCache cache({PackedLayout::None}, {{3, PackedLayout::Transpose}});
  llvm::SmallVector<std::pair<size_t, HostTensor>, 4> packed;
  llvm::Error err = cache.resolve({matrix(1, 4)}, packed);
  ASSERT_TRUE(bool(err));
  EXPECT_NE(llvm::toString(std::move(err)).find("copies argument 3"),
            std::string::npos);
}

TEST(PackedParamsTest, NothingPackedIsEmpty) {
  PackedParamCache cache({PackedLayout::None, PackedLayout::None});
  EXPECT_TRUE(cache.empty());
}

} // namespace
