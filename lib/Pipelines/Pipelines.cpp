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
#include "ms/Codegen/CPU/TileSizeModel.h"

#include <algorithm>
#include <thread>

#include "mlir/Dialect/Func/Extensions/AllExtensions.h"

using namespace mlir;

namespace ms {

std::optional<JitLevel> parseJitLevel(llvm::StringRef text) {
  if (text == "O0")
    return JitLevel::O0;
  if (text == "O1")
    return JitLevel::O1;
  if (text == "O2")
    return JitLevel::O2;
  return std::nullopt;
}

llvm::StringRef jitLevelName(JitLevel level) {
  switch (level) {
  case JitLevel::O0:
    return "O0";
  case JitLevel::O1:
    return "O1";
  case JitLevel::O2:
    return "O2";
  }
  return "O0";
}

unsigned effectiveThreads(const PipelineOptions &options) {
  if (options.jitLevel != JitLevel::O2)
    return 1;
  if (options.numThreads)
    return options.numThreads;
  return std::max(1u, std::thread::hardware_concurrency());
}

std::vector<PipelineStage> getPipelineStages(const PipelineOptions &options) {
  JitLevel level = options.jitLevel;
  unsigned threads = effectiveThreads(options);
  std::vector<PipelineStage> stages;
  // ms-level folds (relu of relu, reshape chains, dropout at inference).
  stages.push_back({"ms-canonicalize", "canonicalize"});
  // O1/O2 turn convs into matmuls (im2col) that the matmul paths speed up.
  stages.push_back({"ms-to-linalg",
                    std::string(level == JitLevel::O0
                                    ? "convert-ms-to-linalg"
                                    : "convert-ms-to-linalg{conv-as-matmul}") +
                        ",ms-decompose-aggregates,ms-check-tensor-sizes"});
  if (level == JitLevel::O1)
    // Weights streamed by rows, like O2 (see ms-transpose-matmul-operands).
    stages.push_back({"transpose", "ms-transpose-matmul-operands,canonicalize"});
  if (level == JitLevel::O2)
    // Unit-stride convs straight from the image; register-tiled,
    // vectorized matmuls for the rest (contractions become FMAs later).
    stages.push_back(
        {"vectorize", "ms-pack-parameters,ms-vectorize-convs,"
                      "ms-transpose-matmul-operands,"
                      "canonicalize,"
                      "ms-vectorize-matmuls{num-threads=" +
                          std::to_string(threads) + "}"});
  // Scalar contractions accumulate with FMA in every mode, like the vector
  // ones; O1/O2 fuse elementwise chains (bias + activation) into one loop.
  std::string generic =
      "func.func(linalg-generalize-named-ops),ms-contraction-to-fma";
  if (level != JitLevel::O0)
    generic += ",ms-interchange-contractions,linalg-fuse-elementwise-ops,"
               "canonicalize";
  if (level == JitLevel::O2)
    // Transposes as vector blocks (a dense layer's x^T), before the batch
    // loops could take them in one image at a time.
    generic += ",ms-vectorize-transposes";
  if (level != JitLevel::O0)
    // Then the layers after each im2col conv join its loop over images.
    generic += ",ms-fuse-batch-loops,canonicalize";
  if (level == JitLevel::O2)
    // Pooling windows as row vectors (LLVM would gather the strided reads).
    generic += ",ms-vectorize-pooling,canonicalize";
  if (threads > 1)
    // Pooling and fused epilogues in parallel too, like the matmuls.
    generic += ",ms-parallelize-generics{num-threads=" +
               std::to_string(threads) + "},canonicalize";
  stages.push_back({"linalg-generic", generic});
  std::string bufferize =
      "ms-emit-c-interface,"
      "one-shot-bufferize{bufferize-function-boundaries "
      "function-boundary-type-conversion=identity-layout-map},"
      "buffer-results-to-out-params{hoist-static-allocs "
      "modify-public-functions}";
  if (level == JitLevel::O0) {
    stages.push_back({"bufferize", bufferize +
                                       ",buffer-deallocation-pipeline,"
                                       "ms-copy-to-linalg,canonicalize"});
    stages.push_back({"loops",
                      "func.func(convert-linalg-to-affine-loops),lower-affine,"
                      "convert-scf-to-cf,canonicalize,cse"});
  } else {
    if (level == JitLevel::O2)
      bufferize += ",canonicalize,fold-memref-alias-ops,cse,canonicalize,"
                   "ms-lower-vectors";
    stages.push_back({"bufferize", bufferize + ",canonicalize"});
    // Scalar replacement and invariant code motion. Left out on purpose:
    // affine-loop-fusion puts the matmul's reduction loop back innermost,
    // which LLVM cannot vectorize; affine-loop-tile changed softmax results
    // by an ulp (bit parity with O0 is a contract); promote-buffers-to-stack,
    // whose allocas in loop bodies (im2col convs) grow the stack on every
    // iteration and break scf-to-cf inside OpenMP's alloca scopes (the
    // runtime's caching allocator makes heap buffers cheap instead).
    // Parallel loops (O2's row splits, im2col convs over the batch) become
    // scf.parallel, or plain loops on one thread, before deallocation: the
    // deallocation pipeline does not see into scf.forall, and buffers
    // allocated in its body would leak.
    std::string loops =
        "func.func(convert-linalg-to-affine-loops,"
        "affine-scalrep,affine-loop-invariant-code-motion),canonicalize,"
        "lower-affine,";
    loops += threads > 1 ? "scf-forall-to-parallel," : "scf-forall-to-for,";
    loops += "buffer-deallocation-pipeline,ms-copy-to-linalg,"
             "func.func(convert-linalg-to-loops)";
    if (threads > 1)
      // Canonicalization inlines the alloca scopes scf-to-openmp wraps
      // around loop bodies without allocas; scf-to-cf cannot enter them.
      loops += ",convert-scf-to-openmp{num-threads=" +
               std::to_string(threads) + "},canonicalize";
    stages.push_back({"loops", loops + ",convert-scf-to-cf,canonicalize,cse"});
  }
  std::string llvm =
      "convert-vector-to-scf{full-unroll=true},ms-transcendentals-to-libm,"
      "convert-scf-to-cf,convert-math-to-llvm,"
      "convert-math-to-libm,expand-strided-metadata,lower-affine,"
      // aligned_alloc keeps the pointer LLVM knows is unaliased; malloc plus
      // rounding by hand loses that, and with it most vectorization of copies.
      "finalize-memref-to-llvm{use-aligned-alloc},convert-vector-to-llvm,convert-func-to-llvm,"
      "convert-arith-to-llvm,convert-cf-to-llvm,convert-index-to-llvm,"
      "convert-ub-to-llvm";
  if (threads > 1)
    llvm += ",convert-openmp-to-llvm";
  stages.push_back({"llvm", llvm + ",reconcile-unrealized-casts"});
  return stages;
}

LogicalResult buildMSPipeline(OpPassManager &pm,
                              const PipelineOptions &options) {
  for (const PipelineStage &stage : getPipelineStages(options))
    if (failed(parsePassPipeline(stage.pipeline, pm)))
      return failure();
  return success();
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
                              llvm::cl::desc("O2 threads (0: the core count)"),
                              llvm::cl::init(0)};
};
} // namespace

