//===- CompileCacheTest.cpp - The persistent compile cache ----------------===//

#include "ms/Runtime/Jit/CompileCache.h"
#include "ms/Runtime/Jit/GraphCompiler.h"

#include "TempDirTest.h"
#include "TestNets.h"

#include "llvm/Support/FileSystem.h"

#include <atomic>
#include <algorithm>
#include <chrono>
#include <cstring>
#include <sys/stat.h>
#include <random>
#include <thread>

using namespace ms;
using namespace ms::runtime;

namespace {

// Dense on a ? batch: the weight is read as passed by the 64-, 32- and
// 16-row tiles and as a packed copy by the 4- and 1-row ones.
const char *kDynamicNet = R"mlir(
func.func @construct(%x: tensor<?x3xf32>,
                     %w: tensor<4x3xf32> {ms.param = "fc.weight"})
    -> tensor<?x4xf32> {
  %0 = ms.dense %x, %w : tensor<?x3xf32>, tensor<4x3xf32>
  %1 = ms.relu %0 : tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}
)mlir";

CacheIdentity testIdentity() {
  return {"0.1.0", "22.1.8", "testcpu", "+avx2,+fma", "build-1"};
}

CacheEntry sampleEntry(size_t objectBytes = 64) {
  CacheEntry entry;
  entry.signature.entry = "construct";
  TensorSpec x;
  x.shape = {2, 3};
  TensorSpec w;
  w.shape = {4, 3};
  w.paramName = "fc.weight";
  w.packed = PackedLayout::Transpose;
  TensorSpec y;
  y.dtype = DType::I64;
  y.shape = {2};
  TensorSpec b;
  b.shape = {4};
  b.paramName = "fc.bias";
  // The bias's update, written into b's buffer.
  TensorSpec next;
  next.shape = {4};
  next.inPlaceOf = 2;
  entry.signature.args = {x, w, b};
  entry.signature.results = {y, next};
  entry.signature.packedCopies = {{1, PackedLayout::Transpose}};
  entry.signature.commBuffers = {{0, true, DType::F32, 10},
                                 {0, false, DType::I8, 40}};
  for (size_t i = 0; i < objectBytes; ++i)
    entry.object.push_back(char(i * 7 + 1));
  return entry;
}

bool accepts(llvm::StringRef bytes, llvm::StringRef key,
             const CacheIdentity &identity) {
  auto decoded = decodeCacheEntry(bytes, key, identity);
  if (!decoded) {
    llvm::consumeError(decoded.takeError());
    return false;
  }
  return true;
}

void setAge(const std::string &path, std::chrono::seconds age) {
  auto file = llvm::sys::fs::openNativeFileForWrite(
      path, llvm::sys::fs::CD_OpenExisting, llvm::sys::fs::OF_Append);
  ASSERT_TRUE(bool(file)) << llvm::toString(file.takeError());
  auto when = std::chrono::system_clock::now() - age;
  EXPECT_FALSE(llvm::sys::fs::setLastAccessAndModificationTime(
      *file, llvm::sys::toTimePoint(std::chrono::system_clock::to_time_t(when))));
  llvm::sys::fs::closeFile(*file);
}

class CompileCacheTest : public TempDirTest {
protected:
  std::string cacheDir() { return path("cache"); }

  /// Overwrites `file` in place with `bytes` (mode 0600, as entries are);
  /// the error, or "".
  static std::string writeText(const std::string &file,
                               const std::string &bytes) {
    std::error_code ec;
    llvm::raw_fd_ostream os(file, ec, llvm::sys::fs::OF_None);
    if (ec)
      return ec.message();
    os << bytes;
    os.close();
    llvm::sys::fs::setPermissions(file, llvm::sys::fs::perms(0600));
    return os.has_error() ? "write failed" : "";
  }
};

