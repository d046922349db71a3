//===- DataTest.cpp - Dataset transforms, nodes and iterator --------------===//

#include "TempDirTest.h"

#include "ms/Data/Iterator.h"
#include "ms/Data/Pipeline.h"
#include "ms/Data/Transforms.h"

#include <zlib.h>

#include <cmath>
#include <numeric>
#include <set>

using namespace ms::data;

namespace {

Array u8Image(int64_t h, int64_t w, int64_t c) {
  Array a = Array::allocate(ElemType::U8, {h, w, c});
  for (int64_t i = 0; i < a.numElements(); ++i)
    a.mutableData<uint8_t>()[i] = uint8_t(i * 37 + 11);
  return a;
}

Array scalarI64(int64_t v) {
  Array a = Array::allocate(ElemType::I64, {});
  *a.mutableData<int64_t>() = v;
  return a;
}

std::string errorOf(llvm::Expected<Array> result) {
  if (result)
    return "no error";
  return llvm::toString(result.takeError());
}

Array run(const TensorOp &op, const Array &in, uint64_t seed = 1) {
  Rng rng(seed);
  auto out = applyOp(op, in, rng);
  EXPECT_TRUE(bool(out));
  if (!out) {
    llvm::consumeError(out.takeError());
    return Array();
  }
  return *out;
}

TEST(DataTransformsTest, RescaleAndNormalizeRoundLikeNumpy) {
  Array img = u8Image(2, 3, 2);
  TensorOp rescale;
  rescale.kind = OpKind::Rescale;
  rescale.rescale = 1.0f / 255.0f;
  rescale.shift = 0.25f;
  Array r = run(rescale, img);
  ASSERT_EQ(r.type, ElemType::F32);
  for (int64_t i = 0; i < img.numElements(); ++i) {
    float scaled = float(img.data<uint8_t>()[i]) * (1.0f / 255.0f);
    EXPECT_EQ(r.data<float>()[i], scaled + 0.25f);
  }
  TensorOp norm;
  norm.kind = OpKind::Normalize;
  norm.mean = {1.0f, 2.0f};
  norm.std = {3.0f, 0.5f};
  Array n = run(norm, r);
  for (int64_t i = 0; i < r.numElements(); ++i) {
    int c = i % 2;
    EXPECT_EQ(n.data<float>()[i],
              (r.data<float>()[i] - norm.mean[c]) / norm.std[c]);
  }
  norm.mean = norm.std = {1, 1, 1};
  EXPECT_EQ(errorOf(applyOp(norm, img, *std::make_unique<Rng>())),
            "Normalize: 3 mean/std values for an image of 2 channels "
            "(uint8[2, 3, 2])");
}

TEST(DataTransformsTest, HWC2CHWMovesChannelsAndKeepsOneChannelBytes) {
  TensorOp op;
  op.kind = OpKind::HWC2CHW;
  Array img = u8Image(2, 3, 4);
  Array out = run(op, img);
  ASSERT_EQ(out.shape, (llvm::SmallVector<int64_t, 4>{4, 2, 3}));
  for (int64_t c = 0; c < 4; ++c)
    for (int64_t p = 0; p < 6; ++p)
      EXPECT_EQ(out.data<uint8_t>()[c * 6 + p], img.data<uint8_t>()[p * 4 + c]);
  Array gray = u8Image(2, 3, 1);
  Array same = run(op, gray);
  EXPECT_EQ(same.bytes, gray.bytes); // A reshape, no copy.
  EXPECT_EQ(same.shape, (llvm::SmallVector<int64_t, 4>{1, 2, 3}));
}

TEST(DataTransformsTest, ResizeLinearMatchesHandComputedValues) {
  // [1, 2] -> 4 columns: source x = (d + 0.5) / 2 - 0.5 = -0.25, 0.25,
  // 0.75, 1.25 -> clamp, 0.25, 0.75, clamp.
  Array in = Array::allocate(ElemType::F32, {1, 2});
  in.mutableData<float>()[0] = 0;
  in.mutableData<float>()[1] = 8;
  TensorOp op;
  op.kind = OpKind::Resize;
  op.size = {1, 4};
  Array out = run(op, in);
  std::vector<float> got(out.data<float>(), out.data<float>() + 4);
  EXPECT_EQ(got, (std::vector<float>{0, 2, 6, 8}));
  op.interpolation = Interpolation::Nearest;
  out = run(op, in);
  got.assign(out.data<float>(), out.data<float>() + 4);
  EXPECT_EQ(got, (std::vector<float>{0, 0, 8, 8}));
}

TEST(DataTransformsTest, OutputSizesPastMemoryAreErrorsNotAborts) {
  Rng rng;
  TensorOp resize;
  resize.kind = OpKind::Resize;
  resize.size = {int64_t(1) << 31, int64_t(1) << 31};
  std::string error = errorOf(applyOp(resize, u8Image(4, 4, 3), rng));
  EXPECT_EQ(error, "Resize: output [2147483648, 2147483648, 3] uint8 array "
                   "has more than 8 EiB");
  resize.size = {1000000000}; // the shorter side: 10^9 x 10^9
  error = errorOf(applyOp(resize, u8Image(4, 4, 3), rng));
  EXPECT_NE(error.find("is more than this machine's memory"),
            std::string::npos)
      << error;
  TensorOp crop;
  crop.kind = OpKind::RandomCrop;
  crop.size = {int64_t(1) << 31, int64_t(1) << 31};
  crop.padding = {0, 0, 0, 0};
  crop.padIfNeeded = true;
  EXPECT_NE(errorOf(applyOp(crop, u8Image(4, 4, 1), rng))
                .find("RandomCrop: output"),
            std::string::npos);
  TensorOp oneHot;
  oneHot.kind = OpKind::OneHot;
  oneHot.numClasses = int64_t(1) << 40;
  EXPECT_NE(errorOf(applyOp(oneHot, scalarI64(1), rng))
                .find("OneHot: output [1099511627776] int64 array of 8 TiB"),
            std::string::npos);
}

TEST(DataTransformsTest, RandomOpsFollowTheSeed) {
  TensorOp crop;
  crop.kind = OpKind::RandomCrop;
  crop.size = {2, 2};
  crop.padding = {1, 1, 1, 1};
  Array img = u8Image(4, 4, 1);
  std::set<std::string> seen;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    Array a = run(crop, img, seed), b = run(crop, img, seed);
    std::string bytes(reinterpret_cast<const char *>(a.bytes), a.byteSize());
    EXPECT_EQ(bytes,
              std::string(reinterpret_cast<const char *>(b.bytes),
                          b.byteSize()));
    seen.insert(bytes);
  }
  EXPECT_GT(seen.size(), 3u);
  TensorOp flip;
  flip.kind = OpKind::RandomHorizontalFlip;
  flip.prob = 1;
  Array f = run(flip, img);
  for (int64_t y = 0; y < 4; ++y)
    for (int64_t x = 0; x < 4; ++x)
      EXPECT_EQ(f.data<uint8_t>()[y * 4 + x],
                img.data<uint8_t>()[y * 4 + 3 - x]);
}

