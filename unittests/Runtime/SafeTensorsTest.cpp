//===- SafeTensorsTest.cpp - Tests for .safetensors I/O -------------------===//

#include "ms/Runtime/Formats/SafeTensors.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "TempDirTest.h"

#include "gtest/gtest.h"

#include <cstring>
#include <random>

using namespace ms::runtime;

namespace {

class SafeTensorsTest : public TempDirTest {
protected:
  /// A file with the given JSON header and `dataSize` bytes of data.
  std::string writeFile(llvm::StringRef name, llvm::StringRef json,
                        size_t dataSize) {
    return writeBytes(name, le64(json.size()) + json.str() +
                                std::string(dataSize, '\x5a'));
  }

  static std::string le64(uint64_t v) {
    std::string out;
    for (int i = 0; i < 8; ++i)
      out += char((v >> (8 * i)) & 0xff);
    return out;
  }

  static std::string openError(const std::string &p) {
    llvm::Expected<SafeTensorsFile> f = SafeTensorsFile::open(p);
    if (f) {
      ADD_FAILURE() << "expected an error opening " << p;
      return "";
    }
    return llvm::toString(f.takeError());
  }

};

HostTensor patterned(DType dtype, llvm::ArrayRef<int64_t> shape, int seed) {
  HostTensor t(dtype, shape);
  auto *bytes = static_cast<unsigned char *>(t.data());
  for (size_t i = 0; i < t.byteSize(); ++i)
    bytes[i] = static_cast<unsigned char>(i * 13 + seed);
  return t;
}

TEST_F(SafeTensorsTest, RoundTrip) {
  std::vector<std::pair<std::string, HostTensor>> tensors = {
      {"dense.weight", patterned(DType::F32, {10, 4}, 1)},
      {"dense.bias", patterned(DType::F32, {10}, 2)},
      {"emb", patterned(DType::F16, {3, 5}, 3)},
      {"ids", patterned(DType::I64, {7}, 4)},
      {"count", patterned(DType::I32, {}, 5)},
      {"empty", patterned(DType::F32, {0, 4}, 6)},
  };
  std::string p = path("model.safetensors");
  ASSERT_FALSE(bool(writeSafeTensors(p, tensors)));

  llvm::Expected<SafeTensorsFile> file = SafeTensorsFile::open(p);
  ASSERT_TRUE(bool(file)) << llvm::toString(file.takeError());
  EXPECT_EQ(file->names(),
            (std::vector<std::string>{"count", "dense.bias", "dense.weight",
                                      "emb", "empty", "ids"}));
  EXPECT_TRUE(file->contains("emb"));
  EXPECT_FALSE(file->contains("emb2"));
  for (const auto &[name, tensor] : tensors) {
    SCOPED_TRACE(name);
    llvm::Expected<HostTensor> loaded =
        file->load(name, tensor.dtype(), tensor.shape());
    ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
    EXPECT_TRUE(loaded->sameTypeAs(tensor));
    EXPECT_EQ(std::memcmp(loaded->data(), tensor.data(), tensor.byteSize()), 0);
    llvm::Expected<HostTensor> plain = file->load(name);
    ASSERT_TRUE(bool(plain)) << llvm::toString(plain.takeError());
    EXPECT_TRUE(plain->sameTypeAs(tensor));
    EXPECT_EQ(std::memcmp(plain->data(), tensor.data(), tensor.byteSize()), 0);
  }
}

TEST_F(SafeTensorsTest, WrittenLayout) {
  std::vector<std::pair<std::string, HostTensor>> tensors = {
      {"b", patterned(DType::F32, {2, 3}, 1)},
      {"a", patterned(DType::I64, {2}, 2)},
  };
  std::string p = path("layout.safetensors");
  ASSERT_FALSE(bool(writeSafeTensors(p, tensors)));
  std::string bytes = readBytes(p);
  ASSERT_GE(bytes.size(), 8u);
  uint64_t n = 0;
  for (int i = 0; i < 8; ++i)
    n |= uint64_t((unsigned char)bytes[i]) << (8 * i);
  EXPECT_EQ(n % 8, 0u);
  ASSERT_EQ(bytes.size(), 8 + n + 24 + 16);

  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse(llvm::StringRef(bytes).substr(8, n));
  ASSERT_TRUE(bool(json)) << llvm::toString(json.takeError());
  const llvm::json::Object *root = json->getAsObject();
  ASSERT_TRUE(root);
  const llvm::json::Object *b = root->getObject("b");
  const llvm::json::Object *a = root->getObject("a");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(b->getString("dtype"), llvm::StringRef("F32"));
  EXPECT_EQ(a->getString("dtype"), llvm::StringRef("I64"));
  // Offsets follow the order given, not the name order.
  EXPECT_EQ(*b->getArray("data_offsets"), (llvm::json::Array{0, 24}));
  EXPECT_EQ(*a->getArray("data_offsets"), (llvm::json::Array{24, 40}));
  EXPECT_EQ(*b->getArray("shape"), (llvm::json::Array{2, 3}));
  EXPECT_EQ(std::memcmp(bytes.data() + 8 + n, tensors[0].second.data(), 24), 0);
  EXPECT_EQ(
      std::memcmp(bytes.data() + 8 + n + 24, tensors[1].second.data(), 16), 0);
}

TEST_F(SafeTensorsTest, SkipsMetadataAndReadsForeignLayout) {
  // Data stored out of name order, as other writers produce.
  std::string json =
      R"({"__metadata__":{"format":"pt"},)"
      R"("w":{"dtype":"F32","shape":[2],"data_offsets":[8,16]},)"
      R"("v":{"dtype":"I32","shape":[2],"data_offsets":[0,8]}}   )";
  std::string data;
  int32_t ints[2] = {7, -9};
  float floats[2] = {1.5f, -0.25f};
  data.append(reinterpret_cast<char *>(ints), 8);
  data.append(reinterpret_cast<char *>(floats), 8);
  std::string p =
      writeBytes("meta.safetensors", le64(json.size()) + json + data);
  llvm::Expected<SafeTensorsFile> file = SafeTensorsFile::open(p);
  ASSERT_TRUE(bool(file)) << llvm::toString(file.takeError());
  EXPECT_EQ(file->names(), (std::vector<std::string>{"v", "w"}));
  EXPECT_FALSE(file->contains("__metadata__"));
  llvm::Expected<HostTensor> w = file->load("w", DType::F32, {2});
  ASSERT_TRUE(bool(w)) << llvm::toString(w.takeError());
  EXPECT_EQ(w->dataAs<float>()[1], -0.25f);
  llvm::Expected<HostTensor> v = file->load("v");
  ASSERT_TRUE(bool(v)) << llvm::toString(v.takeError());
  EXPECT_EQ(v->dataAs<int32_t>()[1], -9);
}

TEST_F(SafeTensorsTest, MissingFile) {
  std::string p = path("nope.safetensors");
  EXPECT_EQ(openError(p), p + ": cannot open file: No such file or directory");
}

TEST_F(SafeTensorsTest, TooShort) {
  std::string p = writeBytes("short.safetensors", "abc");
  EXPECT_EQ(openError(p), p + ": not a safetensors file: 3 bytes is too short "
                              "for the header length");
}

TEST_F(SafeTensorsTest, HeaderLengthLargerThanFile) {
  std::string p = writeBytes("big.safetensors", le64(5000) + "{}");
  EXPECT_EQ(openError(p), p + ": header length 5000 is larger than the rest "
                              "of the file (2 bytes)");
  p = writeBytes("huge.safetensors", le64(~uint64_t(0)) + "{}");
  EXPECT_EQ(openError(p), p + ": header length 18446744073709551615 exceeds "
                              "the limit of 100000000 bytes");
}

TEST_F(SafeTensorsTest, GarbageJson) {
  std::string p = writeFile("g.safetensors", "{\"a\": [1, 2", 0);
  std::string message = openError(p);
  EXPECT_EQ(message.rfind(p + ": malformed JSON header: ", 0), 0u) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;

  p = writeFile("arr.safetensors", "[1, 2]", 0);
  EXPECT_EQ(openError(p), p + ": JSON header is not an object");
}

TEST_F(SafeTensorsTest, InvalidEntries) {
  struct Case {
    const char *json;
    size_t dataSize;
    const char *message;
  } cases[] = {
      {R"({"t": 5})", 0, "tensor 't': entry is not a JSON object"},
      {R"({"t": {"shape": [1], "data_offsets": [0, 4]}})", 4,
       "tensor 't': missing or non-string \"dtype\""},
      {R"({"t": {"dtype": 4, "shape": [1], "data_offsets": [0, 4]}})", 4,
       "tensor 't': missing or non-string \"dtype\""},
      {R"({"t": {"dtype": "Q7", "shape": [1], "data_offsets": [0, 4]}})", 4,
       "tensor 't' has unknown dtype 'Q7'"},
      {R"({"t": {"dtype": "F32", "shape": 3, "data_offsets": [0, 4]}})", 4,
       "tensor 't': \"shape\" must be a list of non-negative integers"},
      {R"({"t": {"dtype": "F32", "shape": [-1], "data_offsets": [0, 4]}})", 4,
       "tensor 't': \"shape\" must be a list of non-negative integers"},
      {R"({"t": {"dtype": "F32", "shape": ["2"], "data_offsets": [0, 4]}})", 4,
       "tensor 't': \"shape\" must be a list of non-negative integers"},
      {R"({"t": {"dtype": "F32", "shape": [1]}})", 4,
       "tensor 't': \"data_offsets\" must be a list of two non-negative "
       "integers"},
      {R"({"t": {"dtype": "F32", "shape": [1], "data_offsets": [0]}})", 4,
       "tensor 't': \"data_offsets\" must be a list of two non-negative "
       "integers"},
      {R"({"t": {"dtype": "F32", "shape": [1], "data_offsets": [-4, 0]}})", 4,
       "tensor 't': \"data_offsets\" must be a list of two non-negative "
       "integers"},
      {R"({"t": {"dtype": "F32", "shape": [1], "data_offsets": [8, 4]}})", 8,
       "tensor 't' has data_offsets [8, 4] with begin after end"},
      {R"({"t": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}})", 8,
       "tensor 't' has data_offsets [4, 12] past the end of the data section "
       "(8 bytes)"},
      {R"({"t": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 20]}})",
       24,
       "tensor 't' has shape [2, 3] and dtype F32, which needs 24 bytes, but "
       "data_offsets [0, 20] span 20"},
      {R"({"t": {"dtype": "F32", "shape": [4294967296, 4294967296, 16],)"
       R"( "data_offsets": [0, 0]}})",
       0,
       "tensor 't' has shape [4294967296, 4294967296, 16] and dtype F32, "
       "which needs too many bytes, but data_offsets [0, 0] span 0"},
      {R"({"__metadata__": [1]})", 0,
       "'__metadata__' must be an object mapping strings to strings"},
      {R"({"__metadata__": {"a": 1}})", 0,
       "'__metadata__' must be an object mapping strings to strings"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.json);
    std::string p = writeFile("bad.safetensors", c.json, c.dataSize);
    EXPECT_EQ(openError(p), p + ": " + c.message);
  }
}

TEST_F(SafeTensorsTest, RejectsDeeplyNestedHeaders) {
  // Deep enough to overflow the stack of llvm::json::parse.
  std::string deep = std::string(60000, '[') + std::string(60000, ']');
  std::string p = writeFile("deep.safetensors", deep, 0);
  EXPECT_EQ(openError(p), p + ": JSON header nests arrays or objects deeper "
                              "than 64 levels");
  // Just over and just under the limit; brackets in strings do not count.
  std::string over = "{\"__metadata__\": " + std::string(64, '[') +
                     std::string(64, ']') + "}";
  p = writeFile("over.safetensors", over, 0);
  EXPECT_EQ(openError(p), p + ": JSON header nests arrays or objects deeper "
                              "than 64 levels");
  std::string quoted = "{\"__metadata__\": {\"k\": \"" +
                       std::string(100, '[') + "\\\"" +
                       std::string(100, '{') + "\"}}";
  p = writeFile("quoted.safetensors", quoted, 0);
  EXPECT_TRUE(static_cast<bool>(SafeTensorsFile::open(p)));
  std::string under = "{\"__metadata__\": " + std::string(63, '[') +
                      std::string(63, ']') + "}";
  p = writeFile("under.safetensors", under, 0);
  // Under the limit the JSON parser sees it, and the shape rules reject it.
  EXPECT_EQ(openError(p), p + ": '__metadata__' must be an object mapping "
                              "strings to strings");
}

TEST_F(SafeTensorsTest, RejectsOverlappingEntries) {
  struct Case {
    const char *json;
    const char *message; // Empty when the file is fine.
  } cases[] = {
      {R"({"a": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]},)"
       R"( "b": {"dtype": "F32", "shape": [4], "data_offsets": [8, 24]}})",
       "tensors 'a' (data_offsets [0, 16]) and 'b' (data_offsets [8, 24]) "
       "overlap"},
      // The same bytes twice.
      {R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [8, 16]},)"
       R"( "b": {"dtype": "I32", "shape": [2], "data_offsets": [8, 16]}})",
       "tensors 'a' (data_offsets [8, 16]) and 'b' (data_offsets [8, 16]) "
       "overlap"},
      // A long range covering a later one that does not touch the middle.
      {R"({"a": {"dtype": "F32", "shape": [6], "data_offsets": [0, 24]},)"
       R"( "b": {"dtype": "F32", "shape": [1], "data_offsets": [4, 8]},)"
       R"( "c": {"dtype": "F32", "shape": [1], "data_offsets": [16, 20]}})",
       "tensors 'a' (data_offsets [0, 24]) and 'b' (data_offsets [4, 8]) "
       "overlap"},
      {R"({"a": {"dtype": "F32", "shape": [5], "data_offsets": [0, 20]},)"
       R"( "b": {"dtype": "F32", "shape": [1], "data_offsets": [24, 28]},)"
       R"( "c": {"dtype": "F32", "shape": [2], "data_offsets": [16, 24]}})",
       "tensors 'a' (data_offsets [0, 20]) and 'c' (data_offsets [16, 24]) "
       "overlap"},
      // Adjacent ranges and empty tensors anywhere are fine.
      {R"({"a": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]},)"
       R"( "b": {"dtype": "F32", "shape": [0], "data_offsets": [8, 8]},)"
       R"( "c": {"dtype": "F32", "shape": [2], "data_offsets": [16, 24]}})",
       ""},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.json);
    std::string p = writeFile("overlap.safetensors", c.json, 28);
    if (*c.message)
      EXPECT_EQ(openError(p), p + ": " + c.message);
    else
      EXPECT_TRUE(static_cast<bool>(SafeTensorsFile::open(p)));
  }
}