TEST_F(CompileCacheTest, KeyCoversEverythingTheCodeDependsOn) {
  CompileCache cache(cacheDir(), 1 << 20, testIdentity());
  CompileOptions options;
  options.numThreads = 1;
  std::string base = cache.key(kNet, "construct", options);
  EXPECT_EQ(base.size(), 64u); // hex SHA-256
  EXPECT_EQ(base, cache.key(kNet, "construct", options));

  EXPECT_NE(base, cache.key(std::string(kNet) + " ", "construct", options));
  EXPECT_NE(base, cache.key(kNet, "other", options));
  CompileOptions o1 = options;
  o1.jitLevel = JitLevel::O1;
  EXPECT_NE(base, cache.key(kNet, "construct", o1));
  CompileOptions threads = options;
  threads.numThreads = 2;
  EXPECT_NE(base, cache.key(kNet, "construct", threads));
  CompileOptions sink = options;
  sink.execMode = ExecMode::NoSink;
  EXPECT_NE(base, cache.key(kNet, "construct", sink));
  // Dumping the IR changes no code.
  CompileOptions dump = options;
  dump.dumpIRDir = "somewhere";
  EXPECT_EQ(base, cache.key(kNet, "construct", dump));

  for (auto change : {&CacheIdentity::msVersion, &CacheIdentity::llvmVersion,
                      &CacheIdentity::cpuName, &CacheIdentity::cpuFeatures,
                      &CacheIdentity::buildId}) {
    CacheIdentity other = testIdentity();
    other.*change += "x";
    CompileCache elsewhere(cacheDir(), 1 << 20, other);
    EXPECT_NE(base, elsewhere.key(kNet, "construct", options));
  }
}

TEST_F(CompileCacheTest, HostIdentityIsFilledIn) {
  const CacheIdentity &host = CacheIdentity::host();
  EXPECT_FALSE(host.msVersion.empty());
  EXPECT_EQ(host.llvmVersion.substr(0, 3), "22.");
  EXPECT_FALSE(host.cpuName.empty());
  EXPECT_NE(host.cpuFeatures.find('+'), std::string::npos);
  EXPECT_FALSE(host.buildId.empty());
}

TEST_F(CompileCacheTest, EntryRoundTrips) {
  CacheEntry entry = sampleEntry();
  std::string bytes = encodeCacheEntry("k1", testIdentity(), entry);
  auto decoded = decodeCacheEntry(bytes, "k1", testIdentity());
  ASSERT_TRUE(bool(decoded)) << llvm::toString(decoded.takeError());
  EXPECT_EQ(decoded->object, entry.object);
  const EntrySignature &sig = decoded->signature;
  EXPECT_EQ(sig.entry, "construct");
  ASSERT_EQ(sig.args.size(), 3u);
  EXPECT_EQ(sig.args[0].typeString(), "tensor<2x3xf32>");
  EXPECT_EQ(sig.args[1].paramName, "fc.weight");
  EXPECT_EQ(sig.args[1].packed, PackedLayout::Transpose);
  EXPECT_EQ(sig.args[0].packed, PackedLayout::None);
  ASSERT_EQ(sig.packedCopies.size(), 1u);
  EXPECT_EQ(sig.packedCopies[0].arg, 1u);
  EXPECT_EQ(sig.packedCopies[0].layout, PackedLayout::Transpose);
  ASSERT_EQ(sig.commBuffers.size(), 2u);
  EXPECT_TRUE(sig.commBuffers[0].peer);
  EXPECT_EQ(sig.commBuffers[0].dtype, DType::F32);
  EXPECT_EQ(sig.commBuffers[0].count, 10);
  EXPECT_FALSE(sig.commBuffers[1].peer);
  EXPECT_EQ(sig.commBuffers[1].dtype, DType::I8);
  EXPECT_EQ(sig.commBuffers[1].count, 40);
  ASSERT_EQ(sig.results.size(), 2u);
  EXPECT_EQ(sig.results[0].typeString(), "tensor<2xi64>");
  EXPECT_EQ(sig.results[0].inPlaceOf, -1);
  EXPECT_EQ(sig.results[1].inPlaceOf, 2);
}

TEST_F(CompileCacheTest, TruncatedEntryIsRejectedAtEveryLength) {
  std::string bytes = encodeCacheEntry("k1", testIdentity(), sampleEntry());
  for (size_t length = 0; length < bytes.size(); ++length) {
    auto decoded = decodeCacheEntry(llvm::StringRef(bytes).take_front(length),
                                    "k1", testIdentity());
    ASSERT_FALSE(bool(decoded)) << "accepted " << length << " bytes";
    std::string message = llvm::toString(decoded.takeError());
    EXPECT_NE(message.find("truncated"), std::string::npos)
        << length << ": " << message;
  }
  // Trailing garbage is no better than a missing tail.
  EXPECT_FALSE(accepts(bytes + "x", "k1", testIdentity()));
}

