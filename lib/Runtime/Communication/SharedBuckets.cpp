//===- SharedBuckets.cpp - Gradient buckets in a two-rank shared window ---===//
//
// With two ranks on one host, a compiled train step's gradient buckets live
// in an MPI-3 shared window (MPI_Win_allocate_shared): each rank writes its
// own and reads the other's, synchronized by counters in the window instead
// of an all-reduce (Communication.h, bucketBuffers). Otherwise the buckets
// are the runtime's own buffers, all-reduced in place.
//
//===----------------------------------------------------------------------===//

#include "Session.h"

#include "ms/Support/CpuRelax.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <cstring>
#include <thread>

using namespace ms::runtime;
using namespace ms::runtime::comm;
using namespace ms::runtime::comm::detail;

char *AlignedBuffer::reserve(size_t size, const void *pattern, size_t width) {
  if (size <= bytes && data)
    return data.get();
  size_t rounded = std::max<size_t>(64, (size + 63) / 64 * 64);
  data.reset(static_cast<char *>(std::aligned_alloc(64, rounded)));
  bytes = data ? rounded : 0;
  for (size_t at = 0; pattern && at + width <= bytes; at += width)
    std::memcpy(data.get() + at, pattern, width);
  return data.get();
}

namespace {

/// Each segment's first page holds one counter, the steps its rank has
/// finished (see handBackBuckets); the buckets follow it.
constexpr size_t kWindowPage = 4096;

/// Window mode needs exactly two ranks, on one host (MPI_Comm_split_type);
/// MS_COMM_SHARED_BUCKETS=0 turns it off. Collective on the first call.
llvm::Error decideSharing(Session &session) {
  SharedBuckets &shared = session.shared;
  if (shared.mode != SharedBuckets::Mode::Undecided)
    return llvm::Error::success();
  shared.mode = SharedBuckets::Mode::Private;
  const char *setting = std::getenv("MS_COMM_SHARED_BUCKETS");
  if (session.world.size != 2 || (setting && llvm::StringRef(setting) == "0"))
    return llvm::Error::success();
  Watched watch("shared buckets: finding the ranks on this host", 0);
  MPI_Comm node;
  int code = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED,
                                 session.world.rank, MPI_INFO_NULL, &node);
  if (code != MPI_SUCCESS)
    return mpiError("shared buckets (MPI_Comm_split_type)", code);
  int size = 0;
  MPI_Comm_size(node, &size);
  if (size != 2) {
    MPI_Comm_free(&node);
    return llvm::Error::success();
  }
  MPI_Comm_set_errhandler(node, MPI_ERRORS_RETURN);
  MPI_Comm_rank(node, &shared.nodeRank);
  shared.node = node;
  shared.mode = SharedBuckets::Mode::Window;
  return llvm::Error::success();
}

