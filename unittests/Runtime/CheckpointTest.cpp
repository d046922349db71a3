//===- CheckpointTest.cpp - MindSpore .ckpt and the format-neutral file --===//

#include "ms/Runtime/Formats/Checkpoint.h"

#include "TempDirTest.h"

#include "gtest/gtest.h"

#include <cstring>
#include <random>

using namespace ms::runtime;

namespace {

class CheckpointTest : public TempDirTest {
protected:
  static std::string openError(const std::string &p) {
    auto file = CheckpointFile::open(p);
    if (file) {
      ADD_FAILURE() << "expected an error opening " << p;
      return "";
    }
    return llvm::toString(file.takeError());
  }
};

HostTensor patterned(DType dtype, llvm::ArrayRef<int64_t> shape, int seed) {
  HostTensor t(dtype, shape);
  auto *bytes = static_cast<unsigned char *>(t.data());
  bool isBool = dtypeInfo(dtype).kind == DTypeKind::Bool;
  for (size_t i = 0; i < t.byteSize(); ++i)
    bytes[i] = static_cast<unsigned char>(i * 29 + seed) & (isBool ? 1 : 0xff);
  return t;
}

TEST_F(CheckpointTest, EveryDTypeRoundTripsInBothFormats) {
  std::vector<std::pair<std::string, HostTensor>> tensors;
  int seed = 0;
  for (const DTypeInfo &info : allDTypes())
    tensors.emplace_back(std::string("t.") + info.mlir.str(),
                         patterned(info.dtype, {2, 3}, ++seed));
  tensors.emplace_back("scalar", patterned(DType::F32, {}, 9));
  tensors.emplace_back("empty", patterned(DType::I64, {0, 4}, 9));
  for (CheckpointFormat format :
       {CheckpointFormat::MindSpore, CheckpointFormat::SafeTensors}) {
    std::string p = path("rt");
    ASSERT_FALSE(bool(writeCheckpoint(p, tensors, format)));
    auto file = CheckpointFile::open(p);
    ASSERT_TRUE(bool(file)) << llvm::toString(file.takeError());
    EXPECT_EQ(file->format(), format);
    for (const auto &[name, want] : tensors) {
      auto got = file->load(name, want.dtype(), want.shape());
      ASSERT_TRUE(bool(got)) << name << ": " << llvm::toString(got.takeError());
      ASSERT_TRUE(got->sameTypeAs(want)) << name;
      EXPECT_EQ(std::memcmp(got->data(), want.data(), want.byteSize()), 0)
          << name;
    }
  }
}

TEST_F(CheckpointTest, MindSporeNamesBothWays) {
  EXPECT_EQ(mindsporeTypeName(DType::F32), "Float32");
  EXPECT_EQ(mindsporeTypeName(DType::U8), "UInt8");
  EXPECT_EQ(mindsporeTypeName(DType::BF16), "BFloat16");
  EXPECT_EQ(dtypeOfMindSporeName("Uint8"), DType::U8); // MindSpore 1.x
  EXPECT_EQ(dtypeOfMindSporeName("Bool"), DType::Bool);
  EXPECT_FALSE(dtypeOfMindSporeName("str"));
  for (const DTypeInfo &info : allDTypes())
    EXPECT_EQ(dtypeOfMindSporeName(mindsporeTypeName(info.dtype)), info.dtype);
}

TEST_F(CheckpointTest, LoadChecksDTypeAndShapeLikeSafeTensors) {
  std::string p = path("w.ckpt");
  ASSERT_FALSE(bool(writeMindSporeCheckpoint(
      p, {{"fc.weight", patterned(DType::F32, {10, 5}, 1)}})));
  auto file = CheckpointFile::open(p);
  ASSERT_TRUE(bool(file));
  auto err = [](llvm::Expected<HostTensor> t) {
    return t ? std::string() : llvm::toString(t.takeError());
  };
  EXPECT_EQ(err(file->load("fc.weight", DType::F32, {10, 4})),
            p + ": tensor 'fc.weight' has shape [10, 5], parameter expects "
                "[10, 4]");
  EXPECT_EQ(err(file->load("fc.weight", DType::F16, {10, 5})),
            p + ": tensor 'fc.weight' has dtype f32, parameter expects f16");
  EXPECT_EQ(err(file->load("fc.bias")), p + ": has no tensor named 'fc.bias'");
  EXPECT_FALSE(file->contains("fc.bias"));
  EXPECT_EQ(file->names(), std::vector<std::string>{"fc.weight"});
}

TEST_F(CheckpointTest, DetectionLooksAtTheContent) {
  std::string st = path("a.ckpt"), ck = path("b.safetensors");
  std::vector<std::pair<std::string, HostTensor>> t = {
      {"x", patterned(DType::F32, {3}, 1)}};
  ASSERT_FALSE(bool(writeCheckpoint(st, t, CheckpointFormat::SafeTensors)));
  ASSERT_FALSE(bool(writeCheckpoint(ck, t, CheckpointFormat::MindSpore)));
  EXPECT_EQ(detectCheckpointFormat(readBytes(st)),
            CheckpointFormat::SafeTensors);
  EXPECT_EQ(detectCheckpointFormat(readBytes(ck)), CheckpointFormat::MindSpore);
  EXPECT_EQ(openError("/dev/zero"),
            "/dev/zero: not a regular file (a character device)");
  std::string garbage = writeBytes("garbage", "\xff\xfe\xfd not protobuf");
  EXPECT_EQ(openError(garbage),
            garbage + ": not a MindSpore checkpoint (the protobuf Checkpoint "
                      "message does not parse)");
}

TEST_F(CheckpointTest, DuplicateAndInvalidTensorsAreNotWritten) {
  std::string p = path("d.ckpt");
  llvm::Error dup = writeMindSporeCheckpoint(
      p, {{"a", patterned(DType::F32, {1}, 1)},
          {"a", patterned(DType::F32, {1}, 2)}});
  ASSERT_TRUE(bool(dup));
  EXPECT_EQ(llvm::toString(std::move(dup)), p + ": duplicate tensor name 'a'");
  EXPECT_FALSE(llvm::sys::fs::exists(p));
}

/// 1,000 mutations of a real .ckpt (issue 55): each is refused with one
/// line naming the file, or loads tensors no larger than the file.
TEST_F(CheckpointTest, AThousandMutatedCheckpointsNeverCrash) {
  std::string good = path("good.ckpt");
  ASSERT_FALSE(bool(writeMindSporeCheckpoint(
      good, {{"w", patterned(DType::F32, {3, 2}, 1)},
             {"b", patterned(DType::Bool, {4}, 2)},
             {"n", patterned(DType::I64, {2}, 3)}})));
  std::string original = readBytes(good);
  std::mt19937 rng(57);
  int refused = 0;
  for (int iter = 0; iter < 1000; ++iter) {
    std::string bytes = original;
    if (iter % 3 == 0)
      bytes.resize(rng() % (bytes.size() + 1));
    else
      for (int i = 0, n = 1 + rng() % 3; i < n; ++i)
        bytes[rng() % bytes.size()] = static_cast<char>(rng());
    std::string p = writeBytes("mutated.ckpt", bytes);
    auto file = CheckpointFile::open(p);
    if (!file) {
      std::string message = llvm::toString(file.takeError());
      EXPECT_EQ(message.rfind(p + ": ", 0), 0u) << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
      ++refused;
      continue;
    }
    for (const std::string &name : file->names()) {
      auto t = file->load(name);
      ASSERT_TRUE(bool(t));
      EXPECT_LE(t->byteSize(), bytes.size());
    }
  }
  EXPECT_GT(refused, 300);
}

} // namespace
