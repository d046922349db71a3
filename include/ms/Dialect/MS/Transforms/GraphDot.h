//===- GraphDot.h - A captured graph as a Graphviz picture ------*- C++ -*-===//
//
// save_graphs' picture of the captured graph, and the ms-print-graph-dot
// pass: one node per op, labelled with its name, the Cell path its
// location names and its result types; an edge from each value's
// definition (an op or a function argument) to each of its users. The ops
// of a region (scf.if, scf.while) sit in a box named after their op.
//
//===----------------------------------------------------------------------===//
#ifndef MS_DIALECT_MS_TRANSFORMS_GRAPHDOT_H
#define MS_DIALECT_MS_TRANSFORMS_GRAPHDOT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace ms {

/// Writes `module`'s functions as one Graphviz digraph, a box each.
void writeGraphDot(mlir::ModuleOp module, llvm::raw_ostream &os);

} // namespace ms

#endif // MS_DIALECT_MS_TRANSFORMS_GRAPHDOT_H
