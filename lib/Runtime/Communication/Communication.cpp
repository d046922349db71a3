//===- Communication.cpp - Collectives across ranks over MPI --------------===//

#include "ms/Runtime/Communication/Communication.h"
#include "ms/Support/CpuRelax.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#ifdef MS_HAVE_MPI
#define OMPI_SKIP_MPICXX 1
#include <mpi.h>

#include <csignal>
#include <dlfcn.h>
#include <unistd.h>
#endif

using namespace ms::runtime;
using namespace ms::runtime::comm;

static llvm::Error commError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::optional<ReduceOp> comm::parseReduceOp(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<ReduceOp>>(name.lower())
      .Case("sum", ReduceOp::Sum)
      .Case("max", ReduceOp::Max)
      .Case("min", ReduceOp::Min)
      .Case("prod", ReduceOp::Prod)
      .Default(std::nullopt);
}

llvm::StringRef comm::reduceOpName(ReduceOp op) {
  switch (op) {
  case ReduceOp::Sum:
    return "sum";
  case ReduceOp::Max:
    return "max";
  case ReduceOp::Min:
    return "min";
  case ReduceOp::Prod:
    return "prod";
  }
  return "?";
}

double comm::timeoutSeconds() {
  if (const char *text = std::getenv("MS_COMM_TIMEOUT")) {
    char *end = nullptr;
    double value = std::strtod(text, &end);
    if (end != text && *end == '\0' && value > 0)
      return value;
  }
  return 300;
}

llvm::ArrayRef<EnvironmentDefault> comm::mpiDefaults() {
  // See the header.
  static const EnvironmentDefault defaults[] = {
      {"OMPI_MCA_btl_vader_single_copy_mechanism", "none"},
      {"OMPI_MCA_btl_vader_max_send_size", "131072"},
      {"OMPI_MCA_coll_libnbc_iallreduce_algorithm", "1"}};
  return defaults;
}

static Stats gStats;

Stats comm::stats() { return gStats; }
void comm::resetStats() { gStats = Stats(); }

static std::atomic<bool> gDeterministic{false};
void comm::setDeterministic(bool on) { gDeterministic.store(on); }
bool comm::isDeterministic() { return gDeterministic.load(); }

/// Rows `first` and `first + step` of `rows` (each `count` elements of T):
/// the first becomes their sum or product.
template <typename T>
static void combineRows(char *rows, int64_t count, int first, int step,
                        ReduceOp op) {
  T *a = reinterpret_cast<T *>(rows) + first * count;
  const T *b = reinterpret_cast<const T *>(rows) + (first + step) * count;
  if (op == ReduceOp::Sum)
    for (int64_t i = 0; i < count; ++i)
      a[i] = a[i] + b[i];
  else
    for (int64_t i = 0; i < count; ++i)
      a[i] = a[i] * b[i];
}

void comm::reduceRowsAsTree(void *rowsData, int64_t count, int size,
                            DType dtype, ReduceOp op) {
  char *rows = static_cast<char *>(rowsData);
  for (int step = 1; step < size; step *= 2)
    for (int first = 0; first + step < size; first += 2 * step) {
      if (dtype == DType::F32)
        combineRows<float>(rows, count, first, step, op);
      else
        combineRows<double>(rows, count, first, step, op);
    }
}

#ifndef MS_HAVE_MPI

static llvm::Error noMPI() {
  return commError("msmlir was built without MPI: install Debian's "
                   "libopenmpi-dev and openmpi-bin and rebuild");
}

bool comm::builtWithMPI() { return false; }
llvm::Error comm::init() { return noMPI(); }
bool comm::isInitialized() { return false; }
llvm::Error comm::release() { return noMPI(); }
llvm::Expected<int> comm::rank() { return noMPI(); }
llvm::Expected<int> comm::groupSize() { return noMPI(); }
llvm::Expected<int> comm::localRank() { return noMPI(); }
llvm::Error comm::allReduce(void *, int64_t, DType, ReduceOp) {
  return noMPI();
}
llvm::Error comm::startAllReduce(void *, int64_t, DType, ReduceOp) {
  return noMPI();
}
llvm::Error comm::finishAllReduce(void *) { return noMPI(); }
llvm::Error comm::allGather(const void *, void *, int64_t, DType) {
  return noMPI();
}
llvm::Error comm::broadcast(void *, int64_t, DType, int) { return noMPI(); }
llvm::Error comm::barrier() { return noMPI(); }

static void compiledCollectiveFailed() {
  std::fprintf(stderr, "msmlir: error: a compiled graph ran ms.all_reduce, "
                       "but msmlir was built without MPI\n");
  std::abort();
}

void ms_comm_all_reduce_f32(float *, int64_t, int32_t) {
  compiledCollectiveFailed();
}
void ms_comm_all_reduce_f64(double *, int64_t, int32_t) {
  compiledCollectiveFailed();
}
void ms_comm_all_reduce_start_f32(float *, int64_t, int32_t) {
  compiledCollectiveFailed();
}
void ms_comm_all_reduce_start_f64(double *, int64_t, int32_t) {
  compiledCollectiveFailed();
}
void ms_comm_all_reduce_wait(void *) { compiledCollectiveFailed(); }
llvm::Expected<std::vector<BucketBuffers>>
comm::bucketBuffers(llvm::ArrayRef<BucketRequest> requests) {
  if (requests.empty())
    return std::vector<BucketBuffers>{};
  return noMPI();
}
llvm::Expected<BucketBuffers> comm::bucketBuffers(int64_t, int64_t, DType) {
  return noMPI();
}
llvm::Error comm::shareBucket(void *, int64_t, DType, int64_t) {
  return noMPI();
}
void ms_comm_share_bucket_f32(float *, int64_t, int64_t) {
  compiledCollectiveFailed();
}
void ms_comm_share_bucket_f64(double *, int64_t, int64_t) {
  compiledCollectiveFailed();
}
comm::BucketShard comm::bucketShard() { return {}; }
llvm::Error comm::shareShards(int64_t) { return noMPI(); }
int64_t ms_comm_shard_index() { return 0; }
int64_t ms_comm_shard_count() { return 1; }
void ms_comm_share_shards(int64_t) { compiledCollectiveFailed(); }