TEST_F(CompileCacheTest, CorruptEntryFailsTheChecksum) {
  std::string bytes = encodeCacheEntry("k1", testIdentity(), sampleEntry());
  // Every byte after the checksum field: header and object alike.
  for (size_t i = 32; i < bytes.size(); ++i) {
    std::string corrupt = bytes;
    corrupt[i] ^= 0x20;
    auto decoded = decodeCacheEntry(corrupt, "k1", testIdentity());
    ASSERT_FALSE(bool(decoded)) << "byte " << i;
    EXPECT_NE(llvm::toString(decoded.takeError()).find("checksum"),
              std::string::npos);
  }
  std::string badMagic = bytes;
  badMagic[0] = 'X';
  auto decoded = decodeCacheEntry(badMagic, "k1", testIdentity());
  ASSERT_FALSE(bool(decoded));
  EXPECT_NE(llvm::toString(decoded.takeError()).find("format"),
            std::string::npos);
}

TEST_F(CompileCacheTest, ForeignEntryIsRejected) {
  std::string bytes = encodeCacheEntry("k1", testIdentity(), sampleEntry());
  auto wrongKey = decodeCacheEntry(bytes, "k2", testIdentity());
  ASSERT_FALSE(bool(wrongKey));
  EXPECT_NE(llvm::toString(wrongKey.takeError()).find("foreign"),
            std::string::npos);
  CacheIdentity otherCpu = testIdentity();
  otherCpu.cpuFeatures = "+avx512f";
  auto wrongCpu = decodeCacheEntry(bytes, "k1", otherCpu);
  ASSERT_FALSE(bool(wrongCpu));
  std::string message = llvm::toString(wrongCpu.takeError());
  EXPECT_NE(message.find("foreign"), std::string::npos);
  EXPECT_NE(message.find("features"), std::string::npos);
  CacheIdentity otherVersion = testIdentity();
  otherVersion.msVersion = "9.9.9";
  EXPECT_FALSE(accepts(bytes, "k1", otherVersion));
}

TEST_F(CompileCacheTest, PackedCopyOfAnUnknownArgumentIsRejected) {
  CacheEntry entry = sampleEntry();
  entry.signature.packedCopies = {{3, PackedLayout::Transpose}};
  std::string bytes = encodeCacheEntry("k1", testIdentity(), entry);
  auto decoded = decodeCacheEntry(bytes, "k1", testIdentity());
  ASSERT_FALSE(bool(decoded));
  EXPECT_NE(llvm::toString(decoded.takeError()).find("packed copy"),
            std::string::npos);
}

TEST_F(CompileCacheTest, InPlaceResultOfAnInputOrAPackedWeightIsRejected) {
  // x is an input; w a parameter read packed. Each has the result's type.
  struct Case {
    int64_t arg;
    std::vector<int64_t> shape;
  };
  for (const Case &c : {Case{0, {2, 3}}, Case{1, {4, 3}}}) {
    CacheEntry entry = sampleEntry();
    entry.signature.results[1].inPlaceOf = c.arg;
    entry.signature.results[1].shape = c.shape;
    std::string bytes = encodeCacheEntry("k1", testIdentity(), entry);
    auto decoded = decodeCacheEntry(bytes, "k1", testIdentity());
    ASSERT_FALSE(bool(decoded));
    EXPECT_NE(llvm::toString(decoded.takeError()).find("ms.in_place_of"),
              std::string::npos);
  }
}

TEST_F(CompileCacheTest, StoreThenLoad) {
  CompileCache cache(cacheDir(), 1 << 20, testIdentity());
  std::string rejection;
  EXPECT_FALSE(cache.load("k1", &rejection));
  EXPECT_EQ(rejection, "");
  ASSERT_FALSE(bool(cache.store("k1", sampleEntry())));
  auto hit = cache.load("k1", &rejection);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->object, sampleEntry().object);
  EXPECT_EQ(rejection, "");
}

TEST_F(CompileCacheTest, BadFileIsRemovedOnLoad) {
  CompileCache cache(cacheDir(), 1 << 20, testIdentity());
  ASSERT_FALSE(bool(cache.store("k1", sampleEntry())));
  std::string file = cache.pathOf("k1");
  std::string bytes = readBytes(file);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(file, ec);
    os << llvm::StringRef(bytes).take_front(bytes.size() / 2);
  }
  std::string rejection;
  EXPECT_FALSE(cache.load("k1", &rejection));
  EXPECT_NE(rejection.find("truncated"), std::string::npos) << rejection;
  EXPECT_FALSE(llvm::sys::fs::exists(file));
  // A copy of another key's entry is foreign.
  ASSERT_FALSE(bool(cache.store("k2", sampleEntry())));
  ASSERT_FALSE(llvm::sys::fs::copy_file(cache.pathOf("k2"), file));
  EXPECT_FALSE(cache.load("k1", &rejection));
  EXPECT_NE(rejection.find("foreign"), std::string::npos) << rejection;
}

