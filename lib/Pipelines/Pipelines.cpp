//===- Pipelines.cpp - The O0/O1/O2 compilation pipelines -----------------===//

#include "ms/Pipelines/Pipelines.h"

#include "ms/Conversion/Passes.h"
#include "ms/Dialect/MS/IR/MSDialect.h"
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
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

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

std::vector<PipelineStage> getPipelineStages(const PipelineOptions &options) {
  // O1 and O2 add their tiling, fusion and vectorization stages here (issue
  // on jit levels); until then every level runs the O0 stages.
  (void)options;
  return {
      // ms-level folds (relu of relu, reshape chains, dropout at inference).
      {"ms-canonicalize", "canonicalize"},
      {"ms-to-linalg", "convert-ms-to-linalg,ms-decompose-aggregates"},
      // Contractions accumulate with FMA in every mode.
      {"linalg-generalize",
       "func.func(linalg-generalize-named-ops),ms-contraction-to-fma"},
      {"bufferize",
       "ms-emit-c-interface,"
       "one-shot-bufferize{bufferize-function-boundaries "
       "function-boundary-type-conversion=identity-layout-map},"
       "buffer-results-to-out-params{hoist-static-allocs "
       "modify-public-functions},"
       "buffer-deallocation-pipeline,ms-copy-to-linalg,canonicalize"},
      {"loops", "func.func(convert-linalg-to-affine-loops),lower-affine,"
                "convert-scf-to-cf,canonicalize,cse"},
      {"llvm",
       "convert-math-to-llvm,convert-math-to-libm,expand-strided-metadata,"
       "lower-affine,finalize-memref-to-llvm,convert-func-to-llvm,"
       "convert-arith-to-llvm,convert-cf-to-llvm,convert-index-to-llvm,"
       "convert-ub-to-llvm,reconcile-unrealized-casts"},
  };
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
                  tensor::TensorDialect, ub::UBDialect,
                  vector::VectorDialect>();
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
}

void registerMSPasses() {
  static bool registered = false;
  if (registered)
    return;
  registered = true;
  registerConvertMSToLinalgPass();
  registerMSTransformsPasses();
  PassPipelineRegistration<>(
      "ms-pipeline-O0",
      "Lower ms to the LLVM dialect at jit_level O0: each op on its own, "
      "no fusion",
      [](OpPassManager &pm) {
        PipelineOptions options;
        options.jitLevel = JitLevel::O0;
        if (failed(buildMSPipeline(pm, options)))
          llvm::report_fatal_error("ms-pipeline-O0 failed to build");
      });
}

} // namespace ms
