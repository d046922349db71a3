//===- Autodiff.h - Gradient functions of ms source text --------*- C++ -*-===//
//
// For frontends that build graphs as text (the Python package's grad and
// value_and_grad in Graph mode): ms::buildGradientFunc behind a text-in,
// text-out call, so they need no MLIR headers.
//
//===----------------------------------------------------------------------===//
#ifndef MS_RUNTIME_JIT_AUTODIFF_H
#define MS_RUNTIME_JIT_AUTODIFF_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <utility>
#include <vector>

namespace ms {
namespace runtime {

/// Parses `source` (a module of ms functions), adds the gradient function of
/// `func` with respect to the arguments `wrt` (every float tensor argument
/// when empty), named `gradName` (`<func>_grad` when empty), and prints the
/// whole module with its locations. The signature of the new function is
/// ms::buildGradientFunc's. Errors are one located line.
llvm::Expected<std::string> differentiateSource(llvm::StringRef source,
                                                llvm::StringRef func,
                                                llvm::ArrayRef<unsigned> wrt,
                                                llvm::StringRef gradName);

/// A gradient function that takes the forward values as arguments
/// (ms::buildGradientFunc with savedForward), for a caller that has them.
struct SavedForwardGradient {
  std::string text; // the whole module, locations included
  /// Per saved argument, in order: (op, result), result `result` of the
  /// `op`-th op of `func`'s body.
  std::vector<std::pair<int64_t, int64_t>> saved;
};
llvm::Expected<SavedForwardGradient>
differentiateSourceSaved(llvm::StringRef source, llvm::StringRef func,
                         llvm::ArrayRef<unsigned> wrt,
                         llvm::StringRef gradName);

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_JIT_AUTODIFF_H