TEST_F(CompileCacheTest, TheDirectoryAndEntriesArePrivate) {
  CompileCache cache(cacheDir(), 1 << 20, testIdentity());
  ASSERT_FALSE(bool(cache.store("k1", sampleEntry())));
  llvm::sys::fs::file_status dir, entry;
  ASSERT_FALSE(llvm::sys::fs::status(cacheDir(), dir));
  ASSERT_FALSE(llvm::sys::fs::status(cache.pathOf("k1"), entry));
  EXPECT_EQ(dir.permissions() & 0777, 0700);
  EXPECT_EQ(entry.permissions() & 0777, 0600);
}

TEST_F(CompileCacheTest, EntriesOthersCouldWriteAreRefused) {
  CompileCache cache(cacheDir(), 1 << 20, testIdentity());
  ASSERT_FALSE(bool(cache.store("k1", sampleEntry())));
  std::string file = cache.pathOf("k1");
  ASSERT_FALSE(llvm::sys::fs::setPermissions(
      file, llvm::sys::fs::perms(0622)));
  std::string rejection;
  EXPECT_FALSE(cache.load("k1", &rejection));
  EXPECT_NE(rejection.find("refused: writable by others (mode 0622)"),
            std::string::npos)
      << rejection;
}

TEST_F(CompileCacheTest, OnlyRegularFilesWithinTheBoundAreRead) {
  CompileCache cache(cacheDir(), 1 << 20, testIdentity());
  ASSERT_FALSE(bool(cache.store("k0", sampleEntry())));
  std::string rejection;
  // A FIFO would block the open, /dev/zero would be read forever.
  std::string fifo = cache.pathOf("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(cache.load("fifo", &rejection));
  EXPECT_NE(rejection.find("not a regular file (a FIFO)"), std::string::npos)
      << rejection;
  ASSERT_FALSE(llvm::sys::fs::create_link("/dev/zero", cache.pathOf("zero")));
  EXPECT_FALSE(cache.load("zero", &rejection));
  EXPECT_NE(rejection.find("a character device"), std::string::npos)
      << rejection;
  CompileCache small(cacheDir(), 64, testIdentity());
  EXPECT_FALSE(small.load("k0", &rejection));
  EXPECT_NE(rejection.find("more than the 64"), std::string::npos)
      << rejection;
}

TEST_F(CompileCacheTest, AHugeMaxSizeIsNoBoundNotAWrappedOne) {
  ::setenv("MS_COMPILER_CACHE_MAX_SIZE", "17592186044416", 1);
  EXPECT_EQ(CompileCache::defaultMaxBytes(), UINT64_MAX);
  ::setenv("MS_COMPILER_CACHE_MAX_SIZE", "3", 1);
  EXPECT_EQ(CompileCache::defaultMaxBytes(), uint64_t(3) << 20);
  ::unsetenv("MS_COMPILER_CACHE_MAX_SIZE");
  EXPECT_EQ(CompileCache::defaultMaxBytes(), uint64_t(1024) << 20);
}

TEST_F(CompileCacheTest, ConcurrentWritersLeaveOneWholeEntry) {
  // Writers of one key race with readers: a reader sees no entry or a whole
  // one, never a part, and no temporary file is left behind.
  CompileCache cache(cacheDir(), 64 << 20, testIdentity());
  CacheEntry big = sampleEntry(1 << 20);
  std::atomic<bool> done{false};
  std::atomic<int> partial{0}, whole{0};
  std::thread reader([&] {
    while (!done) {
      std::string rejection;
      if (cache.load("k", &rejection))
        ++whole;
      else if (!rejection.empty())
        ++partial;
    }
  });
  std::vector<std::thread> writers;
  for (int w = 0; w < 4; ++w)
    writers.emplace_back([&] {
      for (int i = 0; i < 10; ++i)
        EXPECT_FALSE(bool(cache.store("k", big)));
    });
  for (std::thread &t : writers)
    t.join();
  done = true;
  reader.join();
  EXPECT_EQ(partial.load(), 0);
  EXPECT_TRUE(cache.load("k"));
  std::error_code ec;
  int files = 0;
  for (llvm::sys::fs::directory_iterator it(cacheDir(), ec), end;
       it != end && !ec; it.increment(ec)) {
    ++files;
    EXPECT_EQ(llvm::sys::path::filename(it->path()), "k.msc");
  }
  EXPECT_EQ(files, 1);
}

TEST_F(CompileCacheTest, SizeBoundEvictsLeastRecentlyUsed) {
  CacheEntry entry = sampleEntry(1000);
  size_t entryBytes =
      encodeCacheEntry("a", testIdentity(), entry).size();
  // Room for three entries.
  CompileCache cache(cacheDir(), 3 * entryBytes + 10, testIdentity());
  for (const char *key : {"a", "b", "c"})
    ASSERT_FALSE(bool(cache.store(key, entry)));
  setAge(cache.pathOf("a"), std::chrono::seconds(300));
  setAge(cache.pathOf("b"), std::chrono::seconds(200));
  setAge(cache.pathOf("c"), std::chrono::seconds(100));
  // A hit makes "a" the most recently used.
  ASSERT_TRUE(cache.load("a"));
  ASSERT_FALSE(bool(cache.store("d", entry)));
  EXPECT_TRUE(llvm::sys::fs::exists(cache.pathOf("a")));
  EXPECT_FALSE(llvm::sys::fs::exists(cache.pathOf("b")));
  EXPECT_TRUE(llvm::sys::fs::exists(cache.pathOf("c")));
  EXPECT_TRUE(llvm::sys::fs::exists(cache.pathOf("d")));
}

TEST_F(CompileCacheTest, EvictRemovesAbandonedTemporaries) {
  CompileCache cache(cacheDir(), 1 << 20, testIdentity());
  ASSERT_FALSE(bool(cache.store("a", sampleEntry())));
  std::string old = cache.pathOf("x") + ".tmp-1-2";
  std::string fresh = cache.pathOf("y") + ".tmp-3-4";
  writeBytes("cache/x.msc.tmp-1-2", "partial");
  writeBytes("cache/y.msc.tmp-3-4", "partial");
  setAge(old, std::chrono::seconds(7200));
  cache.evict();
  EXPECT_FALSE(llvm::sys::fs::exists(old));
  EXPECT_TRUE(llvm::sys::fs::exists(fresh)); // a writer may still be busy
  EXPECT_TRUE(llvm::sys::fs::exists(cache.pathOf("a")));
}

class CompileCachedTest : public CompileCacheTest {
protected:
  /// What compile() compiles with: one thread, the default level.
  static CompileOptions oneThread() {
    CompileOptions options;
    options.numThreads = 1;
    return options;
  }

  /// The key compile() stores kNet under.
  static std::string netKey(const CompileCache &cache) {
    return cache.key(kNet, "construct", oneThread());
  }

  /// kNet compiled cold into `cache`: the module, its outputs on run()'s
  /// inputs, and its entry (key, file, bytes).
  struct StoredNet {
    std::unique_ptr<JitModule> jit;
    std::vector<float> expected;
    std::string key, file, bytes;
  };
  StoredNet storeNet(CompileCache &cache) {
    StoredNet net;
    net.jit = compile(cache, CacheStatus::Miss);
    if (!net.jit)
      return net;
    net.expected = run(*net.jit);
    net.key = netKey(cache);
    net.file = cache.pathOf(net.key);
    net.bytes = readBytes(net.file);
    return net;
  }

  std::unique_ptr<JitModule> compile(CompileCache &cache, CacheStatus expected,
                                     const char *net = kNet) {
    auto jit =
        compiler.compile(net, "construct", oneThread(), "<test>", &cache);
    if (!jit) {
      ADD_FAILURE() << llvm::toString(jit.takeError());
      return nullptr;
    }
    EXPECT_EQ(cacheStatusName((*jit)->compileTimes().cache),
              cacheStatusName(expected))
        << (*jit)->compileTimes().cacheNote;
    return std::move(*jit);
  }

  std::vector<float> run(JitModule &jit, int64_t rows = 2) {
    HostTensor x(DType::F32, {rows, 3}), w(DType::F32, {4, 3});
    for (int i = 0; i < rows * 3; ++i)
      x.dataAs<float>()[i] = 0.37f * (i % 7) - 1.1f;
    for (int i = 0; i < 12; ++i)
      w.dataAs<float>()[i] = 0.13f * (i % 5) - 0.21f * (i % 3);
    auto results = jit.run({x, w});
    EXPECT_TRUE(bool(results)) << llvm::toString(results.takeError());
    if (!results)
      return {};
    const HostTensor &y = (*results)[0];
    return std::vector<float>(y.dataAs<float>(),
                              y.dataAs<float>() + rows * 4);
  }

  void expectBitIdentical(const std::vector<float> &a,
                          const std::vector<float> &b) {
    ASSERT_EQ(a.size(), b.size());
    EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)), 0);
  }

  GraphCompiler compiler;
};

