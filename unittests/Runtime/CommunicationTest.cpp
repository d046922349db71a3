//===- CommunicationTest.cpp - The MPI layer in a world of one rank -------===//
//
// Run outside mpirun, MPI starts a world of one rank, so the collectives are
// identities with every check of a real run (tests/multirank runs 2 and 4
// ranks). gtest_discover_tests runs each test in its own process, and MPI
// can be initialized once per process: each test walks its own lifecycle.
//
//===----------------------------------------------------------------------===//

#include "ms/Runtime/Communication/Communication.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <utility>
#include <vector>

using namespace ms::runtime;
using namespace ms::runtime::comm;

namespace {

std::string errorText(llvm::Error error) {
  return llvm::toString(std::move(error));
}

TEST(Communication, ReduceOpNames) {
  EXPECT_EQ(parseReduceOp("sum"), ReduceOp::Sum);
  EXPECT_EQ(parseReduceOp("MAX"), ReduceOp::Max);
  EXPECT_EQ(parseReduceOp("min"), ReduceOp::Min);
  EXPECT_EQ(parseReduceOp("prod"), ReduceOp::Prod);
  EXPECT_EQ(parseReduceOp("mean"), std::nullopt);
  EXPECT_EQ(reduceOpName(ReduceOp::Max), "max");
}

TEST(Communication, TimeoutFromTheEnvironment) {
  setenv("MS_COMM_TIMEOUT", "12.5", 1);
  EXPECT_EQ(timeoutSeconds(), 12.5);
  // Not a positive number: the default.
  setenv("MS_COMM_TIMEOUT", "soon", 1);
  EXPECT_EQ(timeoutSeconds(), 300);
  setenv("MS_COMM_TIMEOUT", "-1", 1);
  EXPECT_EQ(timeoutSeconds(), 300);
  unsetenv("MS_COMM_TIMEOUT");
  EXPECT_EQ(timeoutSeconds(), 300);
}

// Float addition is not associative: these rows sum to 0 as the tree
// ((r0 + r1) + (r2 + r3)), to 1 left to right and to 2 as
// ((r0 + r2) + (r1 + r3)), so only the documented tree passes.
TEST(Communication, DeterministicReductionIsThePairwiseTree) {
  std::vector<float> rows = {1e8f, 1, -1e8f, 1};
  reduceRowsAsTree(rows.data(), 1, 4, DType::F32, ReduceOp::Sum);
  EXPECT_EQ(rows[0], 0.0f);

  // Three rows: (r0 + r1) + r2; five: ((r0 + r1) + (r2 + r3)) + r4.
  std::vector<double> three = {1, 1e17, -1e17};
  reduceRowsAsTree(three.data(), 1, 3, DType::F64, ReduceOp::Sum);
  EXPECT_EQ(three[0], 0.0);
  std::vector<float> five = {1e8f, 1, -1e8f, 1, 3};
  reduceRowsAsTree(five.data(), 1, 5, DType::F32, ReduceOp::Sum);
  EXPECT_EQ(five[0], 3.0f);

  // Products: inf * 0 as the tree, inf left to right, 1 as (0,2), (1,3).
  std::vector<float> extremes = {1e30f, 1e30f, 1e-30f, 1e-30f};
  reduceRowsAsTree(extremes.data(), 1, 4, DType::F32, ReduceOp::Prod);
  EXPECT_TRUE(std::isnan(extremes[0]));

  // Two elements per row, and products.
  std::vector<float> products = {2, 3, 4, 5, 0.5f, 0.25f};
  reduceRowsAsTree(products.data(), 2, 3, DType::F32, ReduceOp::Prod);
  EXPECT_EQ(products[0], 4.0f);
  EXPECT_EQ(products[1], 3.75f);
}

TEST(Communication, DeterministicIsAProcessSetting) {
  EXPECT_FALSE(isDeterministic());
  setDeterministic(true);
  EXPECT_TRUE(isDeterministic());
  setDeterministic(false);
  EXPECT_FALSE(isDeterministic());
}

#ifdef MS_TEST_HAVE_MPI

TEST(Communication, CallsBeforeInitSaySo) {
  EXPECT_FALSE(isInitialized());
  llvm::Expected<int> r = rank();
  ASSERT_FALSE(static_cast<bool>(r));
  EXPECT_NE(errorText(r.takeError()).find("not initialized"),
            std::string::npos);
  float x = 1;
  EXPECT_NE(errorText(allReduce(&x, 1, DType::F32, ReduceOp::Sum))
                .find("all_reduce: communication is not initialized"),
            std::string::npos);
}

// Before WorldOfOne, which releases MPI: a process can initialize MPI only
// once, and sanitizer builds run every case of this binary in one process
// (normal builds run each case in its own). WorldOfOne's init() then finds
// it initialized, which it accepts.
TEST(Communication, CompiledEntryPointInitializesOnFirstUse) {
  std::vector<float> x = {1, 2, 3};
  ms_comm_all_reduce_f32(x.data(), 3, /*max=*/1);
  EXPECT_TRUE(isInitialized());
  EXPECT_EQ(x, (std::vector<float>{1, 2, 3}));
  // Started and waited for, as an overlapped bucket is.
  std::vector<double> d = {4, 5};
  ms_comm_all_reduce_start_f64(d.data(), 2, /*sum=*/0);
  ms_comm_all_reduce_wait(d.data());
  EXPECT_EQ(d, (std::vector<double>{4, 5}));
}

// OpenMPI reads its settings once, in MPI_Init; a sanitizer build, which
// runs every case in one process, has already initialized MPI here.
#define SKIP_IF_MPI_ALREADY_STARTED()                                          \
  if (isInitialized())                                                         \
  GTEST_SKIP() << "MPI already started in this process (sanitizer builds "     \
                  "run every case in one process)"

TEST(Communication, InitGivesMPIItsDefaults) {
  SKIP_IF_MPI_ALREADY_STARTED();
  const std::pair<const char *, const char *> expected[] = {
      {"OMPI_MCA_btl_vader_single_copy_mechanism", "none"},
      {"OMPI_MCA_btl_vader_max_send_size", "131072"},
      {"OMPI_MCA_coll_libnbc_iallreduce_algorithm", "1"}};
  ASSERT_EQ(mpiDefaults().size(), std::size(expected));
  for (auto [name, value] : expected)
    unsetenv(name);
  ASSERT_FALSE(static_cast<bool>(init()));
  for (auto [name, value] : expected) {
    ASSERT_NE(std::getenv(name), nullptr) << name;
    EXPECT_STREQ(std::getenv(name), value) << name;
  }
  ASSERT_FALSE(static_cast<bool>(release()));
}

TEST(Communication, InitKeepsTheUsersMPISettings) {
  SKIP_IF_MPI_ALREADY_STARTED();
  const char *name = "OMPI_MCA_btl_vader_single_copy_mechanism";
  setenv(name, "cma", 1);
  ASSERT_FALSE(static_cast<bool>(init()));
  EXPECT_STREQ(std::getenv(name), "cma");
  ASSERT_FALSE(static_cast<bool>(release()));
  unsetenv(name);
}

// One rank (or more than two, or two on different hosts): a bucket is a
// buffer of the runtime's that shareBucket all-reduces in place, and the
// other rank's is -0.0, which leaves every value's bits as they are.
TEST(Communication, BucketsWithoutAWindow) {
  // Sanitizer builds run every case in one process: this one comes before
  // WorldOfOne, which releases MPI, and leaves MPI running.
  ASSERT_FALSE(static_cast<bool>(init()));
  llvm::Expected<BucketBuffers> first = bucketBuffers(0, 5, DType::F32);
  ASSERT_TRUE(static_cast<bool>(first)) << errorText(first.takeError());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(first->own) % 64, 0u);
  auto *own = static_cast<float *>(first->own);
  auto *peer = static_cast<const float *>(first->peer);
  std::vector<float> values = {1.5f, -0.0f, 0.0f, INFINITY, NAN};
  for (int i = 0; i < 5; ++i) {
    own[i] = values[i];
    EXPECT_EQ(peer[i], 0.0f);
    EXPECT_TRUE(std::signbit(peer[i]));
  }
  ASSERT_FALSE(static_cast<bool>(shareBucket(own, 5, DType::F32, 0)));
  for (int i = 0; i < 5; ++i) {
    float sum = own[i] + peer[i];
    EXPECT_EQ(std::memcmp(&sum, &values[i], sizeof(float)), 0) << i;
  }

