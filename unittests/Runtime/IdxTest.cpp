//===- IdxTest.cpp - IDX reading and slicing ------------------------------===//

#include "TempDirTest.h"

#include "ms/Runtime/Formats/Idx.h"

#include <zlib.h>

using namespace ms::runtime;

namespace {

/// An IDX file: header for `type` and `dims`, then `payload` verbatim.
std::string idxBytes(uint8_t type, std::vector<uint32_t> dims,
                     const std::string &payload) {
  std::string bytes = {0, 0, static_cast<char>(type),
                       static_cast<char>(dims.size())};
  for (uint32_t d : dims)
    for (int shift = 24; shift >= 0; shift -= 8)
      bytes.push_back(static_cast<char>((d >> shift) & 0xff));
  return bytes + payload;
}

std::string gzip(const std::string &bytes) {
  z_stream stream = {};
  EXPECT_EQ(deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED,
                         16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY),
            Z_OK);
  std::string out(bytes.size() + 64, '\0');
  stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(bytes.data()));
  stream.avail_in = bytes.size();
  stream.next_out = reinterpret_cast<Bytef *>(out.data());
  stream.avail_out = out.size();
  EXPECT_EQ(deflate(&stream, Z_FINISH), Z_STREAM_END);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

std::string errorOf(llvm::Expected<IdxArray> result) {
  EXPECT_FALSE(static_cast<bool>(result));
  return result ? "" : llvm::toString(result.takeError());
}

class IdxTest : public TempDirTest {};

TEST_F(IdxTest, ReadsPlainAndGzippedU8) {
  std::string payload = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, (char)255};
  std::string raw = idxBytes(0x08, {3, 2, 2}, payload);
  for (const std::string &file :
       {writeBytes("plain", raw), writeBytes("packed.gz", gzip(raw))}) {
    auto idx = readIdx(file);
    ASSERT_TRUE(static_cast<bool>(idx)) << llvm::toString(idx.takeError());
    EXPECT_EQ(idx->dims, (std::vector<int64_t>{3, 2, 2}));
    EXPECT_EQ(idx->numItems(), 3);
    EXPECT_EQ(idx->itemSize(), 4);
    EXPECT_EQ(idx->value(0), 1.0);
    EXPECT_EQ(idx->value(11), 255.0);
  }
}

TEST_F(IdxTest, DecodesBigEndianTypes) {
  // i16 -2 = 0xFFFE, i32 70000 = 0x00011170, f32 1.5 = 0x3FC00000,
  // f64 -0.25 = 0xBFD0000000000000, i8 -3 = 0xFD.
  struct Case {
    uint8_t type;
    std::string payload;
    double expected;
  } cases[] = {
      {0x09, std::string("\xfd", 1), -3.0},
      {0x0B, std::string("\xff\xfe", 2), -2.0},
      {0x0C, std::string("\x00\x01\x11\x70", 4), 70000.0},
      {0x0D, std::string("\x3f\xc0\x00\x00", 4), 1.5},
      {0x0E, std::string("\xbf\xd0\x00\x00\x00\x00\x00\x00", 8), -0.25},
  };
  for (const Case &c : cases) {
    auto idx = parseIdx("mem", llvm::ArrayRef<uint8_t>(
                                   reinterpret_cast<const uint8_t *>(
                                       idxBytes(c.type, {1}, c.payload).data()),
                                   4 + 4 + c.payload.size()));
    ASSERT_TRUE(static_cast<bool>(idx)) << llvm::toString(idx.takeError());
    EXPECT_EQ(idx->value(0), c.expected) << "type " << int(c.type);
  }
}

