//===- Autodiff.h - Gradient functions of ms source text --------*- C++ -*-===//
//
// For frontends that build graphs as text (the Python package's grad and
// value_and_grad in Graph mode): ms::buildGradientFunc behind a text-in,
// text-out call, so they need no MLIR headers.
//
//===----------------------------------------------------------------------===//
#ifndef MS_RUNTIME_AUTODIFF_H
#define MS_RUNTIME_AUTODIFF_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

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

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_AUTODIFF_H
