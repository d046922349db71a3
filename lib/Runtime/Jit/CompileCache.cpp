//===- CompileCache.cpp - Compiled graphs kept on disk --------------------===//
//
// Entry file layout (integers little-endian):
//   8 bytes  magic "MSCACHE" + format version
//   8 bytes  header length H
//   8 bytes  object length N
//   8 bytes  xxh3-64 of the H + N bytes that follow
//   H bytes  JSON header: key, identity, signature
//   N bytes  the object file
//
//===----------------------------------------------------------------------===//

#include "ms/Runtime/Jit/CompileCache.h"

#include "ms/Runtime/Jit/Diagnostics.h"
#include "ms/Support/FileAccess.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <dlfcn.h>
#include <vector>

namespace ms {
namespace runtime {
namespace {

constexpr llvm::StringLiteral kMagic("MSCACHE\x01");
constexpr size_t kPrefixBytes = 32;
constexpr llvm::StringLiteral kSuffix(".msc");

std::string hostFeatures() {
  std::vector<std::string> features;
  for (const auto &feature : llvm::sys::getHostCPUFeatures())
    features.push_back((feature.getValue() ? "+" : "-") +
                       feature.getKey().str());
  llvm::sort(features);
  return llvm::join(features, ",");
}

/// The binary that holds this code (the Python module or a tool): a rebuilt
/// compiler may generate other code for the same IR, so its entries are not
/// reused.
std::string compilerBuildId() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&compilerBuildId), &info) ||
      !info.dli_fname)
    return "unknown";
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(info.dli_fname, status))
    return info.dli_fname;
  return (llvm::Twine(info.dli_fname) + ":" + llvm::Twine(status.getSize()) +
          ":" +
          llvm::Twine(std::chrono::duration_cast<std::chrono::nanoseconds>(
                          status.getLastModificationTime().time_since_epoch())
                          .count()))
      .str();
}

llvm::json::Array specsToJSON(llvm::ArrayRef<TensorSpec> specs) {
  llvm::json::Array out;
  for (const TensorSpec &spec : specs) {
    llvm::json::Array shape;
    for (int64_t d : spec.shape)
      shape.push_back(d);
    out.push_back(llvm::json::Object{
        {"dtype", dtypeInfo(spec.dtype).safeTensors},
        {"shape", std::move(shape)},
        {"param", spec.paramName},
        {"packed", packedLayoutName(spec.packed)},
        {"in_place_of", spec.inPlaceOf},
    });
  }
  return out;
}

llvm::Error specsFromJSON(const llvm::json::Array *array,
                          std::vector<TensorSpec> &specs) {
  if (!array)
    return makeError("the signature is missing");
  for (const llvm::json::Value &value : *array) {
    const llvm::json::Object *object = value.getAsObject();
    if (!object)
      return makeError("a tensor spec is not an object");
    TensorSpec spec;
    std::optional<llvm::StringRef> dtype = object->getString("dtype");
    std::optional<DType> parsed =
        dtype ? dtypeFromSafeTensorsName(*dtype) : std::nullopt;
    if (!parsed)
      return makeError("a tensor spec has no known dtype");
    spec.dtype = *parsed;
    const llvm::json::Array *shape = object->getArray("shape");
    if (!shape)
      return makeError("a tensor spec has no shape");
    for (const llvm::json::Value &dim : *shape) {
      std::optional<int64_t> d = dim.getAsInteger();
      if (!d)
        return makeError("a shape holds a non-integer");
      spec.shape.push_back(*d);
    }
    spec.paramName = object->getString("param").value_or("").str();
    llvm::StringRef packed = object->getString("packed").value_or("");
    if (!packed.empty()) {
      std::optional<PackedLayout> layout = parsePackedLayout(packed);
      if (!layout)
        return makeError("unknown packed layout '" + packed + "'");
      spec.packed = *layout;
    }
    spec.inPlaceOf = object->getInteger("in_place_of").value_or(-1);
    specs.push_back(std::move(spec));
  }
  return llvm::Error::success();
}

llvm::json::Array copiesToJSON(llvm::ArrayRef<PackedCopy> copies) {
  llvm::json::Array out;
  for (const PackedCopy &copy : copies)
    out.push_back(llvm::json::Object{
        {"arg", int64_t(copy.arg)},
        {"layout", packedLayoutName(copy.layout)},
    });
  return out;
}