TEST_F(IdxTest, ReportsEachKindOfDamage) {
  std::string good = idxBytes(0x08, {2, 3}, "abcdef");
  EXPECT_NE(errorOf(readIdx(path("missing"))).find("cannot open"),
            std::string::npos);
  EXPECT_NE(errorOf(readIdx(writeBytes("tiny", "ab"))).find("too short"),
            std::string::npos);
  EXPECT_NE(errorOf(readIdx(writeBytes("magic", "\x01\x02\x08\x01")))
                .find("not an IDX file"),
            std::string::npos);
  EXPECT_NE(errorOf(readIdx(writeBytes("type", idxBytes(0x07, {1}, "a"))))
                .find("unknown IDX element type 0x07"),
            std::string::npos);
  EXPECT_NE(errorOf(readIdx(writeBytes("header", good.substr(0, 9))))
                .find("truncated IDX header"),
            std::string::npos);
  std::string truncated = errorOf(readIdx(writeBytes("data", good.substr(0, 14))));
  EXPECT_NE(truncated.find("data: truncated: the header says 6 bytes of "
                           "data, the file has 2"),
            std::string::npos)
      << truncated;
  EXPECT_NE(errorOf(readIdx(writeBytes("trailing", good + "xy")))
                .find("2 unexpected bytes after the data"),
            std::string::npos);
  std::string packed = gzip(idxBytes(0x08, {64}, std::string(64, 'q')));
  EXPECT_NE(errorOf(readIdx(writeBytes("cut.gz", packed.substr(0, 15))))
                .find("truncated gzip stream"),
            std::string::npos);
  std::string corrupt = packed;
  for (size_t i = 10; i < corrupt.size() - 8; ++i)
    corrupt[i] = static_cast<char>(corrupt[i] ^ 0x5a);
  EXPECT_NE(errorOf(readIdx(writeBytes("bad.gz", corrupt)))
                .find("corrupt gzip stream"),
            std::string::npos);
}

TEST_F(IdxTest, SlicesScalesAndPadsImages) {
  // Two 2x2 images [[0, 255], [51, 102]] and [[1, 2], [3, 4]].
  std::string payload = {0, (char)255, 51, 102, 1, 2, 3, 4};
  auto idx = parseIdx("mem", llvm::ArrayRef<uint8_t>(
                                 reinterpret_cast<const uint8_t *>(
                                     idxBytes(0x08, {2, 2, 2}, payload).data()),
                                 4 + 12 + payload.size()));
  ASSERT_TRUE(static_cast<bool>(idx));
  // Padded into [1, 1, 4, 4]: one zero row/column on each side.
  auto padded = idxSlice(*idx, 0, DType::F32, {1, 1, 4, 4});
  ASSERT_TRUE(static_cast<bool>(padded)) << llvm::toString(padded.takeError());
  const float *p = padded->dataAs<float>();
  EXPECT_EQ(p[0], 0.0f);
  EXPECT_EQ(p[1 * 4 + 2], 1.0f);
  EXPECT_EQ(p[2 * 4 + 1], 51.0f / 255.0f);
  EXPECT_EQ(p[2 * 4 + 2], 102.0f / 255.0f);
  EXPECT_EQ(p[3 * 4 + 3], 0.0f);
  // Flat rows, starting at item 1.
  auto flat = idxSlice(*idx, 1, DType::I32, {1, 4});
  ASSERT_TRUE(static_cast<bool>(flat));
  EXPECT_EQ(flat->dataAs<int32_t>()[3], 4);
  // Too few items, unless the caller allows a short (zero-filled) batch.
  auto missing = idxSlice(*idx, 1, DType::F32, {2, 4});
  ASSERT_FALSE(static_cast<bool>(missing));
  EXPECT_NE(llvm::toString(missing.takeError())
                .find("mem: has 2 items; items 1 to 2 are needed for f32[2, 4]"),
            std::string::npos);
  auto shortBatch = idxSlice(*idx, 1, DType::F32, {2, 4}, true);
  ASSERT_TRUE(static_cast<bool>(shortBatch));
  // Unpadded u8 rows scale like padded ones.
  EXPECT_EQ(shortBatch->dataAs<float>()[0], 1.0f / 255.0f);
  EXPECT_EQ(shortBatch->dataAs<float>()[3], 4.0f / 255.0f);
  EXPECT_EQ(shortBatch->dataAs<float>()[7], 0.0f);
  // Shapes that do not fit: odd padding, smaller images.
  for (std::vector<int64_t> shape :
       {std::vector<int64_t>{1, 1, 5, 4}, std::vector<int64_t>{1, 1, 1, 1}}) {
    auto bad = idxSlice(*idx, 0, DType::F32, shape);
    ASSERT_FALSE(static_cast<bool>(bad));
    EXPECT_NE(llvm::toString(bad.takeError()).find("do not fit"),
              std::string::npos);
  }
}

TEST_F(IdxTest, StopsInflatingPastWhatTheHeaderDescribes) {
  // A 4-byte array followed by 16 MiB of zeros: a few KiB of gzip that
  // would otherwise all be inflated into memory before parseIdx objects.
  std::string bomb = gzip(idxBytes(0x08, {1, 4}, std::string(16 << 20, '\0')));
  ASSERT_LT(bomb.size(), size_t(1) << 20);
  EXPECT_EQ(errorOf(readIdx(writeBytes("bomb.gz", bomb))),
            path("bomb.gz") + ": the gzip stream inflates past the 44 bytes "
                              "its IDX header can describe");
  // Not IDX at all: parseIdx names the problem from the first bytes.
  std::string junk = gzip(std::string(16 << 20, 'x'));
  EXPECT_NE(errorOf(readIdx(writeBytes("junk.gz", junk)))
                .find("not an IDX file"),
            std::string::npos);
}

