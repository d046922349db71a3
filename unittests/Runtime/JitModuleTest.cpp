//===- JitModuleTest.cpp - Graph-mode JIT modules -------------------------===//

#include "ms/Runtime/Jit/JitModule.h"
#include "ms/Runtime/Jit/Signature.h"

#include "TestNets.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace ms;
using namespace ms::runtime;

namespace {

class JitModuleTest : public ::testing::Test {
protected:
  JitModuleTest() { prepareContext(context); }

  std::unique_ptr<JitModule> compile(llvm::StringRef source,
                                     llvm::StringRef entry = "construct") {
    auto module = mlir::parseSourceString<mlir::ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    auto jit = JitModule::compile(*module, entry, CompileOptions());
    if (!jit) {
      ADD_FAILURE() << llvm::toString(jit.takeError());
      return nullptr;
    }
    return std::move(*jit);
  }

  mlir::MLIRContext context;
};

TEST_F(JitModuleTest, SignatureComesFromTheTensorFunction) {
  auto jit = compile(kNet);
  ASSERT_TRUE(jit);
  const EntrySignature &sig = jit->signature();
  ASSERT_EQ(sig.args.size(), 2u);
  EXPECT_FALSE(sig.args[0].isParameter());
  EXPECT_EQ(sig.args[1].paramName, "fc.weight");
  EXPECT_EQ(sig.args[1].typeString(), "tensor<4x3xf32>");
  ASSERT_EQ(sig.results.size(), 1u);
  EXPECT_EQ(sig.results[0].typeString(), "tensor<2x4xf32>");
}

// The entry as ms-pack-parameters leaves it: caller arguments x and w, then
// a trailing [in, out] copy of w that callers do not pass.
const char *kPackedCopyNet = R"mlir(
func.func @construct(%x: tensor<2x3xf32>,
                     %w: tensor<4x3xf32> {ms.param = "fc.weight"},
                     %wt: tensor<3x4xf32> {ms.param = "fc.weight",
                                           ms.packed = "transpose",
                                           ms.packed_copy_of = COPY : i64})
    -> tensor<2x4xf32> {
  %0 = ms.dense %x, %w : tensor<2x3xf32>, tensor<4x3xf32>
  return %0 : tensor<2x4xf32>
}
)mlir";

/// readPackedLayouts on kPackedCopyNet with `copyOf` in ms.packed_copy_of
/// (and `layout` in place of "transpose"), for a caller that passes the
/// first two arguments.
llvm::Expected<EntrySignature>
readPackedCopy(mlir::MLIRContext &context, int copyOf,
               llvm::StringRef layout = "transpose") {
  std::string source = kPackedCopyNet;
  source.replace(source.find("COPY"), 4, std::to_string(copyOf));
  source.replace(source.find("transpose"), 9, layout.str());
  auto module = mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  EXPECT_TRUE(module);
  mlir::Operation *func = &module->getBody()->front();
  llvm::Expected<EntrySignature> sig = readSignature(func);
  if (!sig)
    return sig.takeError();
  sig->args.pop_back(); // the copy is not a caller's argument
  if (auto err = readPackedLayouts(func, *sig))
    return std::move(err);
  return sig;
}

TEST_F(JitModuleTest, TrailingPackedCopiesAreReadFromTheEntry) {
  llvm::Expected<EntrySignature> sig = readPackedCopy(context, 1);
  ASSERT_TRUE(bool(sig)) << llvm::toString(sig.takeError());
  ASSERT_EQ(sig->packedCopies.size(), 1u);
  EXPECT_EQ(sig->packedCopies[0].arg, 1u);
  EXPECT_EQ(sig->packedCopies[0].layout, PackedLayout::Transpose);
  EXPECT_EQ(sig->args[1].packed, PackedLayout::None);
}