TEST_F(CompileCachedTest, SecondCompileLoadsTheObject) {
  CompileCache cache(cacheDir());
  auto cold = compile(cache, CacheStatus::Miss);
  ASSERT_TRUE(cold);
  EXPECT_GT(cold->compileTimes().lowering, 0);
  auto warm = compile(cache, CacheStatus::Hit);
  ASSERT_TRUE(warm);
  // The MLIR pipeline did not run.
  EXPECT_EQ(warm->compileTimes().lowering, 0);
  EXPECT_EQ(warm->signature().args[1].paramName, "fc.weight");
  std::vector<float> expected = run(*cold);
  // relu(x @ w^T) for the inputs run() uses, by hand: some zeros, some not.
  EXPECT_NE(std::count(expected.begin(), expected.end(), 0.0f), 8);
  expectBitIdentical(run(*warm), expected);
}

TEST_F(CompileCachedTest, PackedCopiesSurviveTheCache) {
  CompileCache cache(cacheDir());
  auto cold = compile(cache, CacheStatus::Miss, kDynamicNet);
  ASSERT_TRUE(cold);
  ASSERT_EQ(cold->signature().packedCopies.size(), 1u);
  auto warm = compile(cache, CacheStatus::Hit, kDynamicNet);
  ASSERT_TRUE(warm);
  ASSERT_EQ(warm->signature().packedCopies.size(), 1u);
  EXPECT_EQ(warm->signature().packedCopies[0].arg, 1u);
  // 37 rows: 32-, 4- and 1-row tiles, so both layouts of the weight.
  std::vector<float> expected = run(*cold, 37);
  EXPECT_NE(std::count(expected.begin(), expected.end(), 0.0f), 37 * 4);
  expectBitIdentical(run(*warm, 37), expected);
}

