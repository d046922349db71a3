//===- Communication.h - Collectives across ranks over MPI ------*- C++ -*-===//
//
// The one place ms talks to MPI (Debian's OpenMPI, launched with mpirun):
// data-parallel training's collectives, for PyNative (through the Python
// bindings) and for compiled graphs (through the extern "C" entry points at
// the end, which `ms.all_reduce`'s lowering calls).
//
// Why a runtime layer and not MLIR's `mpi` dialect: in MLIR 22 that dialect
// mislowers against OpenMPI (wrong MPI_SUM symbol, counts of dimension 0
// only, comm_split crashes); see docs/distributed.md.
//
// Every collective runs under a watchdog: one that has not completed after
// MS_COMM_TIMEOUT seconds (default 300) prints which collective on which
// rank timed out and ends the process, so mpirun ends the job instead of
// letting it hang (a rank that died, exited early or skipped a collective).
// A rank that mpirun terminates because another failed says so on stderr.
//
// Built without MPI (no libopenmpi-dev at configure time), every function
// returns the error "msmlir was built without MPI".
//
// lib/Runtime/Communication/Communicator.h says which file implements what,
// and where the state between calls lives.
//
//===----------------------------------------------------------------------===//

#ifndef MS_RUNTIME_COMMUNICATION_COMMUNICATION_H
#define MS_RUNTIME_COMMUNICATION_COMMUNICATION_H

