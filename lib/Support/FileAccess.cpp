//===- FileAccess.cpp - Reading and writing the files users hand us ------===//

#include "ms/Support/FileAccess.h"

#include "ms/Support/Error.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace ms;

namespace {

/// What a non-regular file is, for the error that refuses it.
const char *kindOf(mode_t mode) {
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISSOCK(mode))
    return "a socket";
  return "not a file";
}

/// Closes a descriptor when it goes out of scope.
struct FdCloser {
  int fd;
  ~FdCloser() {
    if (fd >= 0)
      ::close(fd);
  }
};

/// The directory entry for `path` is on disk (after a rename into it).
void syncDirectoryOf(llvm::StringRef path) {
  llvm::SmallString<256> dir(llvm::sys::path::parent_path(path));
  if (dir.empty())
    dir = ".";
  FdCloser d{::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
  if (d.fd >= 0)
    ::fsync(d.fd); // best effort: some filesystems refuse a directory fsync
}

/// Writes, flushes, fsyncs and closes `fd` (a new temporary file).
llvm::Error writeAndSync(int fd, llvm::StringRef path,
                         llvm::function_ref<void(llvm::raw_ostream &)> write) {
  {
    llvm::raw_fd_ostream out(fd, /*shouldClose=*/false);
    write(out);
    out.flush();
    if (out.has_error()) {
      std::string message = out.error().message();
      out.clear_error();
      ::close(fd);
      return fileError(path, "write failed: " + message);
    }
  }
  if (::fsync(fd) != 0) {
    std::string message = std::strerror(errno);
    ::close(fd);
    return fileError(path, "fsync failed: " + message);
  }
  if (::close(fd) != 0)
    return fileError(path, "close failed: " + std::string(std::strerror(errno)));
  return llvm::Error::success();
}

/// Why `trust` refuses a file of status `st` ("" when it does not).
std::string distrust(const struct stat &st, FileTrust trust) {
  if (trust == FileTrust::Anyone)
    return "";
  if (st.st_uid != ::geteuid())
    return "owned by another user (uid " + std::to_string(st.st_uid) + ")";
  if (st.st_mode & (S_IWGRP | S_IWOTH)) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", unsigned(st.st_mode & 07777));
    return std::string("writable by others (mode ") + mode + ")";
  }
  return "";
}

} // namespace

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
ms::readRegularFile(llvm::StringRef path, uint64_t maxBytes,
                    FileTrust trust) {
  std::string name = path.str();
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused
  // below by its kind. It changes nothing for a regular file.
  FdCloser file{::open(name.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
  if (file.fd < 0)
    return fileError(path, "cannot open file: " +
                               std::string(std::strerror(errno)));
  struct stat st;
  if (::fstat(file.fd, &st) != 0)
    return fileError(path, "cannot stat file: " +
                               std::string(std::strerror(errno)));
  if (!S_ISREG(st.st_mode))
    return fileError(path, llvm::Twine("not a regular file (") +
                               kindOf(st.st_mode) + ")");
  std::string refusal = distrust(st, trust);
  if (!refusal.empty())
    return fileError(path, "refused: " + refusal);
  uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size > maxBytes)
    return fileError(path, "the file is " + llvm::Twine(size) +
                               " bytes, more than the " + llvm::Twine(maxBytes) +
                               " this reader accepts");
  auto buffer = llvm::MemoryBuffer::getOpenFile(
      file.fd, path, size, /*RequiresNullTerminator=*/false,
      /*IsVolatile=*/true);
  if (!buffer)
    return fileError(path, "read failed: " + buffer.getError().message());
  return std::move(*buffer);
}

llvm::Error
ms::writeFileAtomically(llvm::StringRef path,
                        llvm::function_ref<void(llvm::raw_ostream &)> write,
                        unsigned mode) {
  llvm::SmallString<256> model(llvm::sys::path::parent_path(path));
  llvm::sys::path::append(model, "." + llvm::sys::path::filename(path) +
                                     ".tmp-%%%%%%%%");
  int fd = -1;
  llvm::SmallString<256> temp;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          model, fd, temp, llvm::sys::fs::OF_None, mode))
    return fileError(path, "cannot open file for writing: " + ec.message());
  if (llvm::Error err = writeAndSync(fd, path, write)) {
    llvm::sys::fs::remove(temp);
    return err;
  }
  if (std::error_code ec = llvm::sys::fs::rename(temp, path)) {
    llvm::sys::fs::remove(temp);
    return fileError(path, "cannot replace the file: " + ec.message());
  }
  syncDirectoryOf(path);
  return llvm::Error::success();
}