// A data-parallel step's gradient bucket buffers: trailing arguments after
// the caller's, before the packed copies; the other rank's bucket keeps its
// element type, the bucket may be its bytes.
TEST_F(JitModuleTest, GradientBucketArgumentsAreReadFromTheEntry) {
  auto module = mlir::parseSourceString<mlir::ModuleOp>(R"mlir(
func.func @construct(%x: memref<4xf32>,
                     %peer: memref<4xf32> {ms.comm_peer = 0 : i64},
                     %bucket: memref<16xi8> {ms.comm_bucket = 0 : i64},
                     %out: memref<4xf32>) {
  return
}
)mlir", &context);
  ASSERT_TRUE(module);
  auto func = &module->getBody()->front();
  EntrySignature sig;
  sig.entry = "construct";
  sig.args.resize(1);
  ASSERT_FALSE(bool(readPackedLayouts(func, sig)));
  ASSERT_EQ(sig.commBuffers.size(), 2u);
  EXPECT_TRUE(sig.commBuffers[0].peer);
  EXPECT_EQ(sig.commBuffers[0].dtype, DType::F32);
  EXPECT_EQ(sig.commBuffers[0].count, 4);
  EXPECT_FALSE(sig.commBuffers[1].peer);
  EXPECT_EQ(sig.commBuffers[1].dtype, DType::I8);
  EXPECT_EQ(sig.commBuffers[1].count, 16);
  EXPECT_TRUE(sig.packedCopies.empty());
}

TEST_F(JitModuleTest, AnIntegerPeerBucketIsAnError) {
  auto module = mlir::parseSourceString<mlir::ModuleOp>(R"mlir(
func.func @construct(%x: memref<4xf32>,
                     %peer: memref<4xi32> {ms.comm_peer = 0 : i64}) {
  return
}
)mlir", &context);
  ASSERT_TRUE(module);
  EntrySignature sig;
  sig.entry = "construct";
  sig.args.resize(1);
  EXPECT_EQ(llvm::toString(readPackedLayouts(&module->getBody()->front(), sig)),
            "@construct argument 1 is not a 1-D gradient bucket");
}

TEST_F(JitModuleTest, PackedCopyOfAnArgumentCallersDoNotPassIsAnError) {
  llvm::Expected<EntrySignature> sig = readPackedCopy(context, 2);
  ASSERT_FALSE(bool(sig));
  EXPECT_EQ(llvm::toString(sig.takeError()),
            "@construct argument 2 is not a packed copy of an argument "
            "callers pass");
}

TEST_F(JitModuleTest, PackedCopyOfAnotherTypeIsAnError) {
  // The copy is [3, 4], the transpose of w; panels of 64 cannot hold w.
  llvm::Expected<EntrySignature> sig =
      readPackedCopy(context, 1, "panels64");
  ASSERT_FALSE(bool(sig));
  EXPECT_EQ(llvm::toString(sig.takeError()),
            "@construct argument 2 reads tensor<4x3xf32> packed as panels64, "
            "which that layout cannot hold, but has type tensor<3x4xf32>");
}

TEST_F(JitModuleTest, RunsAndOwnsItsResults) {
  auto jit = compile(kNet);
  ASSERT_TRUE(jit);
  HostTensor x(DType::F32, {2, 3}), w(DType::F32, {4, 3});
  for (int i = 0; i < 6; ++i)
    x.dataAs<float>()[i] = static_cast<float>(i);
  for (int i = 0; i < 12; ++i)
    w.dataAs<float>()[i] = (i % 3 == 0) ? 1.0f : -1.0f;
  auto out = jit->run({x, w});
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  // Row 1 of x is [3, 4, 5]; every weight row is [1, -1, -1]: 3 - 9 < 0.
  const float *y = out->front().dataAs<float>();
  EXPECT_EQ(y[0], 0.0f);      // relu(0 - 1 - 2)
  EXPECT_EQ(y[4 + 0], 0.0f);  // relu(3 - 4 - 5)
  // Two runs give two distinct result buffers.
  auto again = jit->run({x, w});
  ASSERT_TRUE(static_cast<bool>(again));
  EXPECT_NE(again->front().data(), out->front().data());
}

// A step that updates its parameter: w - g, w read before (y = w * g).
// Large enough that the update is a loop, not a few vector ops.
const char *kUpdateNet = R"mlir(
func.func @construct(%g: tensor<1024xf32>,
                     %w: tensor<1024xf32> {ms.param = "w"})
    -> (tensor<1024xf32>, tensor<1024xf32>) {
  %y = ms.mul %w, %g : tensor<1024xf32>, tensor<1024xf32>
  %next = ms.sub %w, %g : tensor<1024xf32>, tensor<1024xf32>
  return %y, %next : tensor<1024xf32>, tensor<1024xf32>
}
)mlir";

/// g = [1, 2, 3, ...] and w = [10, 20, 30, ...].
std::pair<HostTensor, HostTensor> updateInputs() {
  HostTensor g(DType::F32, {1024}), w(DType::F32, {1024});
  for (int i = 0; i < 1024; ++i) {
    g.dataAs<float>()[i] = float(i + 1);
    w.dataAs<float>()[i] = float(10 * (i + 1));
  }
  return {g, w};
}

