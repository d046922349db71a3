//===- NoMPI.cpp - Communication.h when ms is built without MPI -----------===//
//
// Built instead of Transport.cpp, Watchdog.cpp and SharedBuckets.cpp when
// CMake finds no MPI (Debian's libopenmpi-dev): every call that would need
// it returns the error "msmlir was built without MPI", and compiled code
// that reaches a collective ends the process saying so.
//
//===----------------------------------------------------------------------===//

#include "Communicator.h"

#include <cstdio>
#include <cstdlib>

using namespace ms::runtime;
using namespace ms::runtime::comm;

namespace ms {
namespace runtime {
namespace comm {
namespace detail {
/// Never created without MPI.
struct Session {};
} // namespace detail
} // namespace comm
} // namespace runtime
} // namespace ms

detail::Communicator detail::theCommunicator;

static llvm::Error noMPI() {
  return detail::commError("msmlir was built without MPI: install Debian's "
                           "libopenmpi-dev and openmpi-bin and rebuild");
}

void detail::abortCompiledCollective(llvm::Error error) {
  llvm::consumeError(std::move(error));
  std::fprintf(stderr, "msmlir: error: a compiled graph ran ms.all_reduce, "
                       "but msmlir was built without MPI\n");
  std::abort();
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
comm::BucketShard comm::bucketShard() { return {}; }
llvm::Error comm::shareShards(int64_t) { return noMPI(); }