#else // MS_HAVE_MPI

namespace {

enum class Phase { Uninitialized, Running, Released };

struct World {
  Phase phase = Phase::Uninitialized;
  int rank = 0;
  int size = 1;
  int localRank = 0;
  bool ownsMPI = false; // we called MPI_Init, so we finalize
};

World gWorld;

/// Frees the shared buckets' window, before MPI_Finalize (collective).
void freeSharedBuckets();

//===--------------------------------------------------------------------===//
// The watchdog: bounds every blocking MPI call
//===--------------------------------------------------------------------===//

// The collective in progress (a static string) and when it must end, in
// steady_clock nanoseconds; 0 when none is. Written by the calling thread,
// read by the watchdog thread.
std::atomic<const char *> gWhat{nullptr};
std::atomic<int64_t> gDeadline{0};
// The rank, for messages printed from the watchdog and the signal handler.
std::atomic<int> gRankForMessages{-1};

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void watchdogLoop() {
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    int64_t deadline = gDeadline.load(std::memory_order_acquire);
    if (deadline == 0 || nowNs() < deadline)
      continue;
    const char *what = gWhat.load();
    std::fprintf(stderr,
                 "msmlir: error: rank %d: %s did not complete within %g s "
                 "(MS_COMM_TIMEOUT): another rank died, exited, or did not "
                 "reach the same collective. Ending this process so that "
                 "mpirun ends the job.\n",
                 gRankForMessages.load(), what ? what : "a collective",
                 timeoutSeconds());
    std::fflush(stderr);
    // Not MPI_Abort: MPI is not ours to call from this thread. A rank that
    // exits without finalizing makes mpirun terminate the others.
    _exit(1);
  }
}

/// Marks the calling thread as inside `what` for the watchdog, and times it.
class Watched {
public:
  /// `calls`: 0 for the second half of a collective counted at its start.
  Watched(const char *what, int64_t bytes, int calls = 1) : start(nowNs()) {
    gWhat.store(what);
    gDeadline.store(start + static_cast<int64_t>(timeoutSeconds() * 1e9),
                    std::memory_order_release);
    gStats.calls += calls;
    gStats.bytes += bytes;
  }
  ~Watched() {
    gDeadline.store(0, std::memory_order_release);
    gStats.seconds += (nowNs() - start) * 1e-9;
  }

private:
  int64_t start;
};

// mpirun terminates the other ranks (SIGTERM) when one dies: say why on
// stderr before going, with only async-signal-safe calls.
void onTerminate(int signo) {
  static const char prefix[] = "msmlir: error: rank ";
  static const char suffix[] =
      ": terminated by the MPI launcher, most likely because another rank "
      "failed or exited early (see its output above)";
  char buffer[256];
  size_t n = 0;
  auto append = [&](const char *text, size_t length) {
    for (size_t i = 0; i < length && n < sizeof(buffer); ++i)
      buffer[n++] = text[i];
  };
  append(prefix, sizeof(prefix) - 1);
  int r = gRankForMessages.load();
  char digits[12];
  int d = 0;
  do {
    digits[d++] = static_cast<char>('0' + r % 10);
    r /= 10;
  } while (r > 0 && d < 11);
  while (d > 0)
    append(&digits[--d], 1);
  append(suffix, sizeof(suffix) - 1);
  const char *what = gDeadline.load() != 0 ? gWhat.load() : nullptr;
  if (what) {
    append(" (while in ", 11);
    size_t length = 0;
    while (what[length])
      ++length;
    append(what, length);
    append(")", 1);
  }
  append("\n", 1);
  ssize_t ignored = write(STDERR_FILENO, buffer, n);
  (void)ignored;
  std::signal(signo, SIG_DFL);
  raise(signo);
}

llvm::Error mpiError(const char *what, int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS)
    length = 0;
  return commError(llvm::Twine(what) + " failed on rank " +
                   llvm::Twine(gWorld.rank) + ": " +
                   llvm::StringRef(text, length));
}

llvm::Error requireRunning(const char *what) {
  if (gWorld.phase == Phase::Running)
    return llvm::Error::success();
  if (gWorld.phase == Phase::Released)
    return commError(llvm::Twine(what) +
                     ": communication was released (release()); MPI cannot "
                     "be initialized again in this process");
  return commError(llvm::Twine(what) +
                   ": communication is not initialized; call "
                   "msmlir.communication.init() first");
}

std::optional<MPI_Datatype> mpiType(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return MPI_FLOAT;
  case DType::F64:
    return MPI_DOUBLE;
  case DType::I32:
    return MPI_INT32_T;
  case DType::I64:
    return MPI_INT64_T;
  case DType::I8:
    return MPI_INT8_T;
  case DType::I16:
    return MPI_INT16_T;
  case DType::U8:
  case DType::Bool:
    return MPI_UINT8_T;
  case DType::U16:
    return MPI_UINT16_T;
  default:
    return std::nullopt;
  }
}

