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

/// Unit attribute on a `math.tanh` or `math.erf` whose operand's sign bit
/// is clear unless it is NaN (+0, positive or NaN; never -0): its expansion
/// needs neither |x| nor the final copysign.
constexpr llvm::StringLiteral kSignClearOperandAttr = "ms.sign_clear_operand";

/// Whether the backend expands a vector llvm.maximum on this host as x86's
/// MAXPS and selects, the expansion ms-sign-facts's maximum rewrite repeats
/// (x86 without AVX10.2).
bool hostExpandsMaximumWithMaxps();

} // namespace ms

#endif // MS_CODEGEN_CPU_SIGNFACTS_H
