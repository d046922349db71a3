//===- CacheEntryFuzzer.cpp - The compile cache's entry reader -----------===//
//
// Decodes the input as a compile-cache entry twice: as it is, and with its
// checksum recomputed over its body, so that mutations reach the header's
// JSON and the signature checks behind the checksum (a forged entry, as
// issue 55 found, is exactly such an input). The seeds (fuzz/make_corpus.py)
// are entries for kKey and fuzzIdentity() below.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "ms/Runtime/Jit/CompileCache.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/xxhash.h"

#include <string>

using namespace ms::runtime;

namespace {

constexpr const char *kKey = "fuzz";

const CacheIdentity &fuzzIdentity() {
  static const CacheIdentity identity{"0.1.0", "22", "fuzzcpu", "+avx2",
                                      "fuzz-build"};
  return identity;
}

void decode(llvm::StringRef bytes) {
  auto entry = decodeCacheEntry(bytes, kKey, fuzzIdentity());
  if (!entry) {
    ms::fuzz::ignore(entry.takeError());
    return;
  }
  // A decoded signature is one the runtime may check arguments against.
  std::vector<HostTensor> none;
  ms::fuzz::ignore(entry->signature.checkArguments(none));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string bytes(reinterpret_cast<const char *>(data), size);
  decode(bytes);
  constexpr size_t kPrefix = 32;
  if (bytes.size() >= kPrefix) {
    uint64_t sum = llvm::xxh3_64bits(llvm::StringRef(bytes).drop_front(kPrefix));
    llvm::support::endian::write64le(&bytes[24], sum);
    decode(bytes);
  }
  return 0;
}