MPI_Op mpiOp(ReduceOp op) {
  switch (op) {
  case ReduceOp::Sum:
    return MPI_SUM;
  case ReduceOp::Max:
    return MPI_MAX;
  case ReduceOp::Min:
    return MPI_MIN;
  case ReduceOp::Prod:
    return MPI_PROD;
  }
  return MPI_SUM;
}

llvm::Expected<MPI_Datatype> checkedType(const char *what, DType dtype) {
  if (std::optional<MPI_Datatype> type = mpiType(dtype))
    return *type;
  return commError(llvm::Twine(what) + ": dtype " + dtypeName(dtype) +
                   " is not supported (float32, float64 and the integer "
                   "types are)");
}

// MPI counts are int: larger buffers go in pieces of at most this many
// elements (each piece is the same collective on every rank).
constexpr int64_t kMaxChunk = int64_t(1) << 30;

} // namespace

bool comm::builtWithMPI() { return true; }
bool comm::isInitialized() { return gWorld.phase == Phase::Running; }

llvm::Error comm::init() {
  if (gWorld.phase == Phase::Running)
    return llvm::Error::success();
  if (gWorld.phase == Phase::Released)
    return commError("init(): communication was released in this process; "
                     "MPI cannot be initialized twice");
  // libmpi came in as a dependency of a module loaded RTLD_LOCAL (Python's
  // extension modules are); OpenMPI's own plugins need its symbols global.
  dlopen("libmpi.so.40", RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
  int already = 0;
  MPI_Initialized(&already);
  if (!already) {
    static std::once_flag watchdogStarted;
    std::call_once(watchdogStarted,
                   [] { std::thread(watchdogLoop).detach(); });
    Watched watch("MPI_Init", 0);
    // MPI_Init reads OpenMPI's parameters from the environment.
    setMissingDefaults(mpiDefaults());
    int provided = 0;
    int code = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED,
                               &provided);
    if (code != MPI_SUCCESS)
      return commError("init(): MPI_Init failed (error " +
                       llvm::Twine(code) + ")");
    gWorld.ownsMPI = true;
  }
  // Errors come back as codes (turned into exceptions), never abort here.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &gWorld.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &gWorld.size);
  gRankForMessages.store(gWorld.rank);
  {
    Watched watch("init(): finding the ranks on this host", 0);
    MPI_Comm local;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, gWorld.rank,
                            MPI_INFO_NULL, &local) == MPI_SUCCESS) {
      MPI_Comm_rank(local, &gWorld.localRank);
      MPI_Comm_free(&local);
    }
  }
  std::signal(SIGTERM, onTerminate);
  gWorld.phase = Phase::Running;
  // A rank that exits without MPI_Finalize makes mpirun end the whole job
  // as failed: finalize at exit unless release() did (ms-run, scripts that
  // never call release()).
  static std::once_flag finalizeAtExit;
  std::call_once(finalizeAtExit, [] {
    std::atexit([] { llvm::consumeError(comm::release()); });
  });
  return llvm::Error::success();
}

llvm::Error comm::release() {
  if (gWorld.phase != Phase::Running)
    return llvm::Error::success();
  gWorld.phase = Phase::Released;
  std::signal(SIGTERM, SIG_DFL);
  if (!gWorld.ownsMPI)
    return llvm::Error::success();
  Watched watch("release() (MPI_Finalize)", 0);
  freeSharedBuckets();
  int code = MPI_Finalize();
  if (code != MPI_SUCCESS)
    return mpiError("release() (MPI_Finalize)", code);
  return llvm::Error::success();
}

llvm::Expected<int> comm::rank() {
  if (llvm::Error error = requireRunning("get_rank()"))
    return std::move(error);
  return gWorld.rank;
}

llvm::Expected<int> comm::groupSize() {
  if (llvm::Error error = requireRunning("get_group_size()"))
    return std::move(error);
  return gWorld.size;
}

llvm::Expected<int> comm::localRank() {
  if (llvm::Error error = requireRunning("get_local_rank()"))
    return std::move(error);
  return gWorld.localRank;
}

namespace {

/// Whether allReduce takes the tree: only where the order changes the bits
/// (floating-point sums and products, more than two ranks; with two, every
/// MPI algorithm computes r0 + r1 once per element).
bool needsTree(DType dtype, ReduceOp op) {
  return comm::isDeterministic() && gWorld.size > 2 &&
         (dtype == DType::F32 || dtype == DType::F64) &&
         (op == ReduceOp::Sum || op == ReduceOp::Prod);
}

/// The MPI type of an all-reduce's elements, once MPI is running.
llvm::Expected<MPI_Datatype> allReduceType(DType dtype) {
  if (llvm::Error error = requireRunning("all_reduce"))
    return std::move(error);
  return checkedType("all_reduce", dtype);
}

/// The deterministic all-reduce (needsTree): every rank's piece gathered,
/// then reduced as the pairwise tree in rank order.
llvm::Error treeAllReduce(void *data, int64_t count, DType dtype,
                          ReduceOp op) {
  llvm::Expected<MPI_Datatype> type = allReduceType(dtype);
  if (!type)
    return type.takeError();
  size_t width = dtypeSize(dtype);
  Watched watch("all_reduce", count * static_cast<int64_t>(width));
  char *bytes = static_cast<char *>(data);
  // Pieces of 4 MiB bound the gathered rows.
  int64_t chunk = std::max<int64_t>(1, (int64_t(4) << 20) / int64_t(width));
  std::vector<char> rows;
  for (int64_t done = 0; done < count; done += chunk) {
    int n = static_cast<int>(std::min(chunk, count - done));
    char *piece = bytes + done * width;
    rows.resize(static_cast<size_t>(n) * width * gWorld.size);
    int code = MPI_Allgather(piece, n, *type, rows.data(), n, *type,
                             MPI_COMM_WORLD);
    if (code != MPI_SUCCESS)
      return mpiError("all_reduce", code);
    reduceRowsAsTree(rows.data(), n, gWorld.size, dtype, op);
    std::memcpy(piece, rows.data(), static_cast<size_t>(n) * width);
  }
  return llvm::Error::success();
}

/// An all-reduce startAllReduce began and finishAllReduce has not ended:
/// its buffer and MPI's requests (one per piece of kMaxChunk elements;
/// none when it already completed, on the deterministic tree).
struct PendingAllReduce {
  void *data;
  std::vector<MPI_Request> requests;
};
// Compiled code runs collectives on one thread (MPI_THREAD_FUNNELED).
std::vector<PendingAllReduce> gPending;

std::vector<PendingAllReduce>::iterator pendingOn(void *data) {
  return llvm::find_if(gPending, [&](const PendingAllReduce &pending) {
    return pending.data == data;
  });
}

} // namespace