TEST(DataTransformsTest, OneHotAndTypeCast) {
  TensorOp op;
  op.kind = OpKind::OneHot;
  op.numClasses = 3;
  Array out = run(op, scalarI64(2));
  ASSERT_EQ(out.type, ElemType::I64);
  EXPECT_EQ(std::vector<int64_t>(out.data<int64_t>(),
                                 out.data<int64_t>() + 3),
            (std::vector<int64_t>{0, 0, 1}));
  Rng rng;
  EXPECT_EQ(errorOf(applyOp(op, scalarI64(3), rng)),
            "OneHot: label 3 is outside [0, 3)");
  Array cast = castArray(scalarI64(-7), ElemType::F32);
  EXPECT_EQ(*cast.data<float>(), -7.0f);
  Array back = castArray(castArray(scalarI64(300), ElemType::F16),
                         ElemType::I32);
  EXPECT_EQ(*back.data<int32_t>(), 300);
}

//===----------------------------------------------------------------------===//
// Nodes
//===----------------------------------------------------------------------===//

/// A source of rows {i} for i in [0, n).
NodePtr numbers(int64_t n, SamplerOptions opts = {}) {
  return makeIndexedSource(
      n, [](int64_t i) -> llvm::Expected<Row> { return Row{scalarI64(i)}; },
      {"x"}, opts, false);
}