#include "ms/Runtime/Memory/DType.h"
#include "ms/Support/EnvironmentDefaults.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace ms {
namespace runtime {
namespace comm {

/// True when the runtime was compiled against MPI.
bool builtWithMPI();

/// The OpenMPI settings init() gives MPI unless the user set them:
/// - OMPI_MCA_btl_vader_single_copy_mechanism=none. For large messages
///   between ranks on one host, OpenMPI's shared-memory transport copies
///   through the kernel (CMA, process_vm_readv) by default; its own
///   shared-memory buffers were faster here: the seed MLP's 2.68 MB
///   gradient all-reduce at 2 ranks took 0.34-0.37 ms of MPI time per step
///   instead of 0.43-0.71 ms (docs/performance-history.md, "Issue 19").
/// - OMPI_MCA_btl_vader_max_send_size=131072. Those buffers then move a
///   large message in 128 KiB fragments instead of 32 KiB: the 2.68 MB
///   all-reduce took 249-250 us instead of 285-292 (ms-bench-mpi-transport),
///   and the 2-rank step spent 0.27-0.28 ms in MPI instead of 0.32-0.34.
///   At 4 ranks on 2 cores it took 1.0 ms instead of 1.2-1.6; 512 KiB
///   fragments were 4.9x slower than 128 KiB at 2 ranks.
/// - OMPI_MCA_coll_libnbc_iallreduce_algorithm=1: the ring for
///   MPI_Iallreduce (startAllReduce). OpenMPI's own choice took 367 us for
///   the 2.68 MB bucket at 2 ranks, started and waited for at once; the
///   ring 260 us, as MPI_Allreduce (261 us).
llvm::ArrayRef<EnvironmentDefault> mpiDefaults();

/// Initializes MPI once per process (later calls do nothing), with the
/// mpiDefaults() the environment lacks. Outside mpirun, MPI starts a world
/// of one rank.
llvm::Error init();
bool isInitialized();
/// Finalizes MPI; the process cannot use collectives again (MPI's rule).
llvm::Error release();

/// This process's rank, the number of ranks, and the rank among those on
/// the same host. Errors before init().
llvm::Expected<int> rank();
llvm::Expected<int> groupSize();
llvm::Expected<int> localRank();

/// MindSpore's ReduceOp names: "sum", "max", "min", "prod".
enum class ReduceOp : int32_t { Sum = 0, Max = 1, Min = 2, Prod = 3 };
std::optional<ReduceOp> parseReduceOp(llvm::StringRef name);
llvm::StringRef reduceOpName(ReduceOp op);

/// Deterministic reductions (msmlir.set_deterministic): a floating-point
/// sum or product over ranks is a pairwise tree in rank order,
/// ((r0 + r1) + (r2 + r3)) + ..., the same on every rank whatever algorithm
/// MPI would pick for the rank count and message size. With a power-of-two
/// rank count that is the tree nn.TrainOneStepCell uses for its
/// micro-batches, so N ranks give one process's bits (docs/distributed.md,
/// "Determinism"). Off by default; a process-wide setting, as the
/// collectives are.
void setDeterministic(bool on);
bool isDeterministic();

/// The deterministic tree on `size` rows of `count` float32 or float64
/// elements (rank order; Sum or Prod): rows (0,1), (2,3), ... combine
/// first, then (0,2), (4,6), ..., until row 0 holds the result.
void reduceRowsAsTree(void *rows, int64_t count, int size, DType dtype,
                      ReduceOp op);

/// In place: every rank's `count` elements at `data` become their
/// elementwise reduction over all ranks (startAllReduce and
/// finishAllReduce at once, so that a whole and an overlapped all-reduce
/// add in the same order; deterministic, an all-gather and the tree
/// above). The same rank count and buffer sizes give bit-identical
/// results.
llvm::Error allReduce(void *data, int64_t count, DType dtype, ReduceOp op);
/// allReduce in two halves, so that a compiled train step can go on with
/// backward while a gradient bucket is reduced: startAllReduce begins it
/// (MPI_Iallreduce) and finishAllReduce(data) waits for it. Until then the
/// buffer must be neither read nor written. The deterministic tree (more
/// than two ranks) reduces at the start, blocking. OpenMPI moves the bytes
/// inside MPI calls: a later start, and the waits.
llvm::Error startAllReduce(void *data, int64_t count, DType dtype,
                           ReduceOp op);
llvm::Error finishAllReduce(void *data);
/// A gradient bucket's two buffers, which a compiled train step sums
/// (its ms.comm_bucket and ms.comm_peer arguments; docs/distributed.md,
/// "Shared gradient buckets"): `own`, which the step fills with this rank's
/// gradients and passes to shareBucket, and `peer`, which it then adds to
/// them, element by element.
struct BucketBuffers {
  void *own = nullptr;
  const void *peer = nullptr;
};
/// One gradient bucket a compiled step reads: `count` float32 or float64
/// elements.
struct BucketRequest {
  int64_t id = 0;
  int64_t count = 0;
  DType dtype = DType::F32;
};
/// The buffers of the buckets one call of a compiled step reads, in the
/// order of `requests` (initializing MPI if needed). With two ranks on one
/// host they are this rank's and the other rank's buffers in an MPI-3
/// shared window (MPI_Win_allocate_shared), one per bucket. A call is the
/// start of a step: it first waits until the other rank has started its
/// own (it has then finished reading this rank's buffers), so that a rank
/// never rewrites a buffer the other may still be reading. Otherwise `own`
/// is the runtime's, shareBucket all-reduces it in place, and `peer` holds
/// -0.0, which adds nothing to any value. Ranks make the same calls, in the
/// same order, for the same buckets (they run the same steps); a bucket
/// larger than before makes a new window, collectively, which moves every
/// bucket's buffers: earlier answers are then stale, so a call of a step
/// asks for all its buckets at once. No buckets: no MPI call.
/// MS_COMM_SHARED_BUCKETS=0 turns the window off.
llvm::Expected<std::vector<BucketBuffers>>
bucketBuffers(llvm::ArrayRef<BucketRequest> requests);
/// bucketBuffers for one bucket; asking for several one at a time can make
/// the earlier answers stale (see above).
llvm::Expected<BucketBuffers> bucketBuffers(int64_t id, int64_t count,
                                            DType dtype);
/// Called by the step once `own` holds this rank's gradients of bucket
/// `id`: in the window, waits until every rank has written its bucket (and
/// checks that they agree on its size), after copying `own` there if it is
/// not the window's buffer; otherwise all-reduces `own` in place (a sum).
llvm::Error shareBucket(void *own, int64_t count, DType dtype, int64_t id);
/// How a compiled step splits the updates it computes from a shared
/// bucket (`ms-shard-bucket-updates`): into `count` parts, of which this
/// rank computes part `index`. Two parts with the window (index: the
/// rank's place on the host), else one.
struct BucketShard {
  int64_t index = 0;
  int64_t count = 1;
};
BucketShard bucketShard();
/// Called by the step once it has written its part of the updates from
/// bucket `id` into its own buffer: in the window, waits until the other
/// rank has written its part, which this rank then copies; otherwise
/// nothing to do.
llvm::Error shareShards(int64_t id);

/// What one rank asks of a collective, compared across the ranks before
/// any data moves (checkRanksAgree).
struct CollectiveCall {
  llvm::StringRef name;          ///< "all_reduce", "broadcast", ...
  DType dtype = DType::F32;
  llvm::ArrayRef<int64_t> shape;
  int64_t argument = 0;          ///< the ReduceOp's code, the root, or 0
};

/// Whether every rank asks for the same collective, dtype, shape and
/// argument: on every rank, an error naming the first rank whose call
/// differs from rank 0's (one all-gather of a fixed-size description).
/// PyNative's collectives call it; compiled steps do not.
llvm::Error checkRanksAgree(const CollectiveCall &call);

/// `recv` (groupSize() * count elements) gets every rank's `count`
/// elements at `send`, in rank order.
llvm::Error allGather(const void *send, void *recv, int64_t count,
                      DType dtype);
/// Every rank's `count` elements at `data` become rank `root`'s.
llvm::Error broadcast(void *data, int64_t count, DType dtype, int root);
llvm::Error barrier();

/// The watchdog's bound on one collective, in seconds (MS_COMM_TIMEOUT).
double timeoutSeconds();

/// Collectives run by this process since the last reset: their count,
/// bytes reduced or sent, and wall time spent inside MPI or waiting for
/// the other rank's hand-back of shared buckets (bucketBuffers); and the
/// steps that shared their buckets through the window.
struct Stats {
  int64_t calls = 0;
  int64_t bytes = 0;
  double seconds = 0;
  int64_t sharedSteps = 0;
};
Stats stats();
void resetStats();

} // namespace comm
} // namespace runtime
} // namespace ms

// Entry points for compiled code (the lowering of `ms.all_reduce`): an
// in-place all-reduce of a contiguous buffer of `count` elements with a
// ReduceOp code, whole or started and waited for (the lowering starts it
// where the op is and waits just before its result is first read). They
// initialize MPI on first use; a failure prints the reason and aborts the
// MPI job (compiled code has no way to raise).
extern "C" {
void ms_comm_all_reduce_f32(float *data, int64_t count, int32_t op);
void ms_comm_all_reduce_f64(double *data, int64_t count, int32_t op);
void ms_comm_all_reduce_start_f32(float *data, int64_t count, int32_t op);
void ms_comm_all_reduce_start_f64(double *data, int64_t count, int32_t op);
void ms_comm_all_reduce_wait(void *data);
// shareBucket for a compiled step's gradient bucket.
void ms_comm_share_bucket_f32(float *own, int64_t count, int64_t id);
void ms_comm_share_bucket_f64(double *own, int64_t count, int64_t id);
// bucketShard and shareShards for a compiled step.
int64_t ms_comm_shard_index(void);
int64_t ms_comm_shard_count(void);
void ms_comm_share_shards(int64_t id);
}

#endif // MS_RUNTIME_COMMUNICATION_COMMUNICATION_H
