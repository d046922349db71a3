//===- FileAccessTest.cpp - readRegularFile and writeFileAtomically -------===//

#include "ms/Support/FileAccess.h"

#include "TempDirTest.h"

#include "llvm/Support/Error.h"

#include "gtest/gtest.h"

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <csignal>
#include <string>
#include <unistd.h>

using namespace ms;

namespace {

class FileAccessTest : public TempDirTest {
protected:
  /// The error readRegularFile gives for `p` ("" when it reads).
  std::string readError(const std::string &p, uint64_t max =
                                                  kDefaultMaxFileBytes) {
    auto buffer = readRegularFile(p, max);
    return buffer ? "" : llvm::toString(buffer.takeError());
  }

  /// The error writeFileAtomically gives ("" when it writes).
  std::string writeText(const std::string &p, const std::string &text) {
    llvm::Error err =
        writeFileAtomically(p, [&](llvm::raw_ostream &os) { os << text; });
    return err ? llvm::toString(std::move(err)) : "";
  }

  /// The names in the scratch directory.
  std::vector<std::string> entries() {
    std::vector<std::string> names;
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
         it.increment(ec))
      names.push_back(llvm::sys::path::filename(it->path()).str());
    return names;
  }
};

TEST_F(FileAccessTest, ReadsARegularFile) {
  std::string p = writeBytes("a.bin", llvm::StringRef("ab\0cd", 5));
  auto buffer = readRegularFile(p);
  ASSERT_TRUE(bool(buffer)) << llvm::toString(buffer.takeError());
  EXPECT_EQ((*buffer)->getBuffer(), llvm::StringRef("ab\0cd", 5));
}

TEST_F(FileAccessTest, RefusesEveryOtherKindByName) {
  EXPECT_EQ(readError("/dev/zero"),
            "/dev/zero: not a regular file (a character device)");
  EXPECT_EQ(readError(std::string(dir)),
            std::string(dir) + ": not a regular file (a directory)");
  std::string fifo = path("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // Opened without blocking: no writer ever comes.
  EXPECT_EQ(readError(fifo), fifo + ": not a regular file (a FIFO)");
  std::string link = path("zero-link");
  ASSERT_FALSE(llvm::sys::fs::create_link("/dev/zero", link));
  EXPECT_EQ(readError(link), link + ": not a regular file (a character "
                                    "device)");
}

TEST_F(FileAccessTest, MissingAndTooLargeFilesAreErrors) {
  EXPECT_NE(readError(path("none")).find("cannot open file: No such file"),
            std::string::npos);
  std::string p = writeBytes("big", std::string(100, 'x'));
  EXPECT_EQ(readError(p, 100), "");
  EXPECT_EQ(readError(p, 99), p + ": the file is 100 bytes, more than the 99 "
                                  "this reader accepts");
}

TEST_F(FileAccessTest, WriteReplacesTheFileAndLeavesNoTemporary) {
  std::string p = path("ck.bin");
  ASSERT_EQ(writeText(p, "first"), "");
  ASSERT_EQ(writeText(p, "second"), "");
  EXPECT_EQ(readBytes(p), "second");
  EXPECT_EQ(entries(), std::vector<std::string>{"ck.bin"});
}

TEST_F(FileAccessTest, AFailedWriteKeepsTheOldFile) {
  std::string p = path("ck.bin");
  ASSERT_EQ(writeText(p, "old contents"), "");
  // A directory in the way of the rename: the write fails at its end.
  std::string blocked = path("blocked");
  ASSERT_FALSE(llvm::sys::fs::create_directory(blocked));
  EXPECT_NE(writeText(blocked, "new").find(blocked + ": cannot replace the "
                                           "file"),
            std::string::npos);
  EXPECT_EQ(readBytes(p), "old contents");
  EXPECT_EQ(entries().size(), 2u) << "a temporary file was left behind";
  std::string missing = path("no-dir/x");
  EXPECT_NE(writeText(missing, "").find(missing + ": cannot open file for "
                                        "writing"),
            std::string::npos);
}

/// A child that writes `size` bytes over `p` with RLIMIT_FSIZE at `limit`:
/// killed by SIGXFSZ part way, or told EFBIG when it ignores the signal.
int writeUnderLimit(const std::string &p, size_t size, rlim_t limit,
                    bool ignoreSignal) {
  pid_t pid = ::fork();
  if (pid == 0) {
    if (ignoreSignal)
      std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit r = {limit, limit};
    ::setrlimit(RLIMIT_FSIZE, &r);
    llvm::Error err = writeFileAtomically(
        p, [&](llvm::raw_ostream &os) { os << std::string(size, 'n'); });
    bool failed = bool(err);
    llvm::consumeError(std::move(err));
    ::_exit(failed ? 3 : 0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

TEST_F(FileAccessTest, AWriteStoppedAtAnySizeKeepsTheOldFile) {
  std::string p = path("ck.bin");
  std::string old(5000, 'o');
  ASSERT_EQ(writeText(p, old), "");
  for (rlim_t limit : {0, 1, 100, 4095, 4096, 4999}) {
    for (bool ignore : {false, true}) {
      int status = writeUnderLimit(p, 5000, limit, ignore);
      if (ignore)
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 3) << limit;
      else
        EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGXFSZ)
            << limit;
      EXPECT_EQ(readBytes(p), old) << "limit " << limit;
    }
  }
}

} // namespace
