//===- MpiTransportBench.cpp - What moving a gradient bucket costs --------===//
//
// The floor under a data-parallel step's all-reduce on this machine: how
// fast one core reads bytes another core just wrote, against how fast it
// copies its own, and what MPI_Allreduce takes for the same bytes.
//
//   mpirun -n 2 build/bin/ms-bench-mpi-transport [BYTES] [REPS]
//
// BYTES defaults to the seed MLP's gradients (669706 float32, 2.68 MB).
// MPI starts through ms's own comm::init(), so OpenMPI runs with the
// settings a training run gets (comm::mpiDefaults(), printed first; set
// the variables to compare others). Every figure is the median over REPS
// (default 201) rounds of the slowest rank's time; rank 0 prints them.
//   - local copy, and a read of a rank's own bytes: the baselines;
//   - cross-core read: each rank sums BYTES the other rank has just written
//     into an MPI-3 shared window (MPI_Win_allocate_shared), so every cache
//     line crosses between the cores;
//   - copy into bytes the other core has just read: what any shared-memory
//     transport pays when it reuses a buffer, since each line must first be
//     taken back from the other core's cache;
//   - MPI_Allreduce: in place, MPI_SUM over BYTES / 4 floats;
//   - reads right after an MPI_Allreduce, of the reduced bytes and of other
//     bytes of the rank's own: what the all-reduce leaves behind;
//   - the SGD update alone, and a step's tail, the all-reduce and the SGD
//     update after backward:
//     MPI_Iallreduce then the update, as ms runs it, against backward
//     writing its gradients straight into the shared window and the update
//     summing both ranks' as it reads them (no copy through MPI's buffers,
//     no pass over the sum of its own);
//   - that tail with backward's writes into the window timed too, against
//     a design ms does not have: one shared copy of the weights, each rank
//     updating its half (docs/distributed.md, "What either way costs"),
//     and the next forward's read of those weights.
// Rates are bytes read per second, and bytes read plus written for copies.
// Two ranks that all-reduce BYTES must each bring in at least BYTES from the
// other core (half the peer's input to reduce, half the peer's result), so
// the cross-core read is a lower bound for any algorithm.
//
//===----------------------------------------------------------------------===//

#include "ms/Runtime/Communication/Communication.h"

// The C API only: OpenMPI would otherwise pull in its C++ bindings.
#define OMPI_SKIP_MPICXX 1
#include <mpi.h>

#include "llvm/Support/Error.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

namespace comm = ms::runtime::comm;