/// The signature's packed copies; none when the header has no list.
llvm::Error copiesFromJSON(const llvm::json::Array *array,
                           EntrySignature &signature) {
  if (!array)
    return llvm::Error::success();
  for (const llvm::json::Value &value : *array) {
    const llvm::json::Object *object = value.getAsObject();
    std::optional<int64_t> arg =
        object ? object->getInteger("arg") : std::nullopt;
    std::optional<PackedLayout> layout =
        object ? parsePackedLayout(object->getString("layout").value_or(""))
               : std::nullopt;
    if (!arg || !layout || *arg < 0 ||
        size_t(*arg) >= signature.args.size())
      return makeError("a packed copy is not one of a known argument");
    signature.packedCopies.push_back({size_t(*arg), *layout});
  }
  return llvm::Error::success();
}

llvm::json::Array commBuffersToJSON(llvm::ArrayRef<CommBuffer> buffers) {
  llvm::json::Array out;
  for (const CommBuffer &buffer : buffers)
    out.push_back(llvm::json::Object{
        {"bucket", buffer.bucket},
        {"peer", buffer.peer},
        {"dtype", dtypeInfo(buffer.dtype).safeTensors},
        {"count", buffer.count},
    });
  return out;
}

/// The signature's gradient bucket buffers; none when the header has no
/// list.
llvm::Error commBuffersFromJSON(const llvm::json::Array *array,
                                EntrySignature &signature) {
  if (!array)
    return llvm::Error::success();
  for (const llvm::json::Value &value : *array) {
    const llvm::json::Object *object = value.getAsObject();
    if (!object)
      return makeError("a gradient bucket buffer is not an object");
    std::optional<int64_t> bucket = object->getInteger("bucket");
    std::optional<bool> peer = object->getBoolean("peer");
    std::optional<int64_t> count = object->getInteger("count");
    std::optional<DType> dtype =
        dtypeFromSafeTensorsName(object->getString("dtype").value_or(""));
    // The other rank's bucket is float; a bucket may be its bytes.
    bool floating = dtype && (*dtype == DType::F32 || *dtype == DType::F64);
    if (!bucket || !peer || !count || !dtype || *bucket < 0 || *count < 0 ||
        (*peer && !floating))
      return makeError("a gradient bucket buffer is malformed");
    signature.commBuffers.push_back({*bucket, *peer, *dtype, *count});
  }
  return llvm::Error::success();
}

} // namespace

const CacheIdentity &CacheIdentity::host() {
  static const CacheIdentity identity{MS_VERSION_STRING, LLVM_VERSION_STRING,
                                      llvm::sys::getHostCPUName().str(),
                                      hostFeatures(), compilerBuildId()};
  return identity;
}

bool CacheIdentity::operator==(const CacheIdentity &other) const {
  return msVersion == other.msVersion && llvmVersion == other.llvmVersion &&
         cpuName == other.cpuName && cpuFeatures == other.cpuFeatures &&
         buildId == other.buildId;
}

llvm::StringRef cacheStatusName(CacheStatus status) {
  switch (status) {
  case CacheStatus::Off:
    return "off";
  case CacheStatus::Hit:
    return "hit";
  case CacheStatus::Miss:
    return "miss";
  case CacheStatus::Rebuilt:
    return "rebuilt";
  }
  return "off";
}

std::string encodeCacheEntry(llvm::StringRef key,
                             const CacheIdentity &identity,
                             const CacheEntry &entry) {
  llvm::json::Object header{
      {"key", key},
      {"ms", identity.msVersion},
      {"llvm", identity.llvmVersion},
      {"cpu", identity.cpuName},
      {"features", identity.cpuFeatures},
      {"build", identity.buildId},
      {"entry", entry.signature.entry},
      {"args", specsToJSON(entry.signature.args)},
      {"results", specsToJSON(entry.signature.results)},
      {"packed_copies", copiesToJSON(entry.signature.packedCopies)},
      {"comm_buffers", commBuffersToJSON(entry.signature.commBuffers)},
  };
  std::string json;
  llvm::raw_string_ostream(json) << llvm::json::Value(std::move(header));
  std::string body = json + entry.object;
  std::string out(kMagic);
  char word[8];
  for (uint64_t value : {uint64_t(json.size()), uint64_t(entry.object.size()),
                         llvm::xxh3_64bits(body)}) {
    llvm::support::endian::write64le(word, value);
    out.append(word, 8);
  }
  return out + body;
}