TEST_F(SafeTensorsTest, ValidatesEveryEntryBeforeLoading) {
  // One good entry does not make the file usable if another is broken.
  std::string p = writeFile(
      "mixed.safetensors",
      R"({"good": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]},)"
      R"( "zbad": {"dtype": "F32", "shape": [1], "data_offsets": [0, 400]}})",
      4);
  EXPECT_EQ(openError(p), p + ": tensor 'zbad' has data_offsets [0, 400] past "
                              "the end of the data section (4 bytes)");
}

TEST_F(SafeTensorsTest, LoadErrors) {
  std::string p = path("w.safetensors");
  ASSERT_FALSE(bool(writeSafeTensors(
      p, {{"dense.weight", HostTensor(DType::F32, {10, 5})}})));
  llvm::Expected<SafeTensorsFile> file = SafeTensorsFile::open(p);
  ASSERT_TRUE(bool(file)) << llvm::toString(file.takeError());

  auto loadError = [&](llvm::Expected<HostTensor> t) {
    if (t) {
      ADD_FAILURE() << "expected a load error";
      return std::string();
    }
    return llvm::toString(t.takeError());
  };
  EXPECT_EQ(loadError(file->load("dense.weight", DType::F32, {10, 4})),
            p + ": tensor 'dense.weight' has shape [10, 5], parameter "
                "expects [10, 4]");
  EXPECT_EQ(loadError(file->load("dense.weight", DType::F16, {10, 5})),
            p + ": tensor 'dense.weight' has dtype f32, parameter expects f16");
  EXPECT_EQ(loadError(file->load("dense.bias", DType::F32, {10})),
            p + ": has no tensor named 'dense.bias'");
  EXPECT_EQ(loadError(file->load("dense.bias")),
            p + ": has no tensor named 'dense.bias'");
}