llvm::Error comm::startAllReduce(void *data, int64_t count, DType dtype,
                                 ReduceOp op) {
  if (pendingOn(data) != gPending.end())
    return commError("all_reduce: an all-reduce of this buffer was "
                     "started and not waited for");
  if (needsTree(dtype, op)) {
    if (llvm::Error error = treeAllReduce(data, count, dtype, op))
      return error;
    gPending.push_back({data, {}});
    return llvm::Error::success();
  }
  llvm::Expected<MPI_Datatype> type = allReduceType(dtype);
  if (!type)
    return type.takeError();
  size_t width = dtypeSize(dtype);
  Watched watch("all_reduce (start)", count * static_cast<int64_t>(width));
  PendingAllReduce pending{data, {}};
  char *bytes = static_cast<char *>(data);
  for (int64_t done = 0; done < count; done += kMaxChunk) {
    int n = static_cast<int>(std::min(kMaxChunk, count - done));
    MPI_Request request;
    int code = MPI_Iallreduce(MPI_IN_PLACE, bytes + done * width, n, *type,
                              mpiOp(op), MPI_COMM_WORLD, &request);
    if (code != MPI_SUCCESS)
      return mpiError("all_reduce (start)", code);
    pending.requests.push_back(request);
  }
  gPending.push_back(std::move(pending));
  return llvm::Error::success();
}

llvm::Error comm::finishAllReduce(void *data) {
  auto found = pendingOn(data);
  if (found == gPending.end())
    return commError("all_reduce: waited for an all-reduce that was not "
                     "started on this buffer");
  std::vector<MPI_Request> requests = std::move(found->requests);
  gPending.erase(found);
  if (requests.empty())
    return llvm::Error::success();
  Watched watch("all_reduce (wait)", 0, /*calls=*/0);
  int code = MPI_Waitall(static_cast<int>(requests.size()), requests.data(),
                         MPI_STATUSES_IGNORE);
  if (code != MPI_SUCCESS)
    return mpiError("all_reduce (wait)", code);
  return llvm::Error::success();
}

llvm::Error comm::allReduce(void *data, int64_t count, DType dtype,
                            ReduceOp op) {
  if (!needsTree(dtype, op)) {
    // Started and waited for, so that every all-reduce, whole or
    // overlapped, PyNative or compiled, adds in MPI_Iallreduce's order:
    // with more than two ranks, MPI_Allreduce's algorithm would add in
    // another, and the modes would differ in the last bits.
    if (llvm::Error error = startAllReduce(data, count, dtype, op))
      return error;
    return finishAllReduce(data);
  }
  return treeAllReduce(data, count, dtype, op);
}

llvm::Error comm::allGather(const void *send, void *recv, int64_t count,
                            DType dtype) {
  if (llvm::Error error = requireRunning("all_gather"))
    return error;
  llvm::Expected<MPI_Datatype> type = checkedType("all_gather", dtype);
  if (!type)
    return type.takeError();
  if (count > kMaxChunk)
    return commError("all_gather: " + llvm::Twine(count) +
                     " elements per rank is more than MPI's int count");
  Watched watch("all_gather",
                count * static_cast<int64_t>(dtypeSize(dtype)) * gWorld.size);
  int code = MPI_Allgather(send, static_cast<int>(count), *type, recv,
                           static_cast<int>(count), *type, MPI_COMM_WORLD);
  if (code != MPI_SUCCESS)
    return mpiError("all_gather", code);
  return llvm::Error::success();
}

llvm::Error comm::broadcast(void *data, int64_t count, DType dtype,
                            int root) {
  if (llvm::Error error = requireRunning("broadcast"))
    return error;
  if (root < 0 || root >= gWorld.size)
    return commError("broadcast: root_rank " + llvm::Twine(root) +
                     " is not a rank of the group (size " +
                     llvm::Twine(gWorld.size) + ")");
  llvm::Expected<MPI_Datatype> type = checkedType("broadcast", dtype);
  if (!type)
    return type.takeError();
  size_t width = dtypeSize(dtype);
  Watched watch("broadcast", count * static_cast<int64_t>(width));
  char *bytes = static_cast<char *>(data);
  for (int64_t done = 0; done < count; done += kMaxChunk) {
    int n = static_cast<int>(std::min(kMaxChunk, count - done));
    int code =
        MPI_Bcast(bytes + done * width, n, *type, root, MPI_COMM_WORLD);
    if (code != MPI_SUCCESS)
      return mpiError("broadcast", code);
  }
  return llvm::Error::success();
}