TEST_F(JitModuleTest, AParameterUpdateIsWrittenInPlaceWhenDonated) {
  auto jit = compile(kUpdateNet);
  ASSERT_TRUE(jit);
  ASSERT_EQ(jit->signature().results.size(), 2u);
  EXPECT_EQ(jit->signature().results[0].inPlaceOf, -1);
  EXPECT_EQ(jit->signature().results[1].inPlaceOf, 1);
  auto [g, w] = updateInputs();
  std::vector<HostTensor> results = cantFail(jit->allocateResults());
  EXPECT_FALSE(results[1].isValid());
  llvm::SmallVector<HostTensor, 2> args{g, w};
  ASSERT_FALSE(bool(jit->bindInPlaceResults(
      args, results, [](size_t i) { return i == 1; })));
  ASSERT_FALSE(bool(jit->runUnchecked(args, results)));
  // The new weight is in w's own buffer; y read the old one.
  EXPECT_EQ(results[1].data(), w.data());
  EXPECT_EQ(w.dataAs<float>()[3], 36.0f);
  EXPECT_EQ(results[0].dataAs<float>()[3], 160.0f);
}

TEST_F(JitModuleTest, AParameterNotDonatedIsCopiedAndKeepsItsValues) {
  auto jit = compile(kUpdateNet);
  ASSERT_TRUE(jit);
  auto [g, w] = updateInputs();
  auto out = jit->run({g, w});
  ASSERT_TRUE(bool(out)) << llvm::toString(out.takeError());
  EXPECT_NE((*out)[1].data(), w.data());
  EXPECT_EQ((*out)[1].dataAs<float>()[3], 36.0f);
  EXPECT_EQ(w.dataAs<float>()[3], 40.0f);
}

TEST_F(JitModuleTest, InPlaceTagOnACallersArgumentIsAnError) {
  auto module = mlir::parseSourceString<mlir::ModuleOp>(R"mlir(
func.func @construct(%g: tensor<1024xf32> {ms.in_place_of = 1 : i64},
                     %w: tensor<1024xf32> {ms.param = "w"})
    -> tensor<1024xf32> {
  %next = ms.sub %w, %g : tensor<1024xf32>, tensor<1024xf32>
  return %next : tensor<1024xf32>
}
)mlir", &context);
  ASSERT_TRUE(module);
  auto jit = JitModule::compile(*module, "construct", CompileOptions());
  ASSERT_FALSE(bool(jit));
  EXPECT_EQ(llvm::toString(jit.takeError()),
            "@construct argument 0 has ms.in_place_of but is not a result's "
            "out-param");
}

/// Whether `error` is one (consumed either way).
bool fails(llvm::Error error) {
  bool failed = bool(error);
  llvm::consumeError(std::move(error));
  return failed;
}

TEST_F(JitModuleTest, AnInPlaceResultOfAnotherTypeIsAnError) {
  EntrySignature sig;
  sig.entry = "construct";
  sig.args.push_back({DType::F32, {4}, "w"});
  sig.results.push_back({DType::F32, {8}});
  sig.results[0].inPlaceOf = 0;
  EXPECT_EQ(llvm::toString(sig.checkInPlaceResults()),
            "@construct result 0 cannot be argument 0 updated in place "
            "(ms.in_place_of): not an unpacked parameter of its type, or "
            "taken twice");
  sig.results[0].shape = {4};
  EXPECT_FALSE(bool(sig.checkInPlaceResults()));
  sig.args[0].packed = PackedLayout::Transpose;
  EXPECT_TRUE(fails(sig.checkInPlaceResults()));
  sig.args[0].packed = PackedLayout::None;
  sig.packedCopies = {{0, PackedLayout::Transpose}};
  EXPECT_TRUE(fails(sig.checkInPlaceResults()));
  sig.packedCopies.clear();
  sig.args[0].paramName.clear();
  EXPECT_TRUE(fails(sig.checkInPlaceResults()));
}

