//===- Session.h - One MPI session's state and shared helpers ---*- C++ -*-===//
//
// What init() creates and release() destroys (Communicator.h), and the
// helpers the MPI files share. Built with MPI only.
//
//===----------------------------------------------------------------------===//
#ifndef LIB_RUNTIME_COMMUNICATION_SESSION_H
#define LIB_RUNTIME_COMMUNICATION_SESSION_H

#include "Communicator.h"

#define OMPI_SKIP_MPICXX 1
#include <mpi.h>

#include <condition_variable>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace ms {
namespace runtime {
namespace comm {
namespace detail {

struct World {
  int rank = 0;
  int size = 1;
  int localRank = 0;
  bool ownsMPI = false; // we called MPI_Init, so we finalize
};

/// An all-reduce startAllReduce began and finishAllReduce has not ended:
/// its buffer and MPI's requests (one per piece of kMaxChunk elements;
/// none when it already completed, on the deterministic tree).
struct PendingAllReduce {
  void *data;
  std::vector<MPI_Request> requests;
};

/// A bucket's place in each rank's segment of the window: `capacity`
/// bytes from `offset`.
struct WindowBucket {
  size_t offset = 0;
  size_t capacity = 0;
};

/// Memory of the runtime's own, 64-byte aligned as compiled code assumes.
struct AlignedBuffer {
  std::unique_ptr<char, decltype(&std::free)> data{nullptr, &std::free};
  size_t bytes = 0;
  /// At least `size` bytes; new memory is filled with copies of the
  /// `width` bytes at `pattern`, if given.
  char *reserve(size_t size, const void *pattern = nullptr, size_t width = 1);
};

/// Whether buckets go through a window, and the window (SharedBuckets.cpp).
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

/// Frees the shared buckets' window and communicator, before MPI_Finalize
/// (collective).
void freeSharedBuckets(SharedBuckets &shared);

/// The thread that ends the process when a collective outlives its
/// deadline (Watchdog.cpp). Started by init() when it starts MPI; stopped
/// and joined when the session ends.
class Watchdog {
public:
  void start();
  ~Watchdog();

private:
  void loop();
  std::thread thread;
  std::mutex mutex;
  std::condition_variable wake;
  bool stopping = false;
};

struct Session {
  World world;
  std::vector<PendingAllReduce> pending;
  SharedBuckets shared;
  /// Last, so that it is destroyed first: nothing it watches runs after.
  Watchdog watchdog;
};

/// Marks the calling thread as inside `what` for the watchdog, and counts
/// and times it in the statistics.
class Watched {
public:
  /// `calls`: 0 for the second half of a collective counted at its start.
  Watched(const char *what, int64_t bytes, int calls = 1);
  ~Watched();

private:
  int64_t start;
};

/// Says on stderr, before going, that mpirun ended this rank (SIGTERM).
void onTerminate(int signo);

/// "<what> failed on rank <r>: <MPI's message>".
llvm::Error mpiError(const char *what, int code);
/// An error unless communication runs (init() and no release() since).
llvm::Error requireRunning(const char *what);
/// The MPI type of `dtype`'s elements, or an error naming `what`.
llvm::Expected<MPI_Datatype> checkedType(const char *what, DType dtype);

// MPI counts are int: larger buffers go in pieces of at most this many
// elements (each piece is the same collective on every rank).
constexpr int64_t kMaxChunk = int64_t(1) << 30;

} // namespace detail
} // namespace comm
} // namespace runtime
} // namespace ms

#endif // LIB_RUNTIME_COMMUNICATION_SESSION_H
