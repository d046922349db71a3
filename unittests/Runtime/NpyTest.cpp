//===- NpyTest.cpp - Tests for .npy reading and writing -------------------===//

#include "ms/Runtime/Formats/Npy.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "TempDirTest.h"

#include "gtest/gtest.h"

#include <cstring>
#include <random>

using namespace ms::runtime;

namespace {

class NpyTest : public TempDirTest {
protected:
  /// Builds a version 1.0 file around `dict` the way numpy pads it.
  static std::string npyFile(llvm::StringRef dict, llvm::StringRef data,
                             unsigned major = 1) {
    size_t lenBytes = major == 1 ? 2 : 4;
    std::string header = dict.str();
    size_t total = 8 + lenBytes + header.size() + 1;
    header += std::string((64 - total % 64) % 64, ' ') + "\n";
    std::string out("\x93NUMPY", 6);
    out += char(major);
    out += char(0);
    for (size_t i = 0; i < lenBytes; ++i)
      out += char((header.size() >> (8 * i)) & 0xff);
    return out + header + data.str();
  }

  /// Reads `p` expecting failure; returns the message.
  static std::string readError(const std::string &p) {
    llvm::Expected<HostTensor> t = readNpy(p);
    if (t) {
      ADD_FAILURE() << "expected an error reading " << p;
      return "";
    }
    return llvm::toString(t.takeError());
  }

};

std::string floatBytes(std::initializer_list<float> values) {
  std::string out;
  for (float v : values)
    out.append(reinterpret_cast<const char *>(&v), sizeof(v));
  return out;
}

/// Varied bytes; a bool's are 0 or 1, the only bytes a bool may hold.
HostTensor patterned(DType dtype, llvm::ArrayRef<int64_t> shape) {
  HostTensor t(dtype, shape);
  auto *bytes = static_cast<unsigned char *>(t.data());
  bool isBool = dtypeInfo(dtype).kind == DTypeKind::Bool;
  for (size_t i = 0; i < t.byteSize(); ++i)
    bytes[i] = static_cast<unsigned char>(i * 37 + 11) & (isBool ? 1 : 0xff);
  return t;
}

TEST_F(NpyTest, RoundTripAllDTypesAndShapes) {
  const std::vector<std::vector<int64_t>> shapes = {
      {}, {1}, {10}, {64, 10}, {3, 4, 5}, {0}, {2, 0, 3}};
  for (const DTypeInfo &info : allDTypes()) {
    if (info.npy.empty())
      continue; // bfloat16: numpy has no descr for it
    DType dtype = info.dtype;
    for (const auto &shape : shapes) {
      SCOPED_TRACE(std::string(dtypeName(dtype)) + " " + shapeString(shape));
      HostTensor t = patterned(dtype, shape);
      std::string p = path("rt.npy");
      ASSERT_FALSE(bool(writeNpy(p, t)));

      std::string file = readBytes(p);
      ASSERT_GE(file.size(), 10u);
      EXPECT_EQ(file.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
      size_t headerLen = (unsigned char)file[8] | ((unsigned char)file[9] << 8);
      EXPECT_EQ((10 + headerLen) % 64, 0u);
      EXPECT_EQ(file[10 + headerLen - 1], '\n');
      EXPECT_EQ(file.size(), 10 + headerLen + t.byteSize());

      llvm::Expected<HostTensor> back = readNpy(p);
      ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
      EXPECT_TRUE(back->sameTypeAs(t));
      EXPECT_EQ(std::memcmp(back->data(), t.data(), t.byteSize()), 0);
    }
  }
}

TEST_F(NpyTest, WritesNumpyStyleHeader) {
  std::string p = path("h.npy");
  ASSERT_FALSE(bool(writeNpy(p, HostTensor(DType::F32, {64, 10}))));
  std::string file = readBytes(p);
  EXPECT_EQ(file.substr(10, 61),
            "{'descr': '<f4', 'fortran_order': False, 'shape': (64, 10), }");
  ASSERT_FALSE(bool(writeNpy(p, HostTensor(DType::I64, {7}))));
  EXPECT_NE(readBytes(p).find("'descr': '<i8'"), std::string::npos);
  EXPECT_NE(readBytes(p).find("'shape': (7,), }"), std::string::npos);
  ASSERT_FALSE(bool(writeNpy(p, HostTensor(DType::F16, {}))));
  EXPECT_NE(readBytes(p).find("'descr': '<f2'"), std::string::npos);
  EXPECT_NE(readBytes(p).find("'shape': (), }"), std::string::npos);
}

TEST_F(NpyTest, ReadsHandWrittenFile) {
  std::string p = writeBytes(
      "a.npy",
      npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }",
              floatBytes({1.0f, -2.0f, 0.5f, 3.25f})));
  llvm::Expected<HostTensor> t = readNpy(p);
  ASSERT_TRUE(bool(t)) << llvm::toString(t.takeError());
  EXPECT_EQ(t->typeString(), "tensor<2x2xf32>");
  EXPECT_EQ(t->dataAs<float>()[1], -2.0f);
  EXPECT_EQ(t->dataAs<float>()[3], 3.25f);
}