llvm::Error comm::barrier() {
  if (llvm::Error error = requireRunning("barrier"))
    return error;
  Watched watch("barrier", 0);
  int code = MPI_Barrier(MPI_COMM_WORLD);
  if (code != MPI_SUCCESS)
    return mpiError("barrier", code);
  return llvm::Error::success();
}

//===--------------------------------------------------------------------===//
// Shared gradient buckets
//===--------------------------------------------------------------------===//

namespace {

/// A bucket's place in each rank's segment of the window: `capacity`
/// bytes from `offset`.
struct WindowBucket {
  size_t offset = 0;
  size_t capacity = 0;
};

/// Each segment's first page holds one counter, the steps its rank has
/// finished (see handBackBuckets); the buckets follow it.
constexpr size_t kWindowPage = 4096;

/// Memory of the runtime's own, 64-byte aligned as compiled code assumes.
struct AlignedBuffer {
  std::unique_ptr<char, decltype(&std::free)> data{nullptr, &std::free};
  size_t bytes = 0;
  /// At least `size` bytes; new memory is filled with copies of the
  /// `width` bytes at `pattern`, if given.
  char *reserve(size_t size, const void *pattern = nullptr,
                size_t width = 1) {
    if (size <= bytes && data)
      return data.get();
    size_t rounded = std::max<size_t>(64, (size + 63) / 64 * 64);
    data.reset(static_cast<char *>(std::aligned_alloc(64, rounded)));
    bytes = data ? rounded : 0;
    for (size_t at = 0; pattern && at + width <= bytes; at += width)
      std::memcpy(data.get() + at, pattern, width);
    return data.get();
  }
};

/// Whether buckets go through a window, and the window. Compiled code runs
/// collectives on one thread (MPI_THREAD_FUNNELED).
struct SharedBuckets {
  enum class Mode { Undecided, Window, Private };
  Mode mode = Mode::Undecided;
  MPI_Comm node = MPI_COMM_NULL;
  /// This rank's place in `node`: which part of the updates it computes.
  int nodeRank = 0;
  MPI_Win window = MPI_WIN_NULL;
  char *mine = nullptr;
  const char *theirs = nullptr;
  std::vector<WindowBucket> buckets;
  /// Calls of bucketBuffers (steps begun) on this rank, in window mode.
  uint64_t stepsBegun = 0;
  // Without a window: each bucket's buffer, and -0.0 by element width.
  std::vector<AlignedBuffer> privateBuckets;
  AlignedBuffer negativeZeros[2];
};
SharedBuckets gShared;

/// Window mode needs exactly two ranks, on one host (MPI_Comm_split_type);
/// MS_COMM_SHARED_BUCKETS=0 turns it off. Collective on the first call.
llvm::Error decideSharing() {
  if (gShared.mode != SharedBuckets::Mode::Undecided)
    return llvm::Error::success();
  gShared.mode = SharedBuckets::Mode::Private;
  const char *setting = std::getenv("MS_COMM_SHARED_BUCKETS");
  if (gWorld.size != 2 || (setting && llvm::StringRef(setting) == "0"))
    return llvm::Error::success();
  Watched watch("shared buckets: finding the ranks on this host", 0);
  MPI_Comm node;
  int code = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED,
                                 gWorld.rank, MPI_INFO_NULL, &node);
  if (code != MPI_SUCCESS)
    return mpiError("shared buckets (MPI_Comm_split_type)", code);
  int size = 0;
  MPI_Comm_size(node, &size);
  if (size != 2) {
    MPI_Comm_free(&node);
    return llvm::Error::success();
  }
  MPI_Comm_set_errhandler(node, MPI_ERRORS_RETURN);
  MPI_Comm_rank(node, &gShared.nodeRank);
  gShared.node = node;
  gShared.mode = SharedBuckets::Mode::Window;
  return llvm::Error::success();
}

void freeWindow() {
  if (gShared.window == MPI_WIN_NULL)
    return;
  MPI_Win_unlock_all(gShared.window);
  MPI_Win_free(&gShared.window);
  gShared.mine = nullptr;
  gShared.theirs = nullptr;
}

void freeSharedBuckets() {
  freeWindow();
  if (gShared.node != MPI_COMM_NULL)
    MPI_Comm_free(&gShared.node);
}

/// `pointer` rounded up to 64 bytes. The window's segments are mapped at
/// the same offset within a page in every process, so both ranks round a
/// segment alike.
char *aligned64(char *pointer) {
  auto address = reinterpret_cast<uintptr_t>(pointer);
  return pointer + (64 - address % 64) % 64;
}

/// The counter of steps finished at the start of `segment`: a rank stores
/// to its own and loads the other's, as atomics (lock-free, so they work
/// across processes on shared memory).
uint64_t *stepsFinished(const char *segment) {
  return reinterpret_cast<uint64_t *>(const_cast<char *>(segment));
}

/// Bucket `id`'s line on its rank's first page, after the counter's line:
/// the step whose gradients the bucket holds once they are all written
/// (see shareBucket), how many elements it has, and the step whose part of
/// the updates the bucket holds once it is written (see shareShards).
struct ShareSlot {
  uint64_t step;
  int64_t count;
  uint64_t shardStep;
};
constexpr int64_t kShareSlots = kWindowPage / 64 - 1;