TEST_F(SafeTensorsTest, BoolBytesOtherThanZeroAndOneAreRefused) {
  std::string json = R"({"m":{"dtype":"BOOL","shape":[4],)"
                     R"("data_offsets":[0,4]}})";
  std::string p = writeBytes("b.safetensors",
                             le64(json.size()) + json + std::string("\1\0\2\1", 4));
  llvm::Expected<SafeTensorsFile> file = SafeTensorsFile::open(p);
  ASSERT_TRUE(bool(file)) << llvm::toString(file.takeError());
  llvm::Expected<HostTensor> t = file->load("m");
  ASSERT_FALSE(bool(t));
  EXPECT_EQ(llvm::toString(t.takeError()),
            p + ": tensor 'm': bool element 2 is the byte 0x02; a bool is 0 "
                "or 1");
}

TEST_F(SafeTensorsTest, DevicesAndFifosAreRefusedBeforeReading) {
  EXPECT_EQ(openError("/dev/zero"),
            "/dev/zero: not a regular file (a character device)");
}

TEST_F(SafeTensorsTest, UnsupportedDTypeReportedOnLoad) {
  std::string p = writeFile(
      "f8.safetensors",
      R"({"a": {"dtype": "F8_E5M2", "shape": [2], "data_offsets": [0, 2]},)"
      R"( "b": {"dtype": "F8_E4M3", "shape": [2], "data_offsets": [2, 4]},)"
      R"( "c": {"dtype": "F32", "shape": [1], "data_offsets": [4, 8]}})",
      8);
  llvm::Expected<SafeTensorsFile> file = SafeTensorsFile::open(p);
  ASSERT_TRUE(bool(file)) << llvm::toString(file.takeError());
  EXPECT_EQ(file->names(), (std::vector<std::string>{"a", "b", "c"}));
  llvm::Expected<HostTensor> a = file->load("a", DType::F32, {2});
  ASSERT_FALSE(bool(a));
  EXPECT_EQ(llvm::toString(a.takeError()),
            p + ": tensor 'a' has dtype F8_E5M2, which is not supported "
                "(expected F32, F16, I32, I64, BOOL, F64, BF16, I8, I16, U8, "
                "U16, U32, U64)");
  llvm::Expected<HostTensor> b = file->load("b");
  ASSERT_FALSE(bool(b));
  EXPECT_EQ(llvm::toString(b.takeError()),
            p + ": tensor 'b' has dtype F8_E4M3, which is not supported "
                "(expected F32, F16, I32, I64, BOOL, F64, BF16, I8, I16, U8, "
                "U16, U32, U64)");
  llvm::Expected<HostTensor> c = file->load("c", DType::F32, {1});
  EXPECT_TRUE(bool(c)) << llvm::toString(c.takeError());
}