void freeWindow(SharedBuckets &shared) {
  if (shared.window == MPI_WIN_NULL)
    return;
  MPI_Win_unlock_all(shared.window);
  MPI_Win_free(&shared.window);
  shared.mine = nullptr;
  shared.theirs = nullptr;
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

/// This rank's counters on a new window: its finished steps are the steps
/// it has begun, and no bucket holds a step's gradients or updates yet.
void resetCounters(const SharedBuckets &shared) {
  __atomic_store_n(stepsFinished(shared.mine), shared.stepsBegun,
                   __ATOMIC_RELEASE);
  for (int64_t id = 0; id < kShareSlots; ++id) {
    __atomic_store_n(&shareSlot(shared.mine, id)->step, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&shareSlot(shared.mine, id)->shardStep, 0,
                     __ATOMIC_RELEASE);
  }
}

/// A new window of `bytes` per rank (collective; the old one's contents go,
/// which no step needs: each writes its bucket before reading it). Both
/// ranks are in the same call, so each sets its counter of finished steps
/// to its steps begun so far, and the next hand-back passes at once.
llvm::Error remakeWindow(SharedBuckets &shared, size_t bytes) {
  Watched watch("shared buckets: MPI_Win_allocate_shared", 0);
  freeWindow(shared);
  // OpenMPI aligns segments to less than the 64 bytes compiled code needs.
  size_t segment = bytes + 64;
  char *base = nullptr;
  int code = MPI_Win_allocate_shared(static_cast<MPI_Aint>(segment), 1,
                                     MPI_INFO_NULL, shared.node, &base,
                                     &shared.window);
  if (code != MPI_SUCCESS)
    return mpiError("shared buckets (MPI_Win_allocate_shared)", code);
  MPI_Aint peerBytes = 0;
  int unit = 0;
  char *peer = nullptr;
  MPI_Win_shared_query(shared.window, 1 - shared.nodeRank, &peerBytes, &unit,
                       &peer);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, shared.window);
  shared.mine = aligned64(base);
  shared.theirs = aligned64(peer);
  resetCounters(shared);
  MPI_Win_sync(shared.window);
  MPI_Barrier(shared.node);
  MPI_Win_sync(shared.window);
  if (static_cast<size_t>(peerBytes) == segment)
    return llvm::Error::success();
  // Both ranks see the mismatch, so both free the window: no later call
  // may take the other rank's segment for one of this size.
  freeWindow(shared);
  return commError("shared buckets: the other rank's window segment has " +
                   llvm::Twine(int64_t(peerBytes)) + " bytes, this one " +
                   llvm::Twine(segment) +
                   ": the ranks' gradient buckets differ");
}

/// The bytes of `request`'s elements.
size_t bytesOf(const BucketRequest &request) {
  return static_cast<size_t>(request.count) * dtypeSize(request.dtype);
}

/// Room in the window for every bucket of `requests`, each bucket's
/// buffer rounded to whole pages: one new window if any does not fit.
llvm::Error reserveInWindow(SharedBuckets &shared,
                            llvm::ArrayRef<BucketRequest> requests) {
  std::vector<WindowBucket> &buckets = shared.buckets;
  bool grew = false;
  for (const BucketRequest &request : requests) {
    size_t bytes = bytesOf(request);
    if (size_t(request.id) >= buckets.size())
      buckets.resize(request.id + 1);
    size_t pages = std::max<size_t>(
        kWindowPage, (bytes + kWindowPage - 1) / kWindowPage * kWindowPage);
    grew |= pages > buckets[request.id].capacity;
    buckets[request.id].capacity =
        std::max(buckets[request.id].capacity, pages);
  }
  if (!grew && shared.window != MPI_WIN_NULL)
    return llvm::Error::success();
  size_t offset = kWindowPage;
  for (WindowBucket &bucket : buckets) {
    bucket.offset = offset;
    offset += bucket.capacity;
  }
  return remakeWindow(shared, offset);
}