TEST_F(CompileCachedTest, DamagedEntriesAreRebuiltNotRun) {
  CompileCache cache(cacheDir());
  StoredNet cold = storeNet(cache);
  ASSERT_TRUE(cold.jit);
  const std::vector<float> &expected = cold.expected;
  const std::string &file = cold.file, &good = cold.bytes;
  ASSERT_FALSE(good.empty());
  auto overwrite = [&](const std::string &bytes) {
    ASSERT_EQ(writeText(file, bytes), "");
  };

  overwrite(good.substr(0, good.size() - 100));
  auto truncated = compile(cache, CacheStatus::Rebuilt);
  ASSERT_TRUE(truncated);
  EXPECT_NE(truncated->compileTimes().cacheNote.find("truncated"),
            std::string::npos);
  expectBitIdentical(run(*truncated), expected);
  EXPECT_EQ(readBytes(file), good); // stored again, whole

  std::string corrupt = good;
  corrupt[corrupt.size() - 40] ^= 0x01; // in the machine code
  overwrite(corrupt);
  auto corrupted = compile(cache, CacheStatus::Rebuilt);
  ASSERT_TRUE(corrupted);
  EXPECT_NE(corrupted->compileTimes().cacheNote.find("checksum"),
            std::string::npos);
  expectBitIdentical(run(*corrupted), expected);

  // Intact and ours, but the object is not loadable code.
  CacheEntry garbage{cold.jit->signature(), std::string(256, '\x90')};
  overwrite(encodeCacheEntry(cold.key, CacheIdentity::host(), garbage));
  auto unloadable = compile(cache, CacheStatus::Rebuilt);
  ASSERT_TRUE(unloadable);
  EXPECT_NE(unloadable->compileTimes().cacheNote.find("cannot load"),
            std::string::npos);
  expectBitIdentical(run(*unloadable), expected);

  auto again = compile(cache, CacheStatus::Hit);
  ASSERT_TRUE(again);
  expectBitIdentical(run(*again), expected);
}