ShareSlot *shareSlot(const char *segment, int64_t id) {
  return reinterpret_cast<ShareSlot *>(const_cast<char *>(segment) +
                                       64 * (1 + id));
}

/// A new window of `bytes` per rank (collective; the old one's contents go,
/// which no step needs: each writes its bucket before reading it). Both
/// ranks are in the same call, so each sets its counter of finished steps
/// to its steps begun so far, and the next hand-back passes at once.
llvm::Error remakeWindow(size_t bytes) {
  Watched watch("shared buckets: MPI_Win_allocate_shared", 0);
  freeWindow();
  // OpenMPI aligns segments to less than the 64 bytes compiled code needs.
  size_t segment = bytes + 64;
  char *base = nullptr;
  int code = MPI_Win_allocate_shared(static_cast<MPI_Aint>(segment), 1,
                                     MPI_INFO_NULL, gShared.node, &base,
                                     &gShared.window);
  if (code != MPI_SUCCESS)
    return mpiError("shared buckets (MPI_Win_allocate_shared)", code);
  MPI_Aint peerBytes = 0;
  int unit = 0;
  char *peer = nullptr;
  MPI_Win_shared_query(gShared.window, 1 - gShared.nodeRank, &peerBytes,
                       &unit, &peer);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, gShared.window);
  gShared.mine = aligned64(base);
  gShared.theirs = aligned64(peer);
  __atomic_store_n(stepsFinished(gShared.mine), gShared.stepsBegun,
                   __ATOMIC_RELEASE);
  for (int64_t id = 0; id < kShareSlots; ++id) {
    __atomic_store_n(&shareSlot(gShared.mine, id)->step, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&shareSlot(gShared.mine, id)->shardStep, 0,
                     __ATOMIC_RELEASE);
  }
  MPI_Win_sync(gShared.window);
  MPI_Barrier(gShared.node);
  MPI_Win_sync(gShared.window);
  if (static_cast<size_t>(peerBytes) == segment)
    return llvm::Error::success();
  // Both ranks see the mismatch, so both free the window: no later call
  // may take the other rank's segment for one of this size.
  freeWindow();
  return commError("shared buckets: the other rank's window segment has " +
                   llvm::Twine(int64_t(peerBytes)) + " bytes, this one " +
                   llvm::Twine(segment) +
                   ": the ranks' gradient buckets differ");
}

/// The bytes of `request`'s elements.
size_t bytesOf(const comm::BucketRequest &request) {
  return static_cast<size_t>(request.count) * dtypeSize(request.dtype);
}

/// Room in the window for every bucket of `requests`, each bucket's
/// buffer rounded to whole pages: one new window if any does not fit.
llvm::Error reserveInWindow(llvm::ArrayRef<comm::BucketRequest> requests) {
  std::vector<WindowBucket> &buckets = gShared.buckets;
  bool grew = false;
  for (const comm::BucketRequest &request : requests) {
    size_t bytes = bytesOf(request);
    if (size_t(request.id) >= buckets.size())
      buckets.resize(request.id + 1);
    size_t pages = std::max<size_t>(
        kWindowPage, (bytes + kWindowPage - 1) / kWindowPage * kWindowPage);
    grew |= pages > buckets[request.id].capacity;
    buckets[request.id].capacity =
        std::max(buckets[request.id].capacity, pages);
  }
  if (!grew && gShared.window != MPI_WIN_NULL)
    return llvm::Error::success();
  size_t offset = kWindowPage;
  for (WindowBucket &bucket : buckets) {
    bucket.offset = offset;
    offset += bucket.capacity;
  }
  return remakeWindow(offset);
}

/// Bucket `id`'s buffers in the window.
comm::BucketBuffers windowBuffers(int64_t id) {
  size_t at = gShared.buckets[id].offset;
  return {gShared.mine + at, gShared.theirs + at};
}

/// Waits until the other rank's counter at `theirs` is at least `value`;
/// returns the counter as it then was.
uint64_t waitForPeer(const uint64_t *theirs, uint64_t value) {
  for (unsigned spins = 0;; ++spins) {
    uint64_t seen = __atomic_load_n(theirs, __ATOMIC_ACQUIRE);
    if (seen >= value)
      return seen;
    // Spin briefly (the other rank is usually microseconds behind), then
    // give the core away, in case both ranks share it.
    if (spins < 1000)
      ms::runtime::cpuRelax();
    else
      std::this_thread::yield();
  }
}

/// Called as a step begins, before it writes any bucket: this rank's
/// earlier steps have returned, so it reads no more of the other rank's
/// buffers, and it says so; then it waits until the other rank has said
/// the same, so the writes to come cannot change bytes that rank is still
/// summing. One buffer per bucket then serves every step. A second buffer
/// used by turns would need no wait, but its bytes are two steps cold when
/// backward writes them: the 2-rank MLP step took 2.52-2.57 ms so against
/// 2.24-2.32 ms with one (docs/performance.md). The wait is the time
/// between the ranks' starts, as both left the last step's
/// synchronization together.
void handBackBuckets() {
  ++gStats.sharedSteps;
  uint64_t finished = gShared.stepsBegun++;
  __atomic_store_n(stepsFinished(gShared.mine), finished, __ATOMIC_RELEASE);
  const uint64_t *theirs = stepsFinished(gShared.theirs);
  if (__atomic_load_n(theirs, __ATOMIC_ACQUIRE) >= finished)
    return;
  Watched watch("shared buckets: waiting for the other rank's last step", 0,
                0);
  waitForPeer(theirs, finished);
}

