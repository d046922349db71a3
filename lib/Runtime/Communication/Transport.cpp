//===- Transport.cpp - init, release and the collectives over MPI ---------===//
//
// The session's start and end, and the collectives PyNative and compiled
// code run through MPI: all-reduce (whole, or started and waited for; the
// deterministic tree), all-gather, broadcast and barrier. Every blocking
// call runs under the watchdog (Watched).
//
//===----------------------------------------------------------------------===//

#include "Session.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <mutex>
#include <string>

using namespace ms::runtime;
using namespace ms::runtime::comm;
using namespace ms::runtime::comm::detail;

detail::Communicator detail::theCommunicator;

llvm::Error detail::mpiError(const char *what, int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS)
    length = 0;
  return commError(llvm::Twine(what) + " failed on rank " +
                   llvm::Twine(theCommunicator.watch.rank.load()) + ": " +
                   llvm::StringRef(text, length));
}

llvm::Error detail::requireRunning(const char *what) {
  Phase phase = theCommunicator.phase;
  if (phase == Phase::Running)
    return llvm::Error::success();
  if (phase == Phase::Released)
    return commError(llvm::Twine(what) +
                     ": communication was released (release()); MPI cannot "
                     "be initialized again in this process");
  return commError(llvm::Twine(what) +
                   ": communication is not initialized; call "
                   "msmlir.communication.init() first");
}

static std::optional<MPI_Datatype> mpiType(DType dtype) {
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

static MPI_Op mpiOp(ReduceOp op) {
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

llvm::Expected<MPI_Datatype> detail::checkedType(const char *what,
                                                 DType dtype) {
  if (std::optional<MPI_Datatype> type = mpiType(dtype))
    return *type;
  return commError(llvm::Twine(what) + ": dtype " + dtypeName(dtype) +
                   " is not supported (float32, float64 and the integer "
                   "types are)");
}

void detail::abortCompiledCollective(llvm::Error error) {
  std::fprintf(stderr, "msmlir: error: compiled ms.all_reduce: %s\n",
               llvm::toString(std::move(error)).c_str());
  std::fflush(stderr);
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized)
    MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();
}

//===--------------------------------------------------------------------===//
// The session
//===--------------------------------------------------------------------===//

bool comm::builtWithMPI() { return true; }
bool comm::isInitialized() { return theCommunicator.phase == Phase::Running; }

/// MPI_Init with the mpiDefaults() the environment lacks, under a watchdog
/// of the session's own.
static llvm::Error startMPI(Session &session) {
  session.watchdog.start();
  Watched watch("MPI_Init", 0);
  // MPI_Init reads OpenMPI's parameters from the environment.
  setMissingDefaults(mpiDefaults());
  int provided = 0;
  int code = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  if (code != MPI_SUCCESS)
    return commError("init(): MPI_Init failed (error " + llvm::Twine(code) +
                     ")");
  session.world.ownsMPI = true;
  return llvm::Error::success();
}

/// This process's place in MPI_COMM_WORLD and among the ranks on its host.
static void findWorld(World &world) {
  // Errors come back as codes (turned into exceptions), never abort here.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &world.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world.size);
  theCommunicator.watch.rank.store(world.rank);
  Watched watch("init(): finding the ranks on this host", 0);
  MPI_Comm local;
  if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world.rank,
                          MPI_INFO_NULL, &local) == MPI_SUCCESS) {
    MPI_Comm_rank(local, &world.localRank);
    MPI_Comm_free(&local);
  }
}

