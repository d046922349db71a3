//===- Communicator.h - The collectives' state, in one object ---*- C++ -*-===//
//
// Everything the collectives keep between calls is one object, the
// Communicator. Its Session (the MPI world, the watchdog thread, the
// all-reduces in flight, the shared gradient buckets) is created by init()
// and destroyed by release(), at exit at the latest (init() registers
// release() with atexit). What must outlive a session lives beside it: the
// deterministic setting, which may be made before init(); the statistics,
// which may be read after release(); and what the watchdog thread and the
// SIGTERM handler read.
//
// Compiled code runs collectives on one thread (MPI_THREAD_FUNNELED), so
// only what other threads read is atomic.
//
// The files of this folder: Communicator.cpp (this object, ReduceOp names,
// the deterministic tree), Agreement.cpp (ranks agree on a PyNative
// collective before its data moves), Transport.cpp (init, release and the MPI
// collectives), Watchdog.cpp (timeouts and the SIGTERM message),
// SharedBuckets.cpp (the two-rank shared window), CompiledEntryPoints.cpp
// (the ms_comm_* functions compiled code calls), NoMPI.cpp (every call's
// error when ms is built without MPI).
//
//===----------------------------------------------------------------------===//
#ifndef LIB_RUNTIME_COMMUNICATION_COMMUNICATOR_H
#define LIB_RUNTIME_COMMUNICATION_COMMUNICATOR_H

#include "ms/Runtime/Communication/Communication.h"
#include "ms/Support/Error.h"

#include <atomic>
#include <cstdint>
#include <memory>

namespace ms {
namespace runtime {
namespace comm {
namespace detail {

/// The MPI session: Session.h (built with MPI only).
struct Session;

enum class Phase { Uninitialized, Running, Released };

/// The collective in progress, for the watchdog thread and the SIGTERM
/// handler: its name (a static string), when it must end (steady_clock
/// nanoseconds; 0 when none is in progress) and this process's rank.
struct WatchState {
  std::atomic<const char *> what{nullptr};
  std::atomic<int64_t> deadline{0};
  std::atomic<int> rank{-1};
};

struct Communicator {
  Phase phase = Phase::Uninitialized;
  std::atomic<bool> deterministic{false};
  Stats stats;
  WatchState watch;
  /// Null outside init() ... release().
  std::unique_ptr<Session> session;
};

/// The process's Communicator. An object at namespace scope, not a
/// function's static: the SIGTERM handler reads it without a guard.
/// Defined where Session is complete (Transport.cpp, NoMPI.cpp).
extern Communicator theCommunicator;

/// The session while communication runs, else null.
inline Session *currentSession() { return theCommunicator.session.get(); }

inline llvm::Error commError(const llvm::Twine &message) {
  return makeError(message);
}

/// Ends the process for a collective compiled code could not run, after
/// printing why: compiled code has no way to raise. With MPI, the whole job
/// ends (MPI_Abort).
[[noreturn]] void abortCompiledCollective(llvm::Error error);

} // namespace detail
} // namespace comm
} // namespace runtime
} // namespace ms

#endif // LIB_RUNTIME_COMMUNICATION_COMMUNICATOR_H
