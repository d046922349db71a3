//===- CompiledEntryPoints.cpp - Collectives that compiled code calls -----===//
//
// The extern "C" functions of Communication.h that the lowering of
// ms.all_reduce (and of a train step's shared buckets) calls. They start
// communication on first use; a failure ends the process
// (abortCompiledCollective), since compiled code cannot raise.
//
//===----------------------------------------------------------------------===//

#include "Communicator.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"

using namespace ms::runtime;
using namespace ms::runtime::comm;

/// Runs a collective for compiled code: init(), then `run`.
static void compiledCollective(llvm::function_ref<llvm::Error()> run) {
  llvm::Error error = comm::init();
  if (!error)
    error = run();
  if (error)
    detail::abortCompiledCollective(std::move(error));
}

/// The ReduceOp of a compiled op's code.
static llvm::Expected<ReduceOp> reduceOpOfCode(int32_t op) {
  if (op < 0 || op > 3)
    return detail::commError("ms.all_reduce: unknown reduce op code " +
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
