//===- SignFacts.h - The mark ms-sign-facts leaves --------------*- C++ -*-===//
//
// `ms-sign-facts` (O2) simplifies a fused kernel by what it knows of its
// values' signs; `ms-approximate-transcendentals` reads the mark it leaves
// on tanh and erf.
//
//===----------------------------------------------------------------------===//

#ifndef MS_CODEGEN_CPU_SIGNFACTS_H
#define MS_CODEGEN_CPU_SIGNFACTS_H

#include "llvm/ADT/StringRef.h"

namespace ms {

/// Unit attribute on a `math.tanh` or `math.erf` whose operand is never
/// negative except as NaN: its expansion needs neither |x| nor the final
/// copysign.
constexpr llvm::StringLiteral kNonNegativeOperandAttr =
    "ms.non_negative_operand";

} // namespace ms

#endif // MS_CODEGEN_CPU_SIGNFACTS_H
