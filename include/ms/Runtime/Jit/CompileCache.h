//===- CompileCache.h - Compiled graphs kept on disk ------------*- C++ -*-===//
//
// The persistent compile cache (MindSpore's enable_compile_cache): a
// directory of entries, one file per compiled graph, named by a key that
// hashes everything the machine code depends on: the IR text, the entry,
// the pipeline options, the LLVM version, the host CPU (name and features),
// the ms version and the build of the compiler itself. An entry holds the
// object code and the entry's signature, so a hit loads the object straight
// into a JIT without running the MLIR pipeline.
//
// An entry is trusted only after its checks pass. The directory is made
// private (0700), and only a regular file owned by this user and writable
// by no one else, no larger than the cache's bound, is read: the checksum
// shows integrity, not authorship. Then magic, lengths, an xxh3 checksum
// over everything, and the identity it was built for (key, ms and LLVM
// versions, CPU, build). A hit serves a call only when its recorded
// signature is the one read from the caller's graph (compileCached). A
// truncated, corrupt, foreign or untrusted entry is rebuilt, never
// executed. Writers go through a temporary file, fsync and an atomic
// rename (ms/Support/FileAccess.h), so two processes filling the same
// entry at once leave one whole entry. The directory has a size bound:
// after each store, the least recently used entries go until it fits.
//
//===----------------------------------------------------------------------===//
#ifndef MS_RUNTIME_JIT_COMPILECACHE_H
#define MS_RUNTIME_JIT_COMPILECACHE_H

#include "ms/Pipelines/CompileOptions.h"
#include "ms/Runtime/Jit/Signature.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace ms {
namespace runtime {

/// What the machine code in an entry was built for and by.
struct CacheIdentity {
  std::string msVersion;
  std::string llvmVersion;
  std::string cpuName;
  std::string cpuFeatures; ///< "+avx2,+fma,-avx512f,...", sorted
  std::string buildId;     ///< the compiler binary (path, size, mtime)

  /// This process on this host.
  static const CacheIdentity &host();
  bool operator==(const CacheIdentity &other) const;
};

/// One compiled graph: what the JIT module needs besides the code.
struct CacheEntry {
  EntrySignature signature;
  std::string object; ///< a relocatable object file for the host
};

/// How the last lookup went, for users (Graph.compile_cache in Python,
/// ms-run --time-compile) and tests.
enum class CacheStatus { Off, Hit, Miss, Rebuilt };
llvm::StringRef cacheStatusName(CacheStatus status);

class CompileCache {
public:
  /// The size bound when none is given: $MS_COMPILER_CACHE_MAX_SIZE
  /// megabytes, else 1024.
  static uint64_t defaultMaxBytes();

  explicit CompileCache(std::string dir, uint64_t maxBytes = defaultMaxBytes(),
                        CacheIdentity identity = CacheIdentity::host());

  const std::string &directory() const { return dir; }

  /// The key of compiling `entry` of `irText` with `options` (hex SHA-256).
  /// Options that do not change the code (dumpIRDir) are left out.
  std::string key(llvm::StringRef irText, llvm::StringRef entry,
                  const CompileOptions &options) const;

  /// The entry's file.
  std::string pathOf(llvm::StringRef key) const;

  /// The entry stored under `key`, or nullopt. A bad entry (truncated,
  /// corrupt or foreign) is removed and `*rejection` says why; a missing
  /// one leaves `*rejection` empty.
  std::optional<CacheEntry> load(llvm::StringRef key,
                                 std::string *rejection = nullptr);

  /// Writes the entry (temporary file, then atomic rename) and evicts the
  /// least recently used entries beyond the size bound.
  llvm::Error store(llvm::StringRef key, const CacheEntry &entry);

  /// Removes least recently used entries until the directory fits the
  /// bound, and temporary files that writers left behind an hour ago.
  /// Returns the bytes removed.
  uint64_t evict();

private:
  std::string dir;
  uint64_t maxBytes;
  CacheIdentity identity;
};

/// Encodes and decodes one entry's file (exposed for tests).
std::string encodeCacheEntry(llvm::StringRef key,
                             const CacheIdentity &identity,
                             const CacheEntry &entry);
/// Fails with the reason when `bytes` is not a whole, intact entry for
/// `key` built for `identity`.
llvm::Expected<CacheEntry> decodeCacheEntry(llvm::StringRef bytes,
                                            llvm::StringRef key,
                                            const CacheIdentity &identity);

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_JIT_COMPILECACHE_H