/// One epoch of `node` as the first element of each row.
std::vector<int64_t> drain(const NodePtr &node, uint64_t epoch = 0) {
  std::vector<int64_t> out;
  EXPECT_FALSE(bool(node->reset(epoch)));
  Row row;
  while (true) {
    auto more = node->next(row);
    if (!more) {
      ADD_FAILURE() << llvm::toString(more.takeError());
      break;
    }
    if (!*more)
      break;
    for (int64_t i = 0; i < row[0].numElements(); ++i)
      out.push_back(row[0].data<int64_t>()[i]);
  }
  return out;
}

TEST(DataNodesTest, SamplerShardsShufflesAndLimits) {
  SamplerOptions opts;
  EXPECT_EQ(sampleIndices(5, opts, 0), (std::vector<int64_t>{0, 1, 2, 3, 4}));
  opts.numShards = 2;
  opts.shardId = 1;
  EXPECT_EQ(sampleIndices(5, opts, 0), (std::vector<int64_t>{1, 3, 0}));
  opts.numSamples = 2;
  EXPECT_EQ(sampledCount(5, opts), 2);
  SamplerOptions shuffled;
  shuffled.shuffle = true;
  shuffled.seed = 42;
  auto a = sampleIndices(50, shuffled, 0), b = sampleIndices(50, shuffled, 0);
  auto c = sampleIndices(50, shuffled, 1);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c); // Each epoch its own order.
  std::sort(c.begin(), c.end());
  std::vector<int64_t> all(50);
  std::iota(all.begin(), all.end(), 0);
  EXPECT_EQ(c, all);
}