TEST_F(SafeTensorsTest, WriteErrors) {
  auto writeError = [&](const std::string &p,
                        std::vector<std::pair<std::string, HostTensor>> ts) {
    llvm::Error err = writeSafeTensors(p, ts);
    if (!err) {
      ADD_FAILURE() << "expected a write error";
      return std::string();
    }
    return llvm::toString(std::move(err));
  };
  std::string p = path("out.safetensors");
  HostTensor t(DType::F32, {1});
  EXPECT_EQ(writeError(p, {{"x", t}, {"x", t}}),
            p + ": duplicate tensor name 'x'");
  EXPECT_EQ(writeError(p, {{"x", HostTensor()}}),
            p + ": cannot write invalid (empty) tensor 'x'");
  EXPECT_EQ(writeError(p, {{"__metadata__", t}}),
            p + ": '__metadata__' is reserved and cannot name a tensor");
  std::string bad = path("no-such-dir/out.safetensors");
  EXPECT_EQ(writeError(bad, {{"x", t}}),
            bad + ": cannot open file for writing: No such file or directory");
}

TEST_F(SafeTensorsTest, CorruptedFilesNeverCrash) {
  std::string good = path("good.safetensors");
  ASSERT_FALSE(
      bool(writeSafeTensors(good, {{"a", patterned(DType::F32, {3, 2}, 1)},
                                   {"b", patterned(DType::I64, {2}, 2)}})));
  std::string original = readBytes(good);
  std::mt19937 rng(99);
  for (int iter = 0; iter < 2000; ++iter) {
    std::string bytes = original;
    if (iter % 3 == 0) {
      bytes.resize(rng() % (bytes.size() + 1));
    } else {
      int flips = 1 + rng() % 3;
      for (int i = 0; i < flips; ++i)
        bytes[rng() % bytes.size()] = static_cast<char>(rng());
    }
    std::string p = writeBytes("fuzz.safetensors", bytes);
    llvm::Expected<SafeTensorsFile> file = SafeTensorsFile::open(p);
    if (!file) {
      std::string message = llvm::toString(file.takeError());
      EXPECT_EQ(message.rfind(p + ": ", 0), 0u) << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
      continue;
    }
    for (const std::string &name : file->names()) {
      llvm::Expected<HostTensor> t = file->load(name);
      if (t)
        EXPECT_LE(t->byteSize(), bytes.size());
      else
        llvm::consumeError(t.takeError());
    }
  }
}

} // namespace
