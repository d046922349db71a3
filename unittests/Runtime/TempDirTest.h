//===- TempDirTest.h - A test fixture with a scratch directory --*- C++ -*-===//
#ifndef MS_UNITTESTS_RUNTIME_TEMPDIRTEST_H
#define MS_UNITTESTS_RUNTIME_TEMPDIRTEST_H

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>

/// Each test gets a fresh directory, removed afterwards, and helpers to
/// write and read raw files in it.
class TempDirTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ms-runtime-test", dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }

  std::string path(llvm::StringRef name) {
    llvm::SmallString<128> p(dir);
    llvm::sys::path::append(p, name);
    return std::string(p);
  }

  std::string writeBytes(llvm::StringRef name, llvm::StringRef bytes) {
    std::string p = path(name);
    std::error_code ec;
    llvm::raw_fd_ostream os(p, ec);
    EXPECT_FALSE(ec);
    os << bytes;
    return p;
  }

  std::string readBytes(llvm::StringRef p) {
    auto buffer = llvm::MemoryBuffer::getFile(p);
    EXPECT_TRUE(bool(buffer));
    return buffer ? (*buffer)->getBuffer().str() : std::string();
  }

  llvm::SmallString<128> dir;
};

#endif // MS_UNITTESTS_RUNTIME_TEMPDIRTEST_H
