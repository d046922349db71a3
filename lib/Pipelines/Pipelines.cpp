//===- Pipelines.cpp - The O0/O1/O2 compilation pipelines -----------------===//

#include "ms/Pipelines/Pipelines.h"

#include "ms/Conversion/Passes.h"
#include "ms/Dialect/MS/IR/MSDialect.h"
#include "ms/Codegen/CPU/Passes.h"
#include "ms/Dialect/MS/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/AllocationOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/TransformOps/BufferizationTransformOps.h"
#include "mlir/Dialect/Linalg/TransformOps/DialectExtension.h"
#include "mlir/Dialect/SCF/TransformOps/SCFTransformOps.h"
#include "mlir/Dialect/Tensor/TransformOps/TensorTransformOps.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Transforms/Passes.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Affine/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/AllInterfaces.h"
#include "mlir/Dialect/SCF/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/TensorTilingInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/SubsetInsertionOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/Transforms/SubsetOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/TransformOps/VectorTransformOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "ms/Codegen/CPU/SignFacts.h"
#include "ms/Codegen/CPU/TileSizeModel.h"

#include "mlir/Dialect/Func/Extensions/AllExtensions.h"

using namespace mlir;

namespace ms {

namespace {

std::string threadsOption(unsigned threads) {
  return "{num-threads=" + std::to_string(threads) + "}";
}

/// What a level adds on top of the kernel codegen every level shares.
struct GraphWork {
  /// Fusion across ops: elementwise chains, epilogues in the matmul and conv
  /// tiles, conv + relu + pool, batch-loop fusion (O1 and up).
  bool fuse = false;
  /// Whole-graph layout choices: batch-1 dense weights asked for as
  /// [in, out] (ms-pack-parameters; the runtime packs them once per bound
  /// buffer) (O2).
  bool packParameters = false;
  /// Memory planning: the buffers that every iteration of a loop over
  /// images allocates afresh and frees (a fused loop's per-image
  /// intermediates) are allocated once per thread (ms-plan-buffers), and a
  /// concatenation's pieces are computed in their slices of it
  /// (ms-concat-in-place) (O2).
  bool planBuffers = false;
  /// Sign facts across the fused ops: a tanh of a value whose sign bit is
  /// clear without sign handling, a maximum with |x| without the
  /// signed-zero blend (ms-sign-facts) (O2).
  bool signFacts = false;
};

// Each stage below is the same at every level unless `work` says otherwise,
// so a PyNative kernel, an O0 op and an O2 graph's ops get the same code.

PipelineStage toLinalgStage() {
  // Ungrouped convs as im2col matmuls, which ms-vectorize-convs turns into
  // direct register tiles and ms-vectorize-matmuls tiles otherwise. Sizes
  // are checked first on the ms ops themselves, because some lowerings
  // build tables as large as their results (interpolate's source indices),
  // and again on what the lowering and decomposition made.
  return {"ms-to-linalg",
          "ms-check-tensor-sizes,convert-ms-to-linalg{conv-as-matmul},"
          "ms-decompose-aggregates,ms-check-tensor-sizes"};
}

PipelineStage vectorizeStage(unsigned threads, GraphWork work) {
  // Convs straight from the image on register tiles (pooling a following
  // max pool in them is fusion); register-tiled, vectorized matmuls for the
  // rest, weights streamed by rows (contractions become FMAs later).
  std::string convs = work.fuse ? "ms-vectorize-convs"
                                : "ms-vectorize-convs{pool-epilogues=false}";
  if (work.packParameters)
    // First: it turns the transposed-weight matmuls it packs into plain ones.
    convs = "ms-pack-parameters" + threadsOption(threads) + "," + convs;
  return {"vectorize", convs + ",ms-transpose-matmul-operands,canonicalize,"
                               "ms-vectorize-matmuls" +
                           threadsOption(threads)};
}

PipelineStage genericStage(unsigned threads, GraphWork work) {
  // Bias adds and activations on a dense layer's transposed result, which
  // cancels its transpose back against the next layer's x^T. Scalar
  // contractions accumulate with FMA along K in order, like the vector
  // ones, with a vectorizable loop order. Transposes as 2-D named ops
  // before fusion, which would make them gathering reads of their
  // consumers.
  std::string generic = "ms-sink-transposes,canonicalize,"
                        "func.func(linalg-generalize-named-ops),"
                        "ms-contraction-to-fma,ms-interchange-contractions,"
                        "canonicalize,ms-collapse-transposes";
  if (work.fuse)
    // Conv bias + batch_norm + activation become one epilogue.
    generic += ",ms-fuse-elementwise,canonicalize";
  else
    // Only the ops one ms op lowered to: they are one kernel at O0 anyway.
    generic += ",ms-fuse-within-ops,canonicalize";
  // Again after fusion, whose reshape propagation can leave a transpose of
  // more dims (a flattened image's x^T), before the batch loops could take
  // them in one image at a time.
  generic += ",ms-collapse-transposes";
  if (work.fuse)
    // The layers after each im2col conv join its loop over images.
    generic += ",ms-fuse-batch-loops,canonicalize";
  // Pooling windows as row vectors (LLVM would gather the strided reads);
  // small elementwise ops (a fused chain on [1, 10]) as whole vectors.
  generic += ",ms-vectorize-pooling,ms-vectorize-small-elementwise,"
             "canonicalize";
  if (threads > 1)
    // Pooling and elementwise loops in parallel too, like the matmuls.
    generic += ",ms-parallelize-generics" + threadsOption(threads) +
               ",canonicalize";
  return {"linalg-generic", generic};
}

PipelineStage bufferizeStage(unsigned threads, GraphWork work) {
  // An elementwise consumer of a matmul's zero-start tiles (a weight's SGD
  // update) is applied in those tiles, while they are in registers (the
  // accumulators hoisted out of the K loops first).
  std::string epilogues =
      work.fuse ? ",ms-fuse-tile-epilogues,canonicalize" : "";
  // A concatenation's pieces (a data-parallel step's gradient bucket)
  // written straight into it.
  if (work.planBuffers)
    epilogues += ",ms-concat-in-place";
  // A data-parallel step's gradient buckets in the runtime's memory (with
  // two ranks on a host, a window the other rank reads).
  epilogues += ",ms-share-gradient-buckets";
  // A parameter's update written over the parameter: the step's fresh
  // result buffer would be read into the cache before it is written.
  epilogues += ",ms-update-parameters-in-place";
  // With two ranks on a host, each computes half of the updates from a
  // shared bucket and copies the other rank's half.
  epilogues += ",ms-shard-bucket-updates";
  return {"bufferize",
          "ms-emit-c-interface,ms-distinct-results,"
          "one-shot-bufferize{bufferize-function-boundaries "
          "allow-return-allocs-from-loops "
          "function-boundary-type-conversion=identity-layout-map},"
          "buffer-results-to-out-params{hoist-static-allocs "
          "modify-public-functions},"
          // The runtime's transpose kernel costs no compile time.
          "canonicalize,ms-transposes-to-calls" +
              threadsOption(threads) +
              ",fold-memref-alias-ops,cse,"
          "canonicalize,"
          "ms-lower-vectors,canonicalize" +
              epilogues};
}

PipelineStage loopsStage(unsigned threads, GraphWork work) {
  // Scalar replacement and invariant code motion. Left out on purpose:
  // affine-loop-fusion puts the matmul's reduction loop back innermost,
  // which LLVM cannot vectorize; affine-loop-tile changed softmax results
  // by an ulp (bit parity between levels is a contract);
  // promote-buffers-to-stack, whose allocas in loop bodies (im2col convs)
  // grow the stack on every iteration and break scf-to-cf inside OpenMP's
  // alloca scopes (the runtime's caching allocator makes heap buffers cheap
  // instead). Parallel loops (row splits, im2col convs over the batch)
  // become scf.parallel, or plain loops on one thread, before deallocation:
  // the deallocation pipeline does not see into scf.forall, and buffers
  // allocated in its body would leak.
  std::string loops =
      "func.func(convert-linalg-to-affine-loops,"
      "affine-scalrep,affine-loop-invariant-code-motion),canonicalize,"
      "lower-affine,";
  if (work.planBuffers)
    loops += "ms-plan-buffers" + threadsOption(threads) + ",";
  loops += threads > 1 ? "scf-forall-to-parallel," : "scf-forall-to-for,";
  loops += "buffer-deallocation-pipeline,ms-copy-to-linalg,"
           "func.func(convert-linalg-to-loops)";
  if (threads > 1)
    // Canonicalization inlines the alloca scopes scf-to-openmp wraps
    // around loop bodies without allocas; scf-to-cf cannot enter them.
    loops += ",convert-scf-to-openmp" + threadsOption(threads) +
             ",canonicalize,ms-omp-loops-nowait";
  return {"loops", loops + ",convert-scf-to-cf,canonicalize,cse"};
}

PipelineStage llvmStage(unsigned threads, GraphWork work) {
  // Sign facts read the fused ops as they are before tanh and erf expand.
  std::string llvm = "convert-vector-to-scf{full-unroll=true},";
  if (work.signFacts)
    llvm += std::string("ms-sign-facts{rewrite-maximum=") +
            (hostExpandsMaximumWithMaxps() ? "true" : "false") + "},";
  llvm +=
      "ms-approximate-transcendentals,"
      "convert-scf-to-cf,convert-math-to-llvm,"
      "convert-math-to-libm,expand-strided-metadata,lower-affine,"
      // aligned_alloc keeps the pointer LLVM knows is unaliased; malloc plus
      // rounding by hand loses that, and with it most vectorization of copies.
      "finalize-memref-to-llvm{use-aligned-alloc},convert-vector-to-llvm,"
      "convert-func-to-llvm,convert-arith-to-llvm,convert-cf-to-llvm,"
      "convert-index-to-llvm,convert-ub-to-llvm";
  if (threads > 1)
    llvm += ",convert-openmp-to-llvm";
  return {"llvm", llvm + ",reconcile-unrealized-casts"};
}

std::vector<PipelineStage> kernelStages(const CompileOptions &options,
                                        GraphWork work) {
  unsigned threads = effectiveThreads(options);
  // f16/bf16 ops computed in f32, rounded once per op, the same in every
  // mode; then ms-level folds (relu of relu, reshape chains, dropout at
  // inference).
  // A ? batch becomes a loop over static batch tiles first, so every
  // later stage sees static shapes. A gradient bucket's all-reduce starts
  // as soon as its gradients are ready, while backward goes on.
  return {{"ms-canonicalize",
           "ms-split-dynamic-batch,ms-widen-half-precision,canonicalize,"
           "ms-start-collectives-early"},
          toLinalgStage(),
          vectorizeStage(threads, work),
          genericStage(threads, work),
          bufferizeStage(threads, work),
          loopsStage(threads, work),
          llvmStage(threads, work)};
}

std::vector<PipelineStage> o0Stages(const CompileOptions &options) {
  return kernelStages(options, GraphWork{/*fuse=*/false,
                                        /*packParameters=*/false});
}

std::vector<PipelineStage> o1Stages(const CompileOptions &options) {
  return kernelStages(options, GraphWork{/*fuse=*/true,
                                        /*packParameters=*/false});
}

std::vector<PipelineStage> o2Stages(const CompileOptions &options) {
  // Whole-graph work: parameter prepacking, buffer planning and sign
  // facts. Cross-op tiling would go here, as stages of its own or
  // GraphWork flags.
  return kernelStages(options, GraphWork{/*fuse=*/true,
                                        /*packParameters=*/true,
                                        /*planBuffers=*/true,
                                        /*signFacts=*/true});
}

LogicalResult addStages(OpPassManager &pm,
                        const std::vector<PipelineStage> &stages) {
  for (const PipelineStage &stage : stages)
    if (failed(parsePassPipeline(stage.pipeline, pm)))
      return failure();
  return success();
}

} // namespace

std::vector<PipelineStage> getPipelineStages(const CompileOptions &options) {
  switch (options.jitLevel) {
  case JitLevel::O0:
    return o0Stages(options);
  case JitLevel::O1:
    return o1Stages(options);
  case JitLevel::O2:
    return o2Stages(options);
  }
  return o0Stages(options);
}

StagePassManagers::StagePassManagers(MLIRContext &context)
    : context(context) {}

StagePassManagers::~StagePassManagers() = default;

PassManager *StagePassManagers::get(const PipelineStage &stage) {
  std::unique_ptr<PassManager> &manager = managers[stage.pipeline];
  if (manager)
    return manager.get();
  auto parsed =
      std::make_unique<PassManager>(&context, ModuleOp::getOperationName());
  parsed->enableVerifier(false);
  if (failed(parsePassPipeline(stage.pipeline, *parsed))) {
    managers.erase(stage.pipeline);
    return nullptr;
  }
  manager = std::move(parsed);
  return manager.get();
}

LogicalResult buildO0Pipeline(OpPassManager &pm,
                              const CompileOptions &options) {
  return addStages(pm, o0Stages(options));
}

LogicalResult buildO1Pipeline(OpPassManager &pm,
                              const CompileOptions &options) {
  return addStages(pm, o1Stages(options));
}

LogicalResult buildO2Pipeline(OpPassManager &pm,
                              const CompileOptions &options) {
  return addStages(pm, o2Stages(options));
}

LogicalResult buildMSPipeline(OpPassManager &pm,
                              const CompileOptions &options) {
  return addStages(pm, getPipelineStages(options));
}

void registerMSDialects(DialectRegistry &registry) {
  registry.insert<MSDialect, affine::AffineDialect, arith::ArithDialect,
                  bufferization::BufferizationDialect, cf::ControlFlowDialect,
                  func::FuncDialect, index::IndexDialect, LLVM::LLVMDialect,
                  linalg::LinalgDialect, math::MathDialect,
                  memref::MemRefDialect, scf::SCFDialect,
                  tensor::TensorDialect, transform::TransformDialect,
                  ub::UBDialect, vector::VectorDialect,
                  omp::OpenMPDialect>();
  // func.call inlining (the frontends' linked functions).
  func::registerInlinerExtension(registry);
  // Tiling, vectorization and bufferization of vector transfers (O1/O2).
  linalg::registerAllDialectInterfaceImplementations(registry);
  tensor::registerTilingInterfaceExternalModels(registry);
  tensor::registerSubsetOpInterfaceExternalModels(registry);
  vector::registerBufferizableOpInterfaceExternalModels(registry);
  vector::registerSubsetOpInterfaceExternalModels(registry);
  affine::registerValueBoundsOpInterfaceExternalModels(registry);
  arith::registerValueBoundsOpInterfaceExternalModels(registry);
  scf::registerValueBoundsOpInterfaceExternalModels(registry);
  tensor::registerValueBoundsOpInterfaceExternalModels(registry);
  vector::registerValueBoundsOpInterfaceExternalModels(registry);
  // O2 schedules matmuls with transform-dialect sequences.
  bufferization::registerTransformDialectExtension(registry);
  linalg::registerTransformDialectExtension(registry);
  scf::registerTransformDialectExtension(registry);
  tensor::registerTransformDialectExtension(registry);
  vector::registerTransformDialectExtension(registry);
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  // Lets buffer-results-to-out-params write results in place.
  memref::registerAllocationOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  func::registerAllExtensions(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
}

void prepareContext(MLIRContext &context) {
  registerMSPasses();
  registerUpstreamPassesForMS();
  DialectRegistry registry;
  registerMSDialects(registry);
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
}

void registerUpstreamPassesForMS() {
  // Registering a pass twice is fatal; tools and libraries may both ask.
  static bool registered = false;
  if (registered)
    return;
  registered = true;
  registerTransformsPasses();
  registerConversionPasses();
  affine::registerAffinePasses();
  bufferization::registerBufferizationPasses();
  bufferization::registerBufferizationPipelines();
  registerLinalgPasses();
  memref::registerMemRefPasses();
  transform::registerTransformPasses();
  registerSCFPasses();
}

namespace {
struct ThreadsOption : public PassPipelineOptions<ThreadsOption> {
  Option<unsigned> numThreads{*this, "num-threads",
                              llvm::cl::desc("Threads (0: the core count)"),
                              llvm::cl::init(0)};
};

using PipelineBuilder = LogicalResult (*)(OpPassManager &,
                                          const CompileOptions &);

void registerLevel(const char *name, const char *description,
                   PipelineBuilder build) {
  PassPipelineRegistration<ThreadsOption>(
      name, description,
      [name, build](OpPassManager &pm, const ThreadsOption &threads) {
        CompileOptions options;
        options.numThreads = threads.numThreads;
        if (failed(build(pm, options)))
          llvm::report_fatal_error(llvm::Twine(name) + " failed to build");
      });
}
} // namespace

void registerMSPasses() {
  static bool registered = false;
  if (registered)
    return;
  registered = true;
  registerConvertMSToLinalgPass();
  registerMSTransformsPasses();
  registerMSCodegenCPUPasses();
  registerLevel("ms-pipeline-O0",
                "Lower ms to the LLVM dialect at jit_level O0: vectorized "
                "kernels, each op on its own (no fusion across ops)",
                buildO0Pipeline);
  registerLevel("ms-pipeline-O1",
                "Lower ms to the LLVM dialect at jit_level O1: O0 plus "
                "fusion (elementwise chains, epilogues in matmul and conv "
                "tiles, conv + relu + pool, batch loops)",
                buildO1Pipeline);
  registerLevel("ms-pipeline-O2",
                "Lower ms to the LLVM dialect at jit_level O2: O1 plus "
                "whole-graph optimizations",
                buildO2Pipeline);
}

} // namespace ms