/// Stores this step's number at `mine` (release), then waits until the
/// other rank has stored it at `theirs` (acquire). `what` names what the
/// other rank did, for the error when it did so for another step.
llvm::Error meetAtStep(uint64_t *mine, const uint64_t *theirs,
                       const llvm::Twine &what) {
  uint64_t step = gShared.stepsBegun;
  __atomic_store_n(mine, step, __ATOMIC_RELEASE);
  uint64_t theirStep = waitForPeer(theirs, step);
  if (theirStep == step)
    return llvm::Error::success();
  return commError("all_reduce: the other rank " + what + " for its step " +
                   llvm::Twine(theirStep) + ", this rank for step " +
                   llvm::Twine(step) + ": the ranks are out of step");
}

/// Says that this rank's bucket `id` holds this step's `count` gradients,
/// then waits until the other rank's does: the synchronization after which
/// each rank reads the other's bucket. Returns the other rank's count. A
/// bucket's slot is written once a step, and the next step's hand-back
/// keeps the other rank from writing it again before this rank has read
/// it.
llvm::Expected<int64_t> markBucketReady(int64_t id, int64_t count) {
  ShareSlot *mine = shareSlot(gShared.mine, id);
  const ShareSlot *theirs = shareSlot(gShared.theirs, id);
  __atomic_store_n(&mine->count, count, __ATOMIC_RELAXED);
  if (llvm::Error error =
          meetAtStep(&mine->step, &theirs->step,
                     "shared gradient bucket " + llvm::Twine(id)))
    return std::move(error);
  return __atomic_load_n(&theirs->count, __ATOMIC_RELAXED);
}

/// markBucketReady for a bucket past the first page's slots: MPI-3's
/// shared memory model, with an all-reduce of the sizes as the
/// synchronization. Returns a size of the other rank's that differs from
/// `count`, if there is one.
llvm::Expected<int64_t> meetInAllReduce(int64_t count) {
  MPI_Win_sync(gShared.window);
  long long sizes[2] = {count, -count}, largest[2] = {0, 0};
  int code = MPI_Allreduce(sizes, largest, 2, MPI_LONG_LONG, MPI_MAX,
                           gShared.node);
  MPI_Win_sync(gShared.window);
  if (code != MPI_SUCCESS)
    return mpiError("all_reduce (shared bucket)", code);
  return largest[0] != count ? largest[0] : -largest[1];
}

/// The runtime's own buffers for `requests`, and -0.0 beside them: x +
/// -0.0 is x for every x, -0.0 and NaN included. One -0.0 buffer per
/// element width serves every bucket, so all are reserved before any
/// pointer is taken (a larger bucket moves it).
llvm::Expected<std::vector<comm::BucketBuffers>>
privateBuffers(llvm::ArrayRef<comm::BucketRequest> requests) {
  const double negativeZero64 = -0.0;
  const float negativeZero32 = -0.0f;
  for (const comm::BucketRequest &request : requests) {
    size_t width = dtypeSize(request.dtype);
    size_t bytes = bytesOf(request);
    if (size_t(request.id) >= gShared.privateBuckets.size())
      gShared.privateBuckets.resize(request.id + 1);
    const void *pattern = width == 8
                              ? static_cast<const void *>(&negativeZero64)
                              : &negativeZero32;
    if (!gShared.privateBuckets[request.id].reserve(bytes) ||
        !gShared.negativeZeros[width == 8].reserve(bytes, pattern, width))
      return commError("gradient bucket " + llvm::Twine(request.id) +
                       ": cannot allocate " + llvm::Twine(bytes) + " bytes");
  }
  std::vector<comm::BucketBuffers> buffers;
  for (const comm::BucketRequest &request : requests)
    buffers.push_back(
        {gShared.privateBuckets[request.id].data.get(),
         gShared.negativeZeros[dtypeSize(request.dtype) == 8].data.get()});
  return buffers;
}

/// An internal error unless bucket `id` has a buffer of at least `bytes`
/// in the window (the step's call asked for it at the step's start).
llvm::Error checkWindowBucket(int64_t id, size_t bytes) {
  if (id >= 0 && size_t(id) < gShared.buckets.size() &&
      gShared.buckets[id].capacity >= bytes)
    return llvm::Error::success();
  return commError("all_reduce: gradient bucket " + llvm::Twine(id) +
                   " has no buffer" +
                   (bytes ? " of " + llvm::Twine(bytes) + " bytes"
                          : llvm::Twine()) +
                   " in the window (an internal error)");
}

llvm::Error checkBucketRequest(const comm::BucketRequest &request) {
  if (request.id >= 0 && request.count >= 0 &&
      (request.dtype == DType::F32 || request.dtype == DType::F64))
    return llvm::Error::success();
  return commError("gradient bucket " + llvm::Twine(request.id) + ": " +
                   llvm::Twine(request.count) + " elements of " +
                   dtypeName(request.dtype) + " (float32 or float64 only)");
}

} // namespace

llvm::Expected<std::vector<BucketBuffers>>
comm::bucketBuffers(llvm::ArrayRef<BucketRequest> requests) {
  if (requests.empty())
    return std::vector<BucketBuffers>{};
  if (llvm::Error error = comm::init())
    return std::move(error);
  for (const BucketRequest &request : requests)
    if (llvm::Error error = checkBucketRequest(request))
      return std::move(error);
  if (llvm::Error error = decideSharing())
    return std::move(error);
  if (gShared.mode == SharedBuckets::Mode::Window) {
    if (llvm::Error error = reserveInWindow(requests))
      return std::move(error);
    handBackBuckets();
    std::vector<BucketBuffers> buffers;
    for (const BucketRequest &request : requests)
      buffers.push_back(windowBuffers(request.id));
    return buffers;
  }
  return privateBuffers(requests);
}