void registerMSPasses() {
  static bool registered = false;
  if (registered)
    return;
  registered = true;
  registerConvertMSToLinalgPass();
  registerMSTransformsPasses();
  registerMSCodegenCPUPasses();
  struct Level {
    const char *name;
    JitLevel level;
    const char *description;
  };
  static const Level levels[] = {
      {"ms-pipeline-O0", JitLevel::O0,
       "Lower ms to the LLVM dialect at jit_level O0: each op on its own, "
       "no fusion"},
      {"ms-pipeline-O1", JitLevel::O1,
       "Lower ms to the LLVM dialect at jit_level O1: weights streamed by "
       "rows, vectorizable contraction loop order, elementwise fusion, "
       "scalar replacement, LICM"},
      {"ms-pipeline-O2", JitLevel::O2,
       "Lower ms to the LLVM dialect at jit_level O2: O1 plus register-tiled "
       "vectorized matmuls and multithreading (num-threads, default: cores)"},
  };
  for (const Level &entry : levels) {
    JitLevel level = entry.level;
    std::string name = entry.name;
    PassPipelineRegistration<ThreadsOption>(
        entry.name, entry.description,
        [level, name](OpPassManager &pm, const ThreadsOption &threads) {
          PipelineOptions options;
          options.jitLevel = level;
          options.numThreads = threads.numThreads;
          if (failed(buildMSPipeline(pm, options)))
            llvm::report_fatal_error(llvm::Twine(name) + " failed to build");
        });
  }
}

} // namespace ms