  // The same bucket again: the same buffer; another bucket, another one;
  // float64 and larger buckets get -0.0 too.
  llvm::Expected<BucketBuffers> again = bucketBuffers(0, 5, DType::F32);
  llvm::Expected<BucketBuffers> other = bucketBuffers(1, 3, DType::F64);
  ASSERT_TRUE(again && other);
  EXPECT_EQ(again->own, first->own);
  EXPECT_NE(other->own, first->own);
  auto *peer64 = static_cast<const double *>(other->peer);
  for (int i = 0; i < 3; ++i)
    EXPECT_TRUE(peer64[i] == 0.0 && std::signbit(peer64[i]));
  llvm::Expected<BucketBuffers> larger = bucketBuffers(0, 1000, DType::F32);
  ASSERT_TRUE(static_cast<bool>(larger));
  EXPECT_TRUE(std::signbit(static_cast<const float *>(larger->peer)[999]));

  // A step's buckets all at once: the same buffers, in the order asked.
  llvm::Expected<std::vector<BucketBuffers>> both = bucketBuffers(
      {BucketRequest{1, 3, DType::F64}, BucketRequest{0, 1000, DType::F32}});
  ASSERT_TRUE(static_cast<bool>(both)) << errorText(both.takeError());
  ASSERT_EQ(both->size(), 2u);
  EXPECT_EQ((*both)[0].own, other->own);
  EXPECT_EQ((*both)[1].own, larger->own);
  // A bucket larger than any before grows the one -0.0 buffer: every
  // answer of the call points at the grown one.
  llvm::Expected<std::vector<BucketBuffers>> grown = bucketBuffers(
      {BucketRequest{2, 10, DType::F32}, BucketRequest{3, 5000, DType::F32}});
  ASSERT_TRUE(static_cast<bool>(grown)) << errorText(grown.takeError());
  EXPECT_EQ((*grown)[0].peer, (*grown)[1].peer);
  EXPECT_TRUE(std::signbit(static_cast<const float *>((*grown)[0].peer)[9]));
  llvm::Expected<std::vector<BucketBuffers>> none = bucketBuffers({});
  ASSERT_TRUE(none && none->empty());
  EXPECT_NE(errorText(bucketBuffers({BucketRequest{0, 5, DType::F32},
                                     BucketRequest{1, -2, DType::F32}})
                          .takeError())
                .find("gradient bucket 1: -2 elements"),
            std::string::npos);