TEST_F(CompileCachedTest, AnEntryForAnotherSignatureIsRebuiltNotRun) {
  CompileCache cache(cacheDir());
  StoredNet cold = storeNet(cache);
  ASSERT_TRUE(cold.jit);
  // A forged entry: whole and checksummed, but recording a smaller input
  // than the graph's, or another dtype. Run, it would read out of bounds.
  for (auto forge : {+[](TensorSpec &x) { x.shape[0] = 1; },
                     +[](TensorSpec &x) { x.dtype = DType::F16; },
                     +[](TensorSpec &x) { x.paramName = "fc.bias"; }}) {
    CacheEntry forged{cold.jit->signature(), ""};
    forge(forged.signature.args[0]);
    auto hit = cache.load(cold.key);
    ASSERT_TRUE(hit);
    forged.object = hit->object;
    ASSERT_FALSE(bool(cache.store(cold.key, forged)));
    auto rebuilt = compile(cache, CacheStatus::Rebuilt);
    ASSERT_TRUE(rebuilt);
    EXPECT_NE(rebuilt->compileTimes().cacheNote.find(
                  "the entry's signature is not the graph's: argument 0 "
                  "recorded as"),
              std::string::npos)
        << rebuilt->compileTimes().cacheNote;
    expectBitIdentical(run(*rebuilt), cold.expected);
  }
}

/// A random mutation of `bytes`: a truncation, 1-3 changed bytes, an
/// inserted byte or a changed 8-byte word.
std::string mutate(const std::string &bytes, std::mt19937 &rng) {
  std::string out = bytes;
  switch (rng() % 4) {
  case 0:
    out.resize(rng() % out.size());
    break;
  case 1:
    for (unsigned i = 0, n = 1 + rng() % 3; i < n; ++i)
      out[rng() % out.size()] = static_cast<char>(rng());
    break;
  case 2:
    out.insert(out.begin() + rng() % out.size(), static_cast<char>(rng()));
    break;
  default: {
    size_t at = rng() % (out.size() - 8);
    for (size_t i = 0; i < 8; ++i)
      out[at + i] = static_cast<char>(rng());
  }
  }
  return out;
}

TEST_F(CompileCachedTest, AThousandMutatedEntriesAreNeverRun) {
  CompileCache cache(cacheDir());
  StoredNet cold = storeNet(cache);
  ASSERT_TRUE(cold.jit);
  const std::string &key = cold.key, &file = cold.file, &good = cold.bytes;
  std::mt19937 rng(55);
  int rejected = 0;
  for (int i = 0; i < 1000; ++i) {
    std::string bad = mutate(good, rng);
    if (bad == good)
      continue;
    ASSERT_EQ(writeText(file, bad), "");
    std::string rejection;
    EXPECT_FALSE(cache.load(key, &rejection)) << "mutation " << i;
    rejected += !rejection.empty();
    // Every hundredth goes through a whole compile: rebuilt, right values.
    if (i % 100 == 0) {
      ASSERT_EQ(writeText(file, bad), "");
      auto rebuilt = compile(cache, CacheStatus::Rebuilt);
      ASSERT_TRUE(rebuilt);
      expectBitIdentical(run(*rebuilt), cold.expected);
    }
  }
  EXPECT_GE(rejected, 990);
}

TEST_F(CompileCachedTest, DumpingTheIRBypassesTheCache) {
  CompileCache cache(cacheDir());
  CompileOptions options;
  options.numThreads = 1;
  options.dumpIRDir = path("dump");
  auto jit = compiler.compile(kNet, "construct", options, "<test>", &cache);
  ASSERT_TRUE(bool(jit)) << llvm::toString(jit.takeError());
  EXPECT_EQ((*jit)->compileTimes().cache, CacheStatus::Off);
  EXPECT_FALSE(llvm::sys::fs::exists(cacheDir()));
}

TEST_F(CompileCachedTest, UnwritableDirectoryStillCompiles) {
  writeBytes("file", "not a directory");
  CompileCache cache(path("file"));
  auto jit = compile(cache, CacheStatus::Miss);
  ASSERT_TRUE(jit);
  EXPECT_NE(jit->compileTimes().cacheNote.find("not stored"),
            std::string::npos);
}

} // namespace