TEST_F(NpyTest, ReadsVersion2And3) {
  for (unsigned major : {2u, 3u}) {
    std::string p = writeBytes(
        "v.npy",
        npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }",
                floatBytes({1, 2, 3}), major));
    llvm::Expected<HostTensor> t = readNpy(p);
    ASSERT_TRUE(bool(t)) << llvm::toString(t.takeError());
    EXPECT_EQ(t->typeString(), "tensor<3xf32>");
    EXPECT_EQ(t->dataAs<float>()[2], 3.0f);
  }
}

TEST_F(NpyTest, AcceptsHeaderVariations) {
  // Key order, double quotes, extra spaces, no trailing comma, Python 2 longs.
  std::string p = writeBytes(
      "var.npy", npyFile("{ \"shape\" : ( 1 , 2L ) ,'fortran_order':False,"
                         "'descr':'<i4'}",
                         std::string(8, '\0')));
  llvm::Expected<HostTensor> t = readNpy(p);
  ASSERT_TRUE(bool(t)) << llvm::toString(t.takeError());
  EXPECT_EQ(t->typeString(), "tensor<1x2xi32>");
}

TEST_F(NpyTest, MissingFile) {
  std::string p = path("nope.npy");
  EXPECT_EQ(readError(p), p + ": cannot open file: No such file or directory");
}

TEST_F(NpyTest, BoolBytesOtherThanZeroAndOneAreRefused) {
  std::string p = writeBytes(
      "b.npy", npyFile("{'descr': '|b1', 'fortran_order': False, 'shape': "
                       "(3,), }",
                       llvm::StringRef("\0\1\xff", 3)));
  EXPECT_EQ(readError(p), p + ": the array: bool element 2 is the byte 0xff; "
                              "a bool is 0 or 1");
}

TEST_F(NpyTest, DevicesAreRefusedBeforeReading) {
  EXPECT_EQ(readError("/dev/zero"),
            "/dev/zero: not a regular file (a character device)");
}

TEST_F(NpyTest, BadMagic) {
  std::string p = writeBytes("bad.npy", "PK\x03\x04 this is a zip file");
  EXPECT_EQ(readError(p), p + ": not a .npy file (bad magic)");
  p = writeBytes("empty.npy", "");
  EXPECT_EQ(readError(p), p + ": not a .npy file (bad magic)");
}

TEST_F(NpyTest, TruncatedPreambleAndHeader) {
  std::string p = writeBytes("short.npy", std::string("\x93NUMPY\x01", 7));
  EXPECT_EQ(readError(p), p + ": truncated: file ends inside the preamble");
  p = writeBytes("short2.npy", std::string("\x93NUMPY\x01\x00\x10", 9));
  EXPECT_EQ(readError(p), p + ": truncated: file ends inside the preamble");
  p = writeBytes("hdr.npy",
                 std::string("\x93NUMPY\x01\x00\x00\x01{'descr'", 18));
  EXPECT_EQ(readError(p), p + ": truncated: header length is 256 bytes, file "
                              "has 8 after the preamble");
}

TEST_F(NpyTest, UnsupportedVersion) {
  std::string file =
      npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }",
              floatBytes({1}));
  file[6] = 4;
  std::string p = writeBytes("v4.npy", file);
  EXPECT_EQ(readError(p), p + ": unsupported .npy format version 4.0");
}

TEST_F(NpyTest, TruncatedData) {
  std::string p = writeBytes(
      "t.npy",
      npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (64, 10), }",
              std::string(100, '\0')));
  EXPECT_EQ(
      readError(p),
      p + ": truncated: header promises 2560 bytes of data, file has 100");
}

TEST_F(NpyTest, UnsupportedDTypes) {
  const std::string expected =
      " (expected <f4, <f2, <i4, <i8, |b1, <f8, |i1, <i2, |u1, <u2, <u4, <u8)";
  std::string p = writeBytes(
      "c8.npy",
      npyFile("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }",
              std::string(8, '\0')));
  EXPECT_EQ(readError(p), p + ": unsupported dtype '<c8'" + expected);
  // One-byte types have no byte order, multi-byte ones need one.
  p = writeBytes(
      "u1.npy",
      npyFile("{'descr': '<u1', 'fortran_order': False, 'shape': (1,), }",
              "x"));
  EXPECT_EQ(readError(p), p + ": unsupported dtype '<u1'" + expected);
  p = writeBytes(
      "f4.npy",
      npyFile("{'descr': '|f4', 'fortran_order': False, 'shape': (1,), }",
              floatBytes({1})));
  EXPECT_EQ(readError(p), p + ": unsupported dtype '|f4'" + expected);
  p = writeBytes("rec.npy",
                 npyFile("{'descr': [('a', '<f4')], 'fortran_order': False, "
                         "'shape': (1,), }",
                         floatBytes({1})));
  EXPECT_EQ(readError(p), p + ": unsupported dtype (structured arrays are not "
                              "supported; " + expected.substr(2));
}