namespace {

double seconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Median over `reps` rounds of the seconds `round` reports (it times
/// its own part), the slowest rank's each round. Rounds start together.
double medianSeconds(int reps, const std::function<double()> &round) {
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    double local = round(), slowest = 0;
    MPI_Allreduce(&local, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    times.push_back(slowest);
  }
  std::nth_element(times.begin(), times.begin() + reps / 2, times.end());
  return times[reps / 2];
}

/// The seconds `body` takes.
double timed(const std::function<void()> &body) {
  double start = seconds();
  body();
  return seconds() - start;
}

/// Sums `n` floats, so the reads cannot be optimized away.
float sumOf(const float *data, long n) {
  float sums[16] = {};
  long i = 0;
  for (; i + 16 <= n; i += 16)
    for (int j = 0; j < 16; ++j)
      sums[j] += data[i + j];
  float total = 0;
  for (; i < n; ++i)
    total += data[i];
  for (float s : sums)
    total += s;
  return total;
}

/// Makes each rank's writes to the shared window visible to the other,
/// with every rank past the point.
void syncWindow(MPI_Win win, MPI_Comm node) {
  MPI_Win_sync(win);
  MPI_Barrier(node);
  MPI_Win_sync(win);
}

/// Refills `data` with the rank's own bytes, as a train step fills its
/// bucket, then sums it across the ranks in place. Returns the seconds of
/// the all-reduce alone, started together on every rank.
double refillAndAllReduce(float *data, const std::vector<float> &own) {
  std::memcpy(data, own.data(), own.size() * sizeof(float));
  MPI_Barrier(MPI_COMM_WORLD);
  return timed([&] {
    MPI_Allreduce(MPI_IN_PLACE, data, static_cast<int>(own.size()),
                  MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  });
}

/// `pointer` rounded up to 64 bytes: OpenMPI aligns window segments to
/// less, and the runtime's buckets start on a cache line.
float *alignedTo64(float *pointer) {
  auto address = reinterpret_cast<uintptr_t>(pointer);
  return pointer + (64 - address % 64) % 64 / sizeof(float);
}

/// Two buffers of `n` floats for each of the two ranks in an MPI-3 shared
/// window, each rank's own writable and the other's readable.
struct SharedSegments {
  MPI_Win win;
  MPI_Comm node;
  float *own[2];
  const float *peer[2];
};

constexpr float kLearningRate = 1e-6f;

/// Backward's writes: the rank's gradients (`own`'s bytes) into `grads`;
/// then the ranks start the tail together.
void writeGradients(float *grads, const std::vector<float> &own) {
  std::memcpy(grads, own.data(), own.size() * sizeof(float));
  MPI_Barrier(MPI_COMM_WORLD);
}

/// The SGD update of `weights` by gradients summed over two ranks.
void updateWeights(float *weights, const float *grads, long n) {
  for (long i = 0; i < n; ++i)
    weights[i] -= kLearningRate * (grads[i] * 0.5f);
}

/// A data-parallel step's tail as ms runs it without shared buckets:
/// backward has written its gradients (`own`'s bytes) into a buffer of the
/// rank's own; an MPI_Iallreduce sums them in place, then the SGD update
/// reads the sum. Returns the seconds of the all-reduce and the update.
double mpiStepTail(float *grads, float *weights,
                   const std::vector<float> &own) {
  long n = static_cast<long>(own.size());
  writeGradients(grads, own);
  return timed([&] {
    MPI_Request request;
    MPI_Iallreduce(MPI_IN_PLACE, grads, static_cast<int>(n), MPI_FLOAT,
                   MPI_SUM, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    updateWeights(weights, grads, n);
  });
}

/// The SGD update alone, on the rank's own gradients: what the tails
/// below cost beyond communication.
double localUpdate(float *grads, float *weights,
                   const std::vector<float> &own) {
  writeGradients(grads, own);
  return timed([&] {
    updateWeights(weights, grads, static_cast<long>(own.size()));
  });
}

/// The same tail through the shared window, as ms runs it with two ranks
/// on one host (docs/distributed.md, "Shared gradient buckets"): backward
/// writes its gradients straight into the rank's segment, and the update
/// adds the two ranks' gradients (rank 0's first) as it reads them. Steps
/// alternate between two buffers, so a rank never rewrites lines the other
/// core has just read (the costly copy above); the one synchronization then
/// also tells each rank that the other has finished reading the buffer it
/// will write next.
double windowStepTail(const SharedSegments &shared, int step, int rank,
                      float *weights, const std::vector<float> &own) {
  long n = static_cast<long>(own.size());
  float *mine = shared.own[step % 2];
  const float *theirs = shared.peer[step % 2];
  writeGradients(mine, own);
  const float *first = rank == 0 ? mine : theirs;
  const float *second = rank == 0 ? theirs : mine;
  return timed([&] {
    syncWindow(shared.win, shared.node);
    for (long i = 0; i < n; ++i)
      weights[i] -= kLearningRate * ((first[i] + second[i]) * 0.5f);
  });
}

/// windowStepTail with backward's writes into the window timed too: what
/// splitUpdateStepTail below compares with.
double writtenWindowStepTail(const SharedSegments &shared, int step,
                             int rank, float *weights,
                             const std::vector<float> &own) {
  long n = static_cast<long>(own.size());
  float *mine = shared.own[step % 2];
  const float *theirs = shared.peer[step % 2];
  const float *first = rank == 0 ? mine : theirs;
  const float *second = rank == 0 ? theirs : mine;
  MPI_Barrier(MPI_COMM_WORLD);
  return timed([&] {
    std::memcpy(mine, own.data(), n * sizeof(float));
    syncWindow(shared.win, shared.node);
    for (long i = 0; i < n; ++i)
      weights[i] -= kLearningRate * ((first[i] + second[i]) * 0.5f);
  });
}

/// A step's tail in a design ms does not have (docs/distributed.md, "What
/// either way costs"): one copy of the weights in the shared window (rank
/// 0's first buffer), each rank updating its half. Backward writes the
/// other rank's half of its gradients into the rank's second buffer (the
/// half the other rank updates); after the synchronization each rank
/// updates its half, adding its own gradients (here read from `own`; in
/// tiles they would be in registers) and the other rank's, rank 0's
/// first; a second synchronization ends the step, since the next forward
/// reads both halves.
double splitUpdateStepTail(const SharedSegments &shared, int rank,
                           const std::vector<float> &own) {
  long n = static_cast<long>(own.size()), half = n / 2;
  float *weights =
      rank == 0 ? shared.own[0] : const_cast<float *>(shared.peer[0]);
  long mineFrom = rank == 0 ? 0 : half, mineTo = rank == 0 ? half : n;
  long theirsFrom = rank == 0 ? half : 0;
  float *partial = shared.own[1];
  const float *theirs = shared.peer[1];
  MPI_Barrier(MPI_COMM_WORLD);
  return timed([&] {
    std::memcpy(partial, own.data() + theirsFrom,
                (n - half) * sizeof(float));
    syncWindow(shared.win, shared.node);
    for (long i = mineFrom; i < mineTo; ++i) {
      float a = own[i], b = theirs[i - mineFrom];
      float sum = rank == 0 ? a + b : b + a;
      weights[i] -= kLearningRate * (sum * 0.5f);
    }
    syncWindow(shared.win, shared.node);
  });
}

/// The next forward's read of the weights the split update left, half of
/// them written by the other core.
double splitWeightsRead(const SharedSegments &shared, int rank,
                        const std::vector<float> &own) {
  long n = static_cast<long>(own.size());
  const float *weights = rank == 0 ? shared.own[0] : shared.peer[0];
  splitUpdateStepTail(shared, rank, own);
  volatile float sink = 0;
  return timed([&] { sink = sink + sumOf(weights, n); });
}

/// The update of the tail above on the other rank's gradients alone (both
/// ranks at once): what reading them across cores costs, over the update
/// of the rank's own.
double peerOnlyUpdate(const SharedSegments &shared, int step, float *weights,
                      const std::vector<float> &own) {
  long n = static_cast<long>(own.size());
  writeGradients(shared.own[step % 2], own);
  syncWindow(shared.win, shared.node);
  const float *theirs = shared.peer[step % 2];
  return timed([&] { updateWeights(weights, theirs, n); });
}

/// The tail again with backward's buffer kept private: the gradients are
/// copied into the rank's window segment (of two, as above), and the sum,
/// in rank order, overwrites the private buffer before the update reads it.
double copiedWindowStepTail(const SharedSegments &shared, int step, int rank,
                            float *grads, float *weights,
                            const std::vector<float> &own) {
  long n = static_cast<long>(own.size());
  float *mine = shared.own[step % 2];
  const float *theirs = shared.peer[step % 2];
  writeGradients(grads, own);
  return timed([&] {
    std::memcpy(mine, grads, n * sizeof(float));
    syncWindow(shared.win, shared.node);
    for (long i = 0; i < n; ++i)
      grads[i] = rank == 0 ? grads[i] + theirs[i] : theirs[i] + grads[i];
    updateWeights(weights, grads, n);
  });
}

/// A table row; `bytes` 0 for a row that moves no data (no rate).
void printRow(const char *what, double secondsTaken, double bytes) {
  if (bytes == 0) {
    std::printf("| %s | %.1f us | - |\n", what, secondsTaken * 1e6);
    return;
  }
  std::printf("| %s | %.1f us | %.1f GB/s |\n", what, secondsTaken * 1e6,
              bytes / secondsTaken / 1e9);
}

void printSettings() {
  std::printf("OpenMPI settings:");
  for (const ms::runtime::EnvironmentDefault &setting : comm::mpiDefaults()) {
    const char *value = std::getenv(setting.name);
    std::printf(" %s=%s", setting.name, value ? value : "(unset)");
  }
  std::printf("\n");
}

/// Ends MPI with `message` from rank 0 (a usage error).
int usage(int rank, const char *message) {
  if (rank == 0)
    std::fprintf(stderr, "ms-bench-mpi-transport: %s\n", message);
  llvm::consumeError(comm::release());
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  if (llvm::Error error = comm::init()) {
    std::fprintf(stderr, "ms-bench-mpi-transport: %s\n",
                 llvm::toString(std::move(error)).c_str());
    return 1;
  }
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long bytes = argc > 1 ? std::atol(argv[1]) : 669706L * 4;
  int reps = argc > 2 ? std::atoi(argv[2]) : 201;
  if (size != 2)
    return usage(rank, "run it as mpirun -n 2 ms-bench-mpi-transport "
                       "[BYTES] [REPS]");
  if (bytes < 64 || bytes % 4 != 0 || bytes / 4 > INT_MAX || reps < 1)
    return usage(rank, "BYTES must be a multiple of 4 from 64 to 8 GiB, and "
                       "REPS at least 1");
  long n = bytes / 4;
  std::vector<float> mine(n, 1.0f + rank), copy(n);

  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank,
                      MPI_INFO_NULL, &node);
  int nodeSize = 0;
  MPI_Comm_size(node, &nodeSize);
  if (nodeSize != 2)
    return usage(rank, "the 2 ranks must share a host");
  float *window = nullptr;
  MPI_Win win;
  // 64 bytes more, for segments aligned as the runtime aligns them.
  MPI_Win_allocate_shared(2 * n * 4 + 64, sizeof(float), MPI_INFO_NULL,
                          node, &window, &win);
  MPI_Aint peerBytes = 0;
  int unit = 0;
  float *peer = nullptr;
  MPI_Win_shared_query(win, 1 - rank, &peerBytes, &unit, &peer);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  window = alignedTo64(window);
  peer = alignedTo64(peer);
  SharedSegments shared{win, node, {window, window + n}, {peer, peer + n}};

  volatile float sink = 0;
  double local = medianSeconds(reps, [&] {
    return timed([&] { std::memcpy(copy.data(), mine.data(), n * 4); });
  });
  double ownRead = medianSeconds(reps, [&] {
    return timed([&] { sink = sink + sumOf(mine.data(), n); });
  });
  double read = medianSeconds(reps, [&] {
    // Each rank writes its segment, then reads the other's: every line it
    // reads was last written by the other core.
    std::memcpy(window, mine.data(), n * 4);
    syncWindow(win, node);
    double took = timed([&] { sink = sink + sumOf(peer, n); });
    MPI_Barrier(node); // nobody rewrites a segment still being read
    return took;
  });
  double overwrite = medianSeconds(reps, [&] {
    // Each rank rewrites its segment right after the other read it.
    syncWindow(win, node);
    sink = sink + sumOf(peer, n);
    MPI_Barrier(node);
    return timed([&] { std::memcpy(window, mine.data(), n * 4); });
  });
  double allReduce = medianSeconds(
      reps, [&] { return refillAndAllReduce(copy.data(), mine); });
  double ownReadAfter = medianSeconds(reps, [&] {
    refillAndAllReduce(copy.data(), mine);
    return timed([&] { sink = sink + sumOf(mine.data(), n); });
  });
  double resultRead = medianSeconds(reps, [&] {
    refillAndAllReduce(copy.data(), mine);
    return timed([&] { sink = sink + sumOf(copy.data(), n); });
  });
  std::vector<float> weights(n, 0.5f);
  double update = medianSeconds(
      reps, [&] { return localUpdate(copy.data(), weights.data(), mine); });
  double mpiTail = medianSeconds(
      reps, [&] { return mpiStepTail(copy.data(), weights.data(), mine); });
  int step = 0;
  double windowTail = medianSeconds(reps, [&] {
    return windowStepTail(shared, step++, rank, weights.data(), mine);
  });
  double writtenTail = medianSeconds(reps, [&] {
    return writtenWindowStepTail(shared, step++, rank, weights.data(), mine);
  });
  double splitTail = medianSeconds(
      reps, [&] { return splitUpdateStepTail(shared, rank, mine); });
  double splitRead = medianSeconds(
      reps, [&] { return splitWeightsRead(shared, rank, mine); });
  double sync = medianSeconds(reps, [&] {
    MPI_Barrier(MPI_COMM_WORLD);
    return timed([&] { syncWindow(shared.win, shared.node); });
  });
  double peerUpdate = medianSeconds(reps, [&] {
    return peerOnlyUpdate(shared, step++, weights.data(), mine);
  });
  double copiedTail = medianSeconds(reps, [&] {
    return copiedWindowStepTail(shared, step++, rank, copy.data(),
                                weights.data(), mine);
  });

  if (rank == 0) {
    printSettings();
    std::printf("%ld bytes, 2 ranks, median of %d rounds\n\n", n * 4, reps);
    std::printf("| what | time | rate |\n|---|---|---|\n");
    printRow("local copy (memcpy)", local, 2.0 * n * 4);
    printRow("read of its own bytes", ownRead, n * 4.0);
    printRow("read of its own bytes right after an MPI_Allreduce",
             ownReadAfter, n * 4.0);
    printRow("read of the all-reduced bytes right after", resultRead,
             n * 4.0);
    printRow("cross-core read (the other rank's bytes)", read, n * 4.0);
    printRow("copy into bytes the other core has just read", overwrite,
             2.0 * n * 4);
    printRow("MPI_Allreduce, in place", allReduce, n * 4.0);
    printRow("the SGD update alone, on the rank's own gradients", update,
             n * 4.0);
    printRow("a step's tail: MPI_Iallreduce, then the SGD update", mpiTail,
             n * 4.0);
    printRow("a step's tail: backward's gradients in the shared window "
             "(two buffers), summed inside the SGD update",
             windowTail, n * 4.0);
    printRow("the shared window's synchronization alone", sync, 0);
    printRow("a step's tail as ms runs it, backward's writes into the "
             "window included",
             writtenTail, n * 4.0);
    printRow("a step's tail, not built: shared weights, each rank updating "
             "its half (the other half's gradients through the window)",
             splitTail, n * 4.0);
    printRow("the next forward's read of those weights (half of them "
             "written by the other core)",
             splitRead, n * 4.0);
    printRow("the SGD update on the other rank's gradients alone (in the "
             "window, after the synchronization)",
             peerUpdate, n * 4.0);
    printRow("a step's tail: gradients copied into the shared window, "
             "summed into their buffer, then the SGD update",
             copiedTail, n * 4.0);
    std::printf("\nlower bound for any 2-rank all-reduce of these bytes "
                "(each core reads them once from the other): %.1f us; "
                "MPI_Allreduce takes %.2fx that\n",
                read * 1e6, allReduce / read);
  }
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);
  MPI_Comm_free(&node);
  llvm::consumeError(comm::release());
  return 0;
}