  EXPECT_NE(errorText(bucketBuffers(2, 4, DType::I32).takeError())
                .find("float32 or float64 only"),
            std::string::npos);
  EXPECT_NE(errorText(bucketBuffers(-1, 4, DType::F32).takeError())
                .find("gradient bucket -1"),
            std::string::npos);

  // The updates from a bucket are not split: one part, this rank's, and
  // nothing to wait for. Compiled code asks the same.
  BucketShard shard = bucketShard();
  EXPECT_EQ(shard.index, 0);
  EXPECT_EQ(shard.count, 1);
  EXPECT_EQ(ms_comm_shard_index(), 0);
  EXPECT_EQ(ms_comm_shard_count(), 1);
  EXPECT_FALSE(static_cast<bool>(shareShards(0)));
}

TEST(Communication, WorldOfOne) {
  ASSERT_FALSE(static_cast<bool>(init()));
  ASSERT_FALSE(static_cast<bool>(init())); // a second init does nothing
  EXPECT_EQ(*rank(), 0);
  EXPECT_EQ(*groupSize(), 1);
  EXPECT_EQ(*localRank(), 0);
  resetStats();

  std::vector<float> x = {1.5f, -2.0f, 3.25f};
  for (ReduceOp op :
       {ReduceOp::Sum, ReduceOp::Max, ReduceOp::Min, ReduceOp::Prod}) {
    ASSERT_FALSE(static_cast<bool>(allReduce(x.data(), 3, DType::F32, op)));
    EXPECT_EQ(x, (std::vector<float>{1.5f, -2.0f, 3.25f}));
  }
  std::vector<double> d = {0.25, 4.0};
  ASSERT_FALSE(
      static_cast<bool>(allReduce(d.data(), 2, DType::F64, ReduceOp::Sum)));
  EXPECT_EQ(d, (std::vector<double>{0.25, 4.0}));

  std::vector<int64_t> send = {7, 8}, recv(2);
  ASSERT_FALSE(
      static_cast<bool>(allGather(send.data(), recv.data(), 2, DType::I64)));
  EXPECT_EQ(recv, send);
  ASSERT_FALSE(static_cast<bool>(broadcast(x.data(), 3, DType::F32, 0)));
  ASSERT_FALSE(static_cast<bool>(barrier()));

  Stats s = stats();
  EXPECT_EQ(s.calls, 8);
  EXPECT_EQ(s.bytes, 4 * 12 + 16 + 16 + 12);

  // Two all-reduces in flight at once, waited for in another order; each
  // counts once, at its start.
  ASSERT_FALSE(static_cast<bool>(
      startAllReduce(x.data(), 3, DType::F32, ReduceOp::Sum)));
  ASSERT_FALSE(static_cast<bool>(
      startAllReduce(d.data(), 2, DType::F64, ReduceOp::Max)));
  EXPECT_NE(errorText(startAllReduce(x.data(), 3, DType::F32, ReduceOp::Sum))
                .find("started and not waited for"),
            std::string::npos);
  ASSERT_FALSE(static_cast<bool>(finishAllReduce(d.data())));
  ASSERT_FALSE(static_cast<bool>(finishAllReduce(x.data())));
  EXPECT_EQ(x, (std::vector<float>{1.5f, -2.0f, 3.25f}));
  EXPECT_EQ(d, (std::vector<double>{0.25, 4.0}));
  EXPECT_NE(errorText(finishAllReduce(x.data()))
                .find("was not started on this buffer"),
            std::string::npos);
  EXPECT_EQ(stats().calls, 10);
  EXPECT_EQ(stats().bytes, s.bytes + 12 + 16);

  // Only ranks of the group can be roots; bf16 has no MPI type.
  EXPECT_NE(errorText(broadcast(x.data(), 3, DType::F32, 1))
                .find("root_rank 1 is not a rank of the group (size 1)"),
            std::string::npos);
  uint16_t half = 0;
  EXPECT_NE(errorText(allReduce(&half, 1, DType::BF16, ReduceOp::Sum))
                .find("dtype bf16 is not supported"),
            std::string::npos);

  ASSERT_FALSE(static_cast<bool>(release()));
  EXPECT_FALSE(isInitialized());
  EXPECT_NE(errorText(init()).find("MPI cannot be initialized twice"),
            std::string::npos);
  EXPECT_NE(errorText(allReduce(x.data(), 3, DType::F32, ReduceOp::Sum))
                .find("communication was released"),
            std::string::npos);
}

#else

TEST(Communication, WithoutMPIEveryCallSaysSo) {
  EXPECT_FALSE(builtWithMPI());
  EXPECT_NE(errorText(init()).find("msmlir was built without MPI"),
            std::string::npos);
  EXPECT_NE(errorText(shareShards(0)).find("msmlir was built without MPI"),
            std::string::npos);
  EXPECT_EQ(bucketShard().count, 1);
}

#endif

} // namespace