/// Bucket `id`'s buffers in the window.
BucketBuffers windowBuffers(const SharedBuckets &shared, int64_t id) {
  size_t at = shared.buckets[id].offset;
  return {shared.mine + at, shared.theirs + at};
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
/// 2.24-2.32 ms with one (docs/performance-history.md). The wait is the time
/// between the ranks' starts, as both left the last step's
/// synchronization together.
void handBackBuckets(SharedBuckets &shared) {
  ++theCommunicator.stats.sharedSteps;
  uint64_t finished = shared.stepsBegun++;
  __atomic_store_n(stepsFinished(shared.mine), finished, __ATOMIC_RELEASE);
  const uint64_t *theirs = stepsFinished(shared.theirs);
  if (__atomic_load_n(theirs, __ATOMIC_ACQUIRE) >= finished)
    return;
  Watched watch("shared buckets: waiting for the other rank's last step", 0,
                0);
  waitForPeer(theirs, finished);
}

/// Stores this step's number at `mine` (release), then waits until the
/// other rank has stored it at `theirs` (acquire). `what` names what the
/// other rank did, for the error when it did so for another step.
llvm::Error meetAtStep(const SharedBuckets &shared, uint64_t *mine,
                       const uint64_t *theirs, const llvm::Twine &what) {
  uint64_t step = shared.stepsBegun;
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
llvm::Expected<int64_t> markBucketReady(const SharedBuckets &shared,
                                        int64_t id, int64_t count) {
  ShareSlot *mine = shareSlot(shared.mine, id);
  const ShareSlot *theirs = shareSlot(shared.theirs, id);
  __atomic_store_n(&mine->count, count, __ATOMIC_RELAXED);
  if (llvm::Error error =
          meetAtStep(shared, &mine->step, &theirs->step,
                     "shared gradient bucket " + llvm::Twine(id)))
    return std::move(error);
  return __atomic_load_n(&theirs->count, __ATOMIC_RELAXED);
}

/// markBucketReady for a bucket past the first page's slots: MPI-3's
/// shared memory model, with an all-reduce of the sizes as the
/// synchronization. Returns a size of the other rank's that differs from
/// `count`, if there is one.
llvm::Expected<int64_t> meetInAllReduce(const SharedBuckets &shared,
                                        int64_t count) {
  MPI_Win_sync(shared.window);
  long long sizes[2] = {count, -count}, largest[2] = {0, 0};
  int code = MPI_Allreduce(sizes, largest, 2, MPI_LONG_LONG, MPI_MAX,
                           shared.node);
  MPI_Win_sync(shared.window);
  if (code != MPI_SUCCESS)
    return mpiError("all_reduce (shared bucket)", code);
  return largest[0] != count ? largest[0] : -largest[1];
}

/// The runtime's own buffers for `requests`, and -0.0 beside them: x +
/// -0.0 is x for every x, -0.0 and NaN included. One -0.0 buffer per
/// element width serves every bucket, so all are reserved before any
/// pointer is taken (a larger bucket moves it).
llvm::Expected<std::vector<BucketBuffers>>
privateBuffers(SharedBuckets &shared, llvm::ArrayRef<BucketRequest> requests) {
  const double negativeZero64 = -0.0;
  const float negativeZero32 = -0.0f;
  for (const BucketRequest &request : requests) {
    size_t width = dtypeSize(request.dtype);
    size_t bytes = bytesOf(request);
    if (size_t(request.id) >= shared.privateBuckets.size())
      shared.privateBuckets.resize(request.id + 1);
    const void *pattern = width == 8
                              ? static_cast<const void *>(&negativeZero64)
                              : &negativeZero32;
    if (!shared.privateBuckets[request.id].reserve(bytes) ||
        !shared.negativeZeros[width == 8].reserve(bytes, pattern, width))
      return commError("gradient bucket " + llvm::Twine(request.id) +
                       ": cannot allocate " + llvm::Twine(bytes) + " bytes");
  }
  std::vector<BucketBuffers> buffers;
  for (const BucketRequest &request : requests)
    buffers.push_back(
        {shared.privateBuckets[request.id].data.get(),
         shared.negativeZeros[dtypeSize(request.dtype) == 8].data.get()});
  return buffers;
}

/// An internal error unless bucket `id` has a buffer of at least `bytes`
/// in the window (the step's call asked for it at the step's start).
llvm::Error checkWindowBucket(const SharedBuckets &shared, int64_t id,
                              size_t bytes) {
  if (id >= 0 && size_t(id) < shared.buckets.size() &&
      shared.buckets[id].capacity >= bytes)
    return llvm::Error::success();
  return commError("all_reduce: gradient bucket " + llvm::Twine(id) +
                   " has no buffer" +
                   (bytes ? " of " + llvm::Twine(bytes) + " bytes"
                          : llvm::Twine()) +
                   " in the window (an internal error)");
}

llvm::Error checkBucketRequest(const BucketRequest &request) {
  if (request.id >= 0 && request.count >= 0 &&
      (request.dtype == DType::F32 || request.dtype == DType::F64))
    return llvm::Error::success();
  return commError("gradient bucket " + llvm::Twine(request.id) + ": " +
                   llvm::Twine(request.count) + " elements of " +
                   dtypeName(request.dtype) + " (float32 or float64 only)");
}

/// The shared buckets while the window serves them, else null.
SharedBuckets *window() {
  Session *session = currentSession();
  if (!session || session->shared.mode != SharedBuckets::Mode::Window)
    return nullptr;
  return &session->shared;
}

} // namespace

void detail::freeSharedBuckets(SharedBuckets &shared) {
  freeWindow(shared);
  if (shared.node != MPI_COMM_NULL)
    MPI_Comm_free(&shared.node);
}

llvm::Expected<std::vector<BucketBuffers>>
comm::bucketBuffers(llvm::ArrayRef<BucketRequest> requests) {
  if (requests.empty())
    return std::vector<BucketBuffers>{};
  if (llvm::Error error = comm::init())
    return std::move(error);
  for (const BucketRequest &request : requests)
    if (llvm::Error error = checkBucketRequest(request))
      return std::move(error);
  Session &session = *currentSession();
  if (llvm::Error error = decideSharing(session))
    return std::move(error);
  SharedBuckets &shared = session.shared;
  if (shared.mode != SharedBuckets::Mode::Window)
    return privateBuffers(shared, requests);
  if (llvm::Error error = reserveInWindow(shared, requests))
    return std::move(error);
  handBackBuckets(shared);
  std::vector<BucketBuffers> buffers;
  for (const BucketRequest &request : requests)
    buffers.push_back(windowBuffers(shared, request.id));
  return buffers;
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
  SharedBuckets *shared = window();
  if (!shared)
    return comm::allReduce(own, count, dtype, ReduceOp::Sum);
  size_t bytes = bytesOf({id, count, dtype});
  if (llvm::Error error = checkWindowBucket(*shared, id, bytes))
    return error;
  void *buffer = windowBuffers(*shared, id).own;
  Watched watch("all_reduce (shared bucket)", static_cast<int64_t>(bytes));
  // A step whose bucket did not become an argument: its own buffer.
  if (own != buffer)
    std::memcpy(buffer, own, bytes);
  // The writes before, the other rank's reads after, through a counter in
  // the window; it also checks that both ranks share buckets of one size.
  // An all-reduce of the sizes did the same in 10-30 us more a step.
  llvm::Expected<int64_t> theirs = id < kShareSlots
                                       ? markBucketReady(*shared, id, count)
                                       : meetInAllReduce(*shared, count);
  if (!theirs)
    return theirs.takeError();
  if (*theirs != count)
    return commError("all_reduce: the ranks' gradient buckets differ in "
                     "size (" + llvm::Twine(count) + " and " +
                     llvm::Twine(*theirs) + " elements)");
  return llvm::Error::success();
}

BucketShard comm::bucketShard() {
  SharedBuckets *shared = window();
  if (!shared)
    return {};
  return {shared->nodeRank, 2};
}

llvm::Error comm::shareShards(int64_t id) {
  SharedBuckets *shared = window();
  if (!shared)
    return llvm::Error::success();
  if (llvm::Error error = checkWindowBucket(*shared, id, 0))
    return error;
  // Timed as communication, but not a call of its own: the second half of
  // the bucket's all-reduce.
  Watched watch("all_reduce (shared bucket's updates)", 0, 0);
  if (id >= kShareSlots)
    return meetInAllReduce(*shared, 0).takeError();
  return meetAtStep(*shared, &shareSlot(shared->mine, id)->shardStep,
                    &shareSlot(shared->theirs, id)->shardStep,
                    "wrote its part of the updates from gradient bucket " +
                        llvm::Twine(id));
}