llvm::Expected<BucketBuffers> comm::bucketBuffers(int64_t id, int64_t count,
                                                  DType dtype) {
  llvm::Expected<std::vector<BucketBuffers>> buffers =
      bucketBuffers({BucketRequest{id, count, dtype}});
  if (!buffers)
    return buffers.takeError();
  return buffers->front();
}

llvm::Error comm::shareBucket(void *own, int64_t count, DType dtype,
                              int64_t id) {
  if (gShared.mode != SharedBuckets::Mode::Window)
    return comm::allReduce(own, count, dtype, ReduceOp::Sum);
  size_t bytes = bytesOf({id, count, dtype});
  if (llvm::Error error = checkWindowBucket(id, bytes))
    return error;
  void *buffer = windowBuffers(id).own;
  Watched watch("all_reduce (shared bucket)", static_cast<int64_t>(bytes));
  // A step whose bucket did not become an argument: its own buffer.
  if (own != buffer)
    std::memcpy(buffer, own, bytes);
  // The writes before, the other rank's reads after, through a counter in
  // the window; it also checks that both ranks share buckets of one size.
  // An all-reduce of the sizes did the same in 10-30 us more a step.
  llvm::Expected<int64_t> theirs = id < kShareSlots
                                       ? markBucketReady(id, count)
                                       : meetInAllReduce(count);
  if (!theirs)
    return theirs.takeError();
  if (*theirs != count)
    return commError("all_reduce: the ranks' gradient buckets differ in "
                     "size (" + llvm::Twine(count) + " and " +
                     llvm::Twine(*theirs) + " elements)");
  return llvm::Error::success();
}

comm::BucketShard comm::bucketShard() {
  if (gShared.mode != SharedBuckets::Mode::Window)
    return {};
  return {gShared.nodeRank, 2};
}

llvm::Error comm::shareShards(int64_t id) {
  if (gShared.mode != SharedBuckets::Mode::Window)
    return llvm::Error::success();
  if (llvm::Error error = checkWindowBucket(id, 0))
    return error;
  // Timed as communication, but not a call of its own: the second half of
  // the bucket's all-reduce.
  Watched watch("all_reduce (shared bucket's updates)", 0, 0);
  if (id >= kShareSlots)
    return meetInAllReduce(0).takeError();
  return meetAtStep(&shareSlot(gShared.mine, id)->shardStep,
                    &shareSlot(gShared.theirs, id)->shardStep,
                    "wrote its part of the updates from gradient bucket " +
                        llvm::Twine(id));
}

/// Runs a collective for compiled code, which cannot raise: an error is
/// printed and aborts the MPI job.
static void compiledCollective(llvm::function_ref<llvm::Error()> run) {
  llvm::Error error = comm::init();
  if (!error)
    error = run();
  if (!error)
    return;
  std::fprintf(stderr, "msmlir: error: compiled ms.all_reduce: %s\n",
               llvm::toString(std::move(error)).c_str());
  std::fflush(stderr);
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized)
    MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();
}

/// The ReduceOp of a compiled op's code.
static llvm::Expected<ReduceOp> reduceOpOfCode(int32_t op) {
  if (op < 0 || op > 3)
    return commError("ms.all_reduce: unknown reduce op code " +
                     llvm::Twine(op));
  return static_cast<ReduceOp>(op);
}

static void compiledAllReduce(void *data, int64_t count, DType dtype,
                              int32_t code, bool start) {
  compiledCollective([&]() -> llvm::Error {
    llvm::Expected<ReduceOp> op = reduceOpOfCode(code);
    if (!op)
      return op.takeError();
    return start ? comm::startAllReduce(data, count, dtype, *op)
                 : comm::allReduce(data, count, dtype, *op);
  });
}

void ms_comm_all_reduce_f32(float *data, int64_t count, int32_t op) {
  compiledAllReduce(data, count, DType::F32, op, /*start=*/false);
}

void ms_comm_all_reduce_f64(double *data, int64_t count, int32_t op) {
  compiledAllReduce(data, count, DType::F64, op, /*start=*/false);
}

void ms_comm_all_reduce_start_f32(float *data, int64_t count, int32_t op) {
  compiledAllReduce(data, count, DType::F32, op, /*start=*/true);
}

void ms_comm_all_reduce_start_f64(double *data, int64_t count, int32_t op) {
  compiledAllReduce(data, count, DType::F64, op, /*start=*/true);
}

void ms_comm_all_reduce_wait(void *data) {
  compiledCollective([&] { return comm::finishAllReduce(data); });
}

void ms_comm_share_bucket_f32(float *own, int64_t count, int64_t id) {
  compiledCollective(
      [&] { return comm::shareBucket(own, count, DType::F32, id); });
}

void ms_comm_share_bucket_f64(double *own, int64_t count, int64_t id) {
  compiledCollective(
      [&] { return comm::shareBucket(own, count, DType::F64, id); });
}

int64_t ms_comm_shard_index() { return comm::bucketShard().index; }

int64_t ms_comm_shard_count() { return comm::bucketShard().count; }

void ms_comm_share_shards(int64_t id) {
  compiledCollective([&] { return comm::shareShards(id); });
}

#endif // MS_HAVE_MPI