TEST_F(NpyTest, BigEndian) {
  std::string p = writeBytes(
      "be.npy",
      npyFile("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }",
              floatBytes({1})));
  EXPECT_EQ(readError(p), p + ": big-endian data is not supported");
}

TEST_F(NpyTest, FortranOrder) {
  std::string p = writeBytes(
      "f.npy",
      npyFile("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }",
              floatBytes({1, 2, 3, 4})));
  EXPECT_EQ(readError(p), p + ": Fortran-order arrays are not supported");
}

TEST_F(NpyTest, MalformedHeaders) {
  struct Case {
    const char *dict;
    const char *message;
  } cases[] = {
      {"garbage", "malformed header: expected '{' at start of header"},
      {"{'descr': '<f4', 'fortran_order': False}",
       "malformed header: missing key 'shape'"},
      {"{'descr': '<f4', 'shape': (1,)}",
       "malformed header: missing key 'fortran_order'"},
      {"{'fortran_order': False, 'shape': (1,)}",
       "malformed header: missing key 'descr'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}",
       "malformed header: unexpected key 'x'"},
      {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False}",
       "malformed header: duplicate key 'descr'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (-3,), }",
       "malformed header: negative shape dimension"},
      {"{'descr': '<f4', 'fortran_order': False, "
       "'shape': (99999999999999999999,), }",
       "malformed header: shape dimension too large"},
      {"{'descr': '<f4', 'fortran_order': False, "
       "'shape': (4294967296, 4294967296), }",
       "malformed header: shape [4294967296, 4294967296] is too large"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': [1], }",
       "malformed header: 'shape' must be a tuple"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': ('a',), }",
       "malformed header: shape entries must be integers"},
      {"{'descr': '<f4', 'fortran_order': 0, 'shape': (1,), }",
       "malformed header: 'fortran_order' must be True or False"},
      {"{'descr': '<f4, 'fortran_order': False, 'shape': (1,), }",
       "malformed header: expected ',' or '}' in dictionary"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,",
       "malformed header: unexpected end of header"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1.5,), }",
       "malformed header: malformed integer"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,), } extra",
       "malformed header: unexpected text after the dictionary"},
      {"{'descr': '<f4' 'fortran_order': False}",
       "malformed header: expected ',' or '}' in dictionary"},
      {"{1: 2}", "malformed header: dictionary keys must be strings"},
      {"{'a': ((((((((((((((((((((1))))))))))))))))))))}",
       "malformed header: header nested too deeply"},
      {"{'a': @}", "malformed header: unexpected character '@'"},
      {"{'a': 'unterminated}", "malformed header: newline inside a string"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.dict);
    std::string p = writeBytes("m.npy", npyFile(c.dict, std::string(64, '\0')));
    EXPECT_EQ(readError(p), p + ": " + c.message);
  }
}

TEST_F(NpyTest, UnterminatedStringWithoutNewline) {
  std::string p =
      writeBytes("u.npy", std::string("\x93NUMPY\x01\x00\x08\x00{'a': 'x", 18));
  EXPECT_EQ(readError(p), p + ": malformed header: unterminated string");
}

TEST_F(NpyTest, ErrorsAreSingleLine) {
  std::string p = writeBytes("nl.npy", npyFile("{'a\nb': 1}", ""));
  std::string message = readError(p);
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_EQ(message.rfind(p + ": ", 0), 0u) << message;
}

TEST_F(NpyTest, CorruptedFilesNeverCrash) {
  HostTensor t = patterned(DType::F32, {5, 7});
  std::string good = path("good.npy");
  ASSERT_FALSE(bool(writeNpy(good, t)));
  std::string original = readBytes(good);
  std::mt19937 rng(1234);
  for (int iter = 0; iter < 2000; ++iter) {
    std::string bytes = original;
    if (iter % 3 == 0) {
      bytes.resize(rng() % (bytes.size() + 1));
    } else {
      int flips = 1 + rng() % 4;
      for (int i = 0; i < flips; ++i)
        bytes[rng() % 80] = static_cast<char>(rng());
    }
    std::string p = writeBytes("fuzz.npy", bytes);
    llvm::Expected<HostTensor> r = readNpy(p);
    if (r) {
      EXPECT_LE(r->byteSize(), bytes.size());
    } else {
      std::string message = llvm::toString(r.takeError());
      EXPECT_EQ(message.rfind(p + ": ", 0), 0u) << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
  }
}

TEST_F(NpyTest, WriteErrors) {
  std::string p = path("missing-dir/x.npy");
  llvm::Error err = writeNpy(p, HostTensor(DType::F32, {1}));
  ASSERT_TRUE(bool(err));
  EXPECT_EQ(llvm::toString(std::move(err)),
            p + ": cannot open file for writing: No such file or directory");

  err = writeNpy(path("y.npy"), HostTensor());
  ASSERT_TRUE(bool(err));
  EXPECT_EQ(llvm::toString(std::move(err)),
            path("y.npy") + ": cannot write an invalid (empty) tensor");
}

} // namespace