TEST_F(JitModuleTest, ChecksShapesAndDtypesBeforeEveryCall) {
  auto jit = compile(kNet);
  ASSERT_TRUE(jit);
  HostTensor w(DType::F32, {4, 3});
  auto wrongShape = jit->run({HostTensor(DType::F32, {3, 3}), w});
  ASSERT_FALSE(static_cast<bool>(wrongShape));
  EXPECT_EQ(llvm::toString(wrongShape.takeError()),
            "@construct: argument 0 expects tensor<2x3xf32>, got "
            "tensor<3x3xf32>");
  auto wrongDtype = jit->run({HostTensor(DType::F32, {2, 3}),
                              HostTensor(DType::I32, {4, 3})});
  ASSERT_FALSE(static_cast<bool>(wrongDtype));
  EXPECT_EQ(llvm::toString(wrongDtype.takeError()),
            "@construct: parameter 'fc.weight' expects tensor<4x3xf32>, got "
            "tensor<4x3xi32>");
  auto wrongCount = jit->run({w});
  ASSERT_FALSE(static_cast<bool>(wrongCount));
  EXPECT_EQ(llvm::toString(wrongCount.takeError()),
            "@construct takes 2 arguments, got 1");
}

TEST_F(JitModuleTest, UnknownEntryNamesTheFunctionsThereAre) {
  auto module = mlir::parseSourceString<mlir::ModuleOp>(kNet, &context);
  ASSERT_TRUE(module);
  auto jit = JitModule::compile(*module, "forward", CompileOptions());
  ASSERT_FALSE(static_cast<bool>(jit));
  EXPECT_EQ(llvm::toString(jit.takeError()),
            "no function named @forward in the module (it has @construct)");
}

const char *kDynamicNet = R"mlir(
func.func @construct(%x: tensor<?x3xf32>, %y: tensor<?x3xf32>,
                     %w: tensor<4x3xf32> {ms.param = "fc.weight"})
    -> tensor<?x4xf32> {
  %0 = ms.add %x, %y : tensor<?x3xf32>, tensor<?x3xf32>
  %1 = ms.dense %0, %w : tensor<?x3xf32>, tensor<4x3xf32>
  return %1 : tensor<?x4xf32>
}
)mlir";

TEST_F(JitModuleTest, DynamicBatchSizesResultsFromTheInputs) {
  auto jit = compile(kDynamicNet);
  ASSERT_TRUE(jit);
  const EntrySignature &sig = jit->signature();
  EXPECT_TRUE(sig.isDynamic());
  EXPECT_EQ(sig.args[0].typeString(), "tensor<?x3xf32>");
  EXPECT_EQ(sig.results[0].typeString(), "tensor<?x4xf32>");
  HostTensor w(DType::F32, {4, 3});
  for (int i = 0; i < 12; ++i)
    w.dataAs<float>()[i] = 1.0f;
  for (int64_t batch : {5, 1, 0}) {
    HostTensor x(DType::F32, {batch, 3}), y(DType::F32, {batch, 3});
    for (int64_t i = 0; i < batch * 3; ++i) {
      x.dataAs<float>()[i] = static_cast<float>(i);
      y.dataAs<float>()[i] = 1.0f;
    }
    EXPECT_EQ(sig.batchOf({x, y, w}), batch);
    auto out = jit->run({x, y, w});
    ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
    ASSERT_EQ(out->front().shape(), llvm::ArrayRef<int64_t>({batch, 4}));
    // Row r: sum over k of (3r + k + 1) = 9r + 6.
    for (int64_t r = 0; r < batch; ++r)
      EXPECT_EQ(out->front().dataAs<float>()[r * 4], 9.0f * r + 6.0f);
  }
}

TEST_F(JitModuleTest, DynamicBatchMustAgreeAcrossInputs) {
  auto jit = compile(kDynamicNet);
  ASSERT_TRUE(jit);
  HostTensor w(DType::F32, {4, 3});
  auto out = jit->run(
      {HostTensor(DType::F32, {2, 3}), HostTensor(DType::F32, {3, 3}), w});
  ASSERT_FALSE(static_cast<bool>(out));
  EXPECT_EQ(llvm::toString(out.takeError()),
            "@construct: argument 1 (tensor<3x3xf32>) has batch 3 but "
            "argument 0 (tensor<2x3xf32>) has batch 2; the ? batch dims of "
            "one call must agree");
  auto wrongRow = jit->run(
      {HostTensor(DType::F32, {2, 4}), HostTensor(DType::F32, {2, 4}), w});
  ASSERT_FALSE(static_cast<bool>(wrongRow));
  EXPECT_EQ(llvm::toString(wrongRow.takeError()),
            "@construct: argument 0 expects tensor<?x3xf32>, got "
            "tensor<2x4xf32>");
}

} // namespace