TEST(DataNodesTest, BatchRepeatTakeSkip) {
  EXPECT_EQ(drain(makeBatch(numbers(5), 2, false)),
            (std::vector<int64_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(makeBatch(numbers(5), 2, false)->size(), 3);
  EXPECT_EQ(makeBatch(numbers(5), 2, true)->size(), 2);
  EXPECT_EQ(drain(makeBatch(numbers(5), 2, true)),
            (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(drain(makeRepeat(numbers(2), 3)),
            (std::vector<int64_t>{0, 1, 0, 1, 0, 1}));
  EXPECT_EQ(drain(makeTake(makeSkip(numbers(6), 2), 3)),
            (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(makeSkip(numbers(3), 5)->size(), 0);
}

TEST(DataNodesTest, ShuffleBufferIsAPermutationFixedBySeed) {
  auto a = drain(makeShuffle(numbers(40), 10, 7));
  auto b = drain(makeShuffle(numbers(40), 10, 7));
  auto c = drain(makeShuffle(numbers(40), 10, 8));
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  std::sort(a.begin(), a.end());
  EXPECT_EQ(a, drain(numbers(40)));
}

TEST(DataNodesTest, MapReplacesColumnsAndNamesErrors) {
  TensorOp cast;
  cast.kind = OpKind::TypeCast;
  cast.castTo = ElemType::F32;
  MapStep step{cast, nullptr, "TypeCast"};
  auto node = makeMap(numbers(3), {step}, {"x"}, {"y"}, 0);
  ASSERT_TRUE(bool(node));
  EXPECT_EQ((*node)->columns(), (std::vector<std::string>{"y"}));
  ASSERT_FALSE(bool((*node)->reset(0)));
  Row row;
  ASSERT_TRUE(*(*node)->next(row));
  EXPECT_EQ(row[0].type, ElemType::F32);
  auto missing = makeMap(numbers(3), {step}, {"z"}, {}, 0);
  ASSERT_FALSE(bool(missing));
  EXPECT_EQ(llvm::toString(missing.takeError()),
            "map: input column 'z' is not in the dataset (columns: 'x')");
  TensorOp hwc;
  hwc.kind = OpKind::HWC2CHW;
  auto bad = makeMap(numbers(3), {MapStep{hwc, nullptr, "HWC2CHW"}}, {}, {},
                     0);
  ASSERT_FALSE(bool((*bad)->reset(0)));
  auto error = (*bad)->next(row);
  ASSERT_FALSE(bool(error));
  EXPECT_EQ(llvm::toString(error.takeError()),
            "map: HWC2CHW: expected an image [H, W, C], got int64[] "
            "(column 'x')");
}

//===----------------------------------------------------------------------===//
// Iterator
//===----------------------------------------------------------------------===//

TEST(DataIteratorTest, PrefetchGivesTheSameRowsAndEpochs) {
  for (bool prefetch : {false, true}) {
    Iterator it(makeBatch(numbers(5), 2, false), 2, prefetch, 1);
    EXPECT_EQ(it.prefetching(), prefetch);
    for (int epoch = 0; epoch < 2; ++epoch) {
      std::vector<int64_t> got;
      Row row;
      while (true) {
        auto more = it.next(row);
        ASSERT_TRUE(bool(more));
        if (!*more)
          break;
        for (int64_t i = 0; i < row[0].numElements(); ++i)
          got.push_back(row[0].data<int64_t>()[i]);
      }
      EXPECT_EQ(got, (std::vector<int64_t>{0, 1, 2, 3, 4}));
    }
    Row row;
    auto more = it.next(row);
    ASSERT_TRUE(bool(more));
    EXPECT_FALSE(*more);
    EXPECT_TRUE(it.finished());
  }
}

TEST(DataIteratorTest, ErrorsReachTheConsumerOnceAndDroppingDoesNotHang) {
  auto failing = makeIndexedSource(
      10,
      [](int64_t i) -> llvm::Expected<Row> {
        if (i == 3)
          return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                         "data.bin: bad row 3");
        return Row{scalarI64(i)};
      },
      {"x"}, SamplerOptions(), false);
  Iterator it(failing, 1, true, 2);
  Row row;
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(*it.next(row));
  auto error = it.next(row);
  ASSERT_FALSE(bool(error));
  EXPECT_EQ(llvm::toString(error.takeError()), "data.bin: bad row 3");
  auto after = it.next(row);
  ASSERT_TRUE(bool(after));
  EXPECT_FALSE(*after);
  // Endless epochs with a full queue: the destructor must still return.
  for (int i = 0; i < 10; ++i) {
    Iterator endless(makeRepeat(numbers(4), -1), -1, true, 2);
    ASSERT_TRUE(*endless.next(row));
  }
}

//===----------------------------------------------------------------------===//
// MNIST
//===----------------------------------------------------------------------===//

class DataMnistTest : public TempDirTest {
protected:
  void writeIdx(llvm::StringRef name, std::vector<uint32_t> dims,
                const std::string &payload) {
    std::string bytes = {0, 0, 8, static_cast<char>(dims.size())};
    for (uint32_t d : dims)
      for (int shift = 24; shift >= 0; shift -= 8)
        bytes.push_back(static_cast<char>((d >> shift) & 0xff));
    writeBytes(name, bytes + payload);
  }
};

TEST_F(DataMnistTest, ReadsSplitsAndYieldsUint8ImagesAndUint32Labels) {
  writeIdx("train-images-idx3-ubyte", {2, 2, 2}, "abcdefgh");
  writeIdx("train-labels.idx1-ubyte", {2}, std::string("\x07\x03", 2));
  writeIdx("t10k-images-idx3-ubyte", {1, 2, 2}, "wxyz");
  writeIdx("t10k-labels-idx1-ubyte", {1}, std::string("\x09", 1));
  auto data = readMnist(std::string(dir), "all");
  ASSERT_TRUE(bool(data)) << llvm::toString(data.takeError());
  EXPECT_EQ((*data)->numRows(), 3);
  NodePtr source = makeMnistSource(*data, SamplerOptions());
  ASSERT_FALSE(bool(source->reset(0)));
  std::string pixels;
  std::vector<uint32_t> labels;
  Row row;
  while (*source->next(row)) {
    EXPECT_EQ(row[0].typeStr(), "uint8[2, 2, 1]");
    EXPECT_EQ(row[1].typeStr(), "uint32[]");
    pixels.append(reinterpret_cast<const char *>(row[0].bytes), 4);
    labels.push_back(*row[1].data<uint32_t>());
  }
  EXPECT_EQ(pixels, "abcdefghwxyz");
  EXPECT_EQ(labels, (std::vector<uint32_t>{7, 3, 9}));

  auto missing = readMnist(path("nowhere"), "train");
  ASSERT_FALSE(bool(missing));
  EXPECT_EQ(llvm::toString(missing.takeError()),
            path("nowhere") + ": no such directory");
  llvm::sys::fs::remove(path("t10k-labels-idx1-ubyte"));
  auto noLabels = readMnist(std::string(dir), "test");
  ASSERT_FALSE(bool(noLabels));
  EXPECT_EQ(llvm::toString(noLabels.takeError()),
            std::string(dir) + ": no t10k-labels file (looked for "
                               "t10k-labels-idx1-ubyte, "
                               "t10k-labels.idx1-ubyte, each also with .gz)");
}

/// Rows (i * scale, i * scale + 1) of columns `a` and `b`, i < n.
NodePtr pairs(int64_t n, int64_t scale, std::string a, std::string b) {
  return makeIndexedSource(
      n,
      [scale](int64_t i) -> llvm::Expected<Row> {
        return Row{scalarI64(i * scale), scalarI64(i * scale + 1)};
      },
      {a, b}, {}, false);
}

/// Each row of one epoch, as its columns' values.
std::vector<std::vector<int64_t>> rowsOf(const NodePtr &node) {
  std::vector<std::vector<int64_t>> out;
  EXPECT_FALSE(bool(node->reset(0)));
  Row row;
  while (true) {
    auto more = node->next(row);
    if (!more) {
      ADD_FAILURE() << llvm::toString(more.takeError());
      break;
    }
    if (!*more)
      break;
    std::vector<int64_t> values;
    for (const Array &a : row)
      values.push_back(*a.data<int64_t>());
    out.push_back(values);
  }
  return out;
}

template <typename T> std::string errorText(llvm::Expected<T> result) {
  return result ? "no error" : llvm::toString(result.takeError());
}

TEST(DataColumnsTest, ProjectAndRenameChooseAndNameColumns) {
  auto swapped = makeProject(pairs(2, 10, "a", "b"), {"b", "a"});
  ASSERT_TRUE(bool(swapped));
  EXPECT_EQ((*swapped)->columns(), (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(rowsOf(*swapped),
            (std::vector<std::vector<int64_t>>{{1, 0}, {11, 10}}));
  auto renamed = makeRename(pairs(2, 10, "a", "b"), {"b"}, {"c"});
  ASSERT_TRUE(bool(renamed));
  EXPECT_EQ((*renamed)->columns(), (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(rowsOf(*renamed)[1], (std::vector<int64_t>{10, 11}));
  EXPECT_EQ(errorText(makeProject(pairs(1, 1, "a", "b"), {"z"})),
            "project: column 'z' is not in the dataset (columns: 'a', 'b')");
  EXPECT_EQ(errorText(makeProject(pairs(1, 1, "a", "b"), {"a", "a"})),
            "project: column 'a' appears twice (columns: 'a', 'a')");
  EXPECT_EQ(errorText(makeRename(pairs(1, 1, "a", "b"), {"a"}, {"b"})),
            "rename: column 'b' appears twice (columns: 'b', 'b')");
  EXPECT_EQ(errorText(makeRename(pairs(1, 1, "a", "b"), {"a", "b"}, {"c"})),
            "rename: input_columns has 2 names, output_columns 1; they must "
            "pair up");
}

TEST(DataColumnsTest, ZipEndsWithTheShortestChild) {
  auto zipped = makeZip({pairs(3, 10, "a", "b"), pairs(2, 100, "c", "d")});
  ASSERT_TRUE(bool(zipped));
  EXPECT_EQ((*zipped)->columns(),
            (std::vector<std::string>{"a", "b", "c", "d"}));
  EXPECT_EQ((*zipped)->size(), 2);
  EXPECT_EQ(rowsOf(*zipped), (std::vector<std::vector<int64_t>>{
                                 {0, 1, 0, 1}, {10, 11, 100, 101}}));
  EXPECT_EQ(errorText(makeZip({pairs(1, 1, "a", "b"), pairs(1, 1, "b", "c")})),
            "zip: column 'b' appears twice (columns: 'a', 'b', 'b', 'c')");
}

TEST(DataColumnsTest, ConcatRunsEachChildInTurnEveryEpoch) {
  auto joined = makeConcat({pairs(2, 10, "a", "b"), pairs(1, 100, "a", "b")});
  ASSERT_TRUE(bool(joined));
  EXPECT_EQ((*joined)->size(), 3);
  std::vector<std::vector<int64_t>> want = {{0, 1}, {10, 11}, {0, 1}};
  EXPECT_EQ(rowsOf(*joined), want);
  EXPECT_EQ(rowsOf(*joined), want); // a second epoch starts over
  EXPECT_EQ(errorText(makeConcat({pairs(1, 1, "a", "b"),
                                  pairs(1, 1, "a", "c")})),
            "concat: dataset 1 has columns 'a', 'c', the first has 'a', 'b'; "
            "concat needs the same columns in the same order");
}

} // namespace