TEST_F(IdxTest, RejectsEmptyItemsAndSizesThatOverflow) {
  // Items of shape [28, 0] used to divide by zero when sliced.
  EXPECT_EQ(errorOf(readIdx(writeBytes("zero", idxBytes(0x08, {64, 28, 0}, "")))),
            path("zero") + ": IDX dimension 2 is 0; items must not be empty");
  EXPECT_EQ(errorOf(readIdx(writeBytes("zero1", idxBytes(0x08, {2, 0}, "")))),
            path("zero1") + ": IDX dimension 1 is 0; items must not be empty");
  // Zero items is an empty data set: readable, but it fills no batch.
  auto none = readIdx(writeBytes("none", idxBytes(0x08, {0, 2, 2}, "")));
  ASSERT_TRUE(static_cast<bool>(none)) << llvm::toString(none.takeError());
  auto slice = idxSlice(*none, 0, DType::F32, {1, 1, 2, 2});
  ASSERT_FALSE(static_cast<bool>(slice));
  EXPECT_NE(llvm::toString(slice.takeError()).find("has 0 items"),
            std::string::npos);

  // Zero items do not hide item dims whose product overflows int64
  // (itemSize() overflowed; found by the idx fuzzer).
  EXPECT_EQ(errorOf(readIdx(writeBytes(
                "huge", idxBytes(0x08, {0, 0xFFFFFFFF, 0xFFFFFFFF, 3}, "")))),
            path("huge") + ": IDX dimensions are implausibly large");

  // Arrays built in memory with an empty item dimension are refused too.
  IdxArray empty;
  empty.path = "mem";
  empty.dims = {4, 28, 0};
  auto fromEmpty = idxSlice(empty, 0, DType::F32, {4, 1, 28, 28});
  ASSERT_FALSE(static_cast<bool>(fromEmpty));
  EXPECT_EQ(llvm::toString(fromEmpty.takeError()),
            "mem: items of shape [28, 0] are empty and cannot fill "
            "f32[4, 1, 28, 28]");

  // A requested shape whose size overflows, or that cannot be allocated.
  IdxArray one;
  one.path = "mem";
  one.dims = {1, 1};
  one.data = {7};
  auto huge = idxSlice(one, 0, DType::F32, {1, 4294967296, 4294967296});
  ASSERT_FALSE(static_cast<bool>(huge));
  EXPECT_EQ(llvm::toString(huge.takeError()),
            "mem: cannot fill f32[1, 4294967296, 4294967296]: size overflows");
  auto many = idxSlice(one, 0, DType::F32, {INT64_MAX, 1}, true);
  ASSERT_FALSE(static_cast<bool>(many));
  EXPECT_EQ(llvm::toString(many.takeError()),
            "mem: cannot fill f32[9223372036854775807, 1]: size overflows");
  auto tooMany = idxSlice(one, 1, DType::F32, {INT64_MAX, 1});
  ASSERT_FALSE(static_cast<bool>(tooMany));
  EXPECT_NE(llvm::toString(tooMany.takeError()).find("has 1 items"),
            std::string::npos);
}

} // namespace

TEST_F(IdxTest, ReadsConcatenatedGzipMembers) {
  std::string raw = idxBytes(0x08, {2, 3}, "abcdef");
  auto idx = readIdx(writeBytes("two.gz", gzip(raw.substr(0, 7)) +
                                              gzip(raw.substr(7))));
  ASSERT_TRUE(bool(idx)) << llvm::toString(idx.takeError());
  EXPECT_EQ(std::string(idx->data.begin(), idx->data.end()), "abcdef");
}

TEST_F(IdxTest, SizeErrorsNameDecompressedData) {
  std::string raw = idxBytes(0x08, {4}, "ab");
  EXPECT_EQ(errorOf(readIdx(writeBytes("short.gz", gzip(raw)))),
            path("short.gz") + ": truncated: the header says 4 bytes of "
                               "data, the decompressed file has 2");
  EXPECT_EQ(errorOf(readIdx(writeBytes("short", raw))),
            path("short") + ": truncated: the header says 4 bytes of "
                            "data, the file has 2");
}