llvm::Expected<CacheEntry> decodeCacheEntry(llvm::StringRef bytes,
                                            llvm::StringRef key,
                                            const CacheIdentity &identity) {
  if (bytes.size() < kPrefixBytes)
    return makeError("truncated (" + llvm::Twine(bytes.size()) + " bytes)");
  if (!bytes.starts_with(kMagic))
    return makeError("not a compile cache entry of this format");
  uint64_t headerSize = llvm::support::endian::read64le(bytes.data() + 8);
  uint64_t objectSize = llvm::support::endian::read64le(bytes.data() + 16);
  uint64_t checksum = llvm::support::endian::read64le(bytes.data() + 24);
  llvm::StringRef body = bytes.drop_front(kPrefixBytes);
  if (headerSize > body.size() || objectSize > body.size() - headerSize)
    return makeError("truncated (" + llvm::Twine(body.size()) + " of " +
                     llvm::Twine(headerSize) + " + " + llvm::Twine(objectSize) +
                     " bytes)");
  if (objectSize != body.size() - headerSize)
    return makeError("trailing bytes after the object code");
  if (llvm::xxh3_64bits(body) != checksum)
    return makeError("checksum mismatch (corrupt)");
  llvm::Expected<llvm::json::Value> parsed =
      llvm::json::parse(body.take_front(headerSize));
  if (!parsed)
    return makeError("bad header: " + llvm::toString(parsed.takeError()));
  const llvm::json::Object *header = parsed->getAsObject();
  if (!header)
    return makeError("bad header: not an object");
  auto field = [&](llvm::StringRef name) {
    return header->getString(name).value_or("<missing>");
  };
  // The key covers the identity, but a copied or renamed file would not.
  if (field("key") != key)
    return makeError("foreign entry (stored under key " + field("key") + ")");
  const std::pair<llvm::StringRef, llvm::StringRef> expected[] = {
      {"ms", identity.msVersion},     {"llvm", identity.llvmVersion},
      {"cpu", identity.cpuName},      {"features", identity.cpuFeatures},
      {"build", identity.buildId}};
  for (auto [name, value] : expected)
    if (field(name) != value)
      return makeError("foreign entry (built for " + name + " '" +
                       field(name) + "', this is '" + value + "')");
  CacheEntry entry;
  entry.signature.entry = field("entry").str();
  if (auto err = specsFromJSON(header->getArray("args"), entry.signature.args))
    return std::move(err);
  if (auto err =
          specsFromJSON(header->getArray("results"), entry.signature.results))
    return std::move(err);
  if (auto err = copiesFromJSON(header->getArray("packed_copies"),
                                entry.signature))
    return std::move(err);
  if (auto err = commBuffersFromJSON(header->getArray("comm_buffers"),
                                     entry.signature))
    return std::move(err);
  if (auto err = entry.signature.checkInPlaceResults())
    return std::move(err);
  entry.object = body.drop_front(headerSize).str();
  return entry;
}

uint64_t CompileCache::defaultMaxBytes() {
  uint64_t megabytes = 1024;
  if (const char *text = std::getenv("MS_COMPILER_CACHE_MAX_SIZE"))
    if (llvm::StringRef(text).getAsInteger(10, megabytes))
      megabytes = 1024; // not a number: the default
  // More megabytes than bytes can count is no bound, not a wrapped one.
  if (megabytes > (UINT64_MAX >> 20))
    return UINT64_MAX;
  return megabytes << 20;
}

CompileCache::CompileCache(std::string dir, uint64_t maxBytes,
                           CacheIdentity identity)
    : dir(std::move(dir)), maxBytes(maxBytes), identity(std::move(identity)) {}

