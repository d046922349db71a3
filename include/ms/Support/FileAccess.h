//===- FileAccess.h - Reading and writing the files users hand us -*- C++ -*-===//
//
// Every reader of a user's file (checkpoints, .npy, IDX, compile-cache
// entries) opens it through readRegularFile, and every writer through
// writeFileAtomically, so that one place decides what a bad path does:
//
// - A device, FIFO or directory is refused by its kind, before a byte is
//   read: /dev/zero would be read until memory runs out, and a FIFO would
//   block the open forever.
// - A size bound is checked against the file's size, before allocating.
// - The bytes are read, never mapped: a file truncated by another process
//   while it is loaded cannot raise SIGBUS.
// - A write goes to a temporary file in the same directory, is fsynced,
//   and is renamed over the target: a reader sees the old file or the new
//   one, and a write that fails part way (a full disk, RLIMIT_FSIZE)
//   leaves the old one as it was.
//
//===----------------------------------------------------------------------===//
#ifndef MS_SUPPORT_FILEACCESS_H
#define MS_SUPPORT_FILEACCESS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>

namespace ms {

/// The largest file a reader accepts unless it names its own bound: far
/// above any checkpoint ms writes, below what would exhaust the machine.
constexpr uint64_t kDefaultMaxFileBytes = uint64_t(64) << 30;

/// Who may have written a file for a reader to trust it.
enum class FileTrust {
  Anyone,
  /// Owned by this process's user and writable by no one else, as ssh
  /// requires of its keys: a checksum shows integrity, not authorship.
  OwnerOnly,
};

/// The contents of the regular file at `path` (following symlinks), or an
/// error naming the path: it does not exist, it is not a regular file (its
/// kind is named), it is larger than `maxBytes`, or `trust` refuses it.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readRegularFile(llvm::StringRef path,
                uint64_t maxBytes = kDefaultMaxFileBytes,
                FileTrust trust = FileTrust::Anyone);

/// Writes `path` with `write` through a temporary file in its directory,
/// fsync and rename. On any error the temporary file is removed and `path`
/// is left as it was. The new file's mode is `mode` less the umask (0666:
/// what a plain open would give).
llvm::Error
writeFileAtomically(llvm::StringRef path,
                    llvm::function_ref<void(llvm::raw_ostream &)> write,
                    unsigned mode = 0666);

} // namespace ms

#endif // MS_SUPPORT_FILEACCESS_H