llvm::Error comm::init() {
  Communicator &c = theCommunicator;
  if (c.phase == Phase::Running)
    return llvm::Error::success();
  if (c.phase == Phase::Released)
    return commError("init(): communication was released in this process; "
                     "MPI cannot be initialized twice");
  // libmpi came in as a dependency of a module loaded RTLD_LOCAL (Python's
  // extension modules are); OpenMPI's own plugins need its symbols global.
  dlopen("libmpi.so.40", RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
  auto session = std::make_unique<Session>();
  int already = 0;
  MPI_Initialized(&already);
  if (!already)
    if (llvm::Error error = startMPI(*session))
      return error;
  findWorld(session->world);
  c.session = std::move(session);
  std::signal(SIGTERM, onTerminate);
  c.phase = Phase::Running;
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
  Communicator &c = theCommunicator;
  if (c.phase != Phase::Running)
    return llvm::Error::success();
  c.phase = Phase::Released;
  std::signal(SIGTERM, SIG_DFL);
  // Ends with this function, after MPI_Finalize.
  std::unique_ptr<Session> session = std::move(c.session);
  if (!session->world.ownsMPI)
    return llvm::Error::success();
  Watched watch("release() (MPI_Finalize)", 0);
  freeSharedBuckets(session->shared);
  int code = MPI_Finalize();
  if (code != MPI_SUCCESS)
    return mpiError("release() (MPI_Finalize)", code);
  return llvm::Error::success();
}

/// The session's world, once init() has run.
static llvm::Expected<const World *> runningWorld(const char *what) {
  if (llvm::Error error = requireRunning(what))
    return std::move(error);
  return &currentSession()->world;
}

llvm::Expected<int> comm::rank() {
  llvm::Expected<const World *> world = runningWorld("get_rank()");
  if (!world)
    return world.takeError();
  return (*world)->rank;
}

llvm::Expected<int> comm::groupSize() {
  llvm::Expected<const World *> world = runningWorld("get_group_size()");
  if (!world)
    return world.takeError();
  return (*world)->size;
}

llvm::Expected<int> comm::localRank() {
  llvm::Expected<const World *> world = runningWorld("get_local_rank()");
  if (!world)
    return world.takeError();
  return (*world)->localRank;
}

//===--------------------------------------------------------------------===//
// All-reduce
//===--------------------------------------------------------------------===//

/// Whether allReduce takes the tree: only where the order changes the bits
/// (floating-point sums and products, more than two ranks; with two, every
/// MPI algorithm computes r0 + r1 once per element).
static bool needsTree(DType dtype, ReduceOp op) {
  Session *session = currentSession();
  return comm::isDeterministic() && session && session->world.size > 2 &&
         (dtype == DType::F32 || dtype == DType::F64) &&
         (op == ReduceOp::Sum || op == ReduceOp::Prod);
}

/// The MPI type of an all-reduce's elements, once MPI is running.
static llvm::Expected<MPI_Datatype> allReduceType(DType dtype) {
  if (llvm::Error error = requireRunning("all_reduce"))
    return std::move(error);
  return checkedType("all_reduce", dtype);
}

/// The deterministic all-reduce (needsTree): every rank's piece gathered,
/// then reduced as the pairwise tree in rank order.
static llvm::Error treeAllReduce(void *data, int64_t count, DType dtype,
                                 ReduceOp op) {
  llvm::Expected<MPI_Datatype> type = allReduceType(dtype);
  if (!type)
    return type.takeError();
  int size = currentSession()->world.size;
  size_t width = dtypeSize(dtype);
  Watched watch("all_reduce", count * static_cast<int64_t>(width));
  char *bytes = static_cast<char *>(data);
  // Pieces of 4 MiB bound the gathered rows.
  int64_t chunk = std::max<int64_t>(1, (int64_t(4) << 20) / int64_t(width));
  std::vector<char> rows;
  for (int64_t done = 0; done < count; done += chunk) {
    int n = static_cast<int>(std::min(chunk, count - done));
    char *piece = bytes + done * width;
    rows.resize(static_cast<size_t>(n) * width * size);
    int code = MPI_Allgather(piece, n, *type, rows.data(), n, *type,
                             MPI_COMM_WORLD);
    if (code != MPI_SUCCESS)
      return mpiError("all_reduce", code);
    reduceRowsAsTree(rows.data(), n, size, dtype, op);
    std::memcpy(piece, rows.data(), static_cast<size_t>(n) * width);
  }
  return llvm::Error::success();
}

/// The all-reduce in flight on `data`, or the end of `pending`.
static std::vector<PendingAllReduce>::iterator
pendingOn(std::vector<PendingAllReduce> &pending, void *data) {
  return llvm::find_if(pending, [&](const PendingAllReduce &inFlight) {
    return inFlight.data == data;
  });
}

llvm::Error comm::startAllReduce(void *data, int64_t count, DType dtype,
                                 ReduceOp op) {
  llvm::Expected<MPI_Datatype> type = allReduceType(dtype);
  if (!type)
    return type.takeError();
  std::vector<PendingAllReduce> &pending = currentSession()->pending;
  if (pendingOn(pending, data) != pending.end())
    return commError("all_reduce: an all-reduce of this buffer was "
                     "started and not waited for");
  if (needsTree(dtype, op)) {
    if (llvm::Error error = treeAllReduce(data, count, dtype, op))
      return error;
    pending.push_back({data, {}});
    return llvm::Error::success();
  }
  size_t width = dtypeSize(dtype);
  Watched watch("all_reduce (start)", count * static_cast<int64_t>(width));
  PendingAllReduce started{data, {}};
  char *bytes = static_cast<char *>(data);
  for (int64_t done = 0; done < count; done += kMaxChunk) {
    int n = static_cast<int>(std::min(kMaxChunk, count - done));
    MPI_Request request;
    int code = MPI_Iallreduce(MPI_IN_PLACE, bytes + done * width, n, *type,
                              mpiOp(op), MPI_COMM_WORLD, &request);
    if (code != MPI_SUCCESS)
      return mpiError("all_reduce (start)", code);
    started.requests.push_back(request);
  }
  pending.push_back(std::move(started));
  return llvm::Error::success();
}

llvm::Error comm::finishAllReduce(void *data) {
  Session *session = currentSession();
  auto found = session ? pendingOn(session->pending, data)
                       : std::vector<PendingAllReduce>::iterator();
  if (!session || found == session->pending.end())
    return commError("all_reduce: waited for an all-reduce that was not "
                     "started on this buffer");
  std::vector<MPI_Request> requests = std::move(found->requests);
  session->pending.erase(found);
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

//===--------------------------------------------------------------------===//
// All-gather, broadcast, barrier
//===--------------------------------------------------------------------===//

llvm::Error comm::allGather(const void *send, void *recv, int64_t count,
                            DType dtype) {
  llvm::Expected<const World *> world = runningWorld("all_gather");
  if (!world)
    return world.takeError();
  llvm::Expected<MPI_Datatype> type = checkedType("all_gather", dtype);
  if (!type)
    return type.takeError();
  if (count > kMaxChunk)
    return commError("all_gather: " + llvm::Twine(count) +
                     " elements per rank is more than MPI's int count");
  Watched watch("all_gather", count * static_cast<int64_t>(dtypeSize(dtype)) *
                                  (*world)->size);
  int code = MPI_Allgather(send, static_cast<int>(count), *type, recv,
                           static_cast<int>(count), *type, MPI_COMM_WORLD);
  if (code != MPI_SUCCESS)
    return mpiError("all_gather", code);
  return llvm::Error::success();
}

llvm::Error comm::broadcast(void *data, int64_t count, DType dtype,
                            int root) {
  llvm::Expected<const World *> world = runningWorld("broadcast");
  if (!world)
    return world.takeError();
  int size = (*world)->size;
  if (root < 0 || root >= size)
    return commError("broadcast: root_rank " + llvm::Twine(root) +
                     " is not a rank of the group (size " + llvm::Twine(size) +
                     ")");
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