std::string CompileCache::key(llvm::StringRef irText, llvm::StringRef entry,
                              const CompileOptions &options) const {
  llvm::SHA256 hash;
  // Each field with its length, so no two field lists hash alike.
  auto add = [&](llvm::StringRef text) {
    hash.update(std::to_string(text.size()) + ":");
    hash.update(text);
  };
  add("ms-compile-cache");
  add(identity.msVersion);
  add(identity.llvmVersion);
  add(identity.cpuName);
  add(identity.cpuFeatures);
  add(identity.buildId);
  add(jitLevelName(options.jitLevel));
  add(execModeName(resolveExecMode(options)));
  add(std::to_string(effectiveThreads(options)));
  add(entry);
  add(irText);
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

std::string CompileCache::pathOf(llvm::StringRef key) const {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, key + kSuffix);
  return path.str().str();
}

std::optional<CacheEntry> CompileCache::load(llvm::StringRef key,
                                             std::string *rejection) {
  std::string path = pathOf(key);
  if (!llvm::sys::fs::exists(path))
    return std::nullopt;
  // Only a regular file, ours and writable by no one else, no larger than
  // the whole cache may be, is read at all.
  auto buffer = readRegularFile(path, maxBytes, FileTrust::OwnerOnly);
  llvm::Expected<CacheEntry> entry =
      buffer ? decodeCacheEntry((*buffer)->getBuffer(), key, identity)
             : llvm::Expected<CacheEntry>(buffer.takeError());
  if (!entry) {
    std::string reason = llvm::toString(entry.takeError());
    if (rejection)
      *rejection = reason;
    // Rebuilt by the caller's store; removing it now keeps a bad entry
    // from being read again if that store fails.
    llvm::sys::fs::remove(path);
    return std::nullopt;
  }
  // Least recently used goes first: a hit counts as a use.
  if (auto file = llvm::sys::fs::openNativeFileForWrite(
          path, llvm::sys::fs::CD_OpenExisting, llvm::sys::fs::OF_Append)) {
    auto now = std::chrono::system_clock::now();
    (void)llvm::sys::fs::setLastAccessAndModificationTime(*file, now);
    llvm::sys::fs::closeFile(*file);
  } else {
    llvm::consumeError(file.takeError());
  }
  return std::move(*entry);
}

llvm::Error CompileCache::store(llvm::StringRef key, const CacheEntry &entry) {
  // Private: whoever can write here can choose the code that runs.
  if (std::error_code ec = llvm::sys::fs::create_directories(
          dir, /*IgnoreExisting=*/true, llvm::sys::fs::owner_all))
    return makeError("compile cache: cannot create '" + dir +
                     "': " + ec.message());
  // Readers see the old entry or the new one, never a part; of two writers
  // of one key the last rename wins, and both wrote the same bytes' worth.
  std::string bytes = encodeCacheEntry(key, identity, entry);
  if (llvm::Error err = writeFileAtomically(
          pathOf(key), [&](llvm::raw_ostream &os) { os << bytes; }, 0600))
    return makeError("compile cache: " + llvm::toString(std::move(err)));
  evict();
  return llvm::Error::success();
}

uint64_t CompileCache::evict() {
  struct File {
    std::string path;
    uint64_t size;
    llvm::sys::TimePoint<> used;
  };
  std::vector<File> entries;
  uint64_t total = 0, removed = 0;
  auto now = std::chrono::system_clock::now();
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    llvm::StringRef path = it->path();
    llvm::sys::fs::file_status status;
    if (llvm::sys::fs::status(path, status) ||
        status.type() != llvm::sys::fs::file_type::regular_file)
      continue;
    llvm::StringRef name = llvm::sys::path::filename(path);
    if (name.contains(".msc.tmp-")) {
      // A writer that died; live writers finish within seconds.
      if (now - status.getLastModificationTime() > std::chrono::hours(1) &&
          !llvm::sys::fs::remove(path))
        removed += status.getSize();
      continue;
    }
    if (!name.ends_with(kSuffix))
      continue;
    entries.push_back({path.str(), status.getSize(),
                       status.getLastModificationTime()});
    total += status.getSize();
  }
  if (total <= maxBytes)
    return removed;
  llvm::sort(entries,
             [](const File &a, const File &b) { return a.used < b.used; });
  for (const File &file : entries) {
    if (total <= maxBytes)
      break;
    if (!llvm::sys::fs::remove(file.path)) {
      total -= file.size;
      removed += file.size;
    }
  }
  return removed;
}

} // namespace runtime
} // namespace ms
