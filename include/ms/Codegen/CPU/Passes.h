//===- Passes.h - CPU codegen passes ----------------------*- C++ -*-===//
#ifndef MS_CODEGEN_CPU_PASSES_H
#define MS_CODEGEN_CPU_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace arith { class ArithDialect; }
namespace func { class FuncDialect; }
namespace linalg { class LinalgDialect; }
namespace math { class MathDialect; }
namespace memref { class MemRefDialect; }
namespace scf { class SCFDialect; }
namespace tensor { class TensorDialect; }
namespace transform { class TransformDialect; }
namespace vector { class VectorDialect; }
} // namespace mlir

namespace ms {

#define GEN_PASS_DECL
#include "ms/Codegen/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ms/Codegen/CPU/Passes.h.inc"

} // namespace ms

#endif // MS_CODEGEN_CPU_PASSES_H
