//===- PrintGraphDot.cpp - A captured graph as a Graphviz picture ---------===//
//
// MLIR's own -view-op-graph draws any IR; this one draws what a MindSpore
// user reads: the Cell path beside each op, the parameters by name.
//
//===----------------------------------------------------------------------===//

#include "ms/Dialect/MS/Transforms/GraphDot.h"
#include "ms/Dialect/MS/IR/CellPath.h"
#include "ms/Dialect/MS/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/ToolOutputFile.h"

namespace ms {
#define GEN_PASS_DEF_MSPRINTGRAPHDOT
#include "ms/Dialect/MS/Transforms/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

/// `text` as the inside of a DOT string: quotes and backslashes escaped,
/// each line left-aligned.
std::string dotEscape(llvm::StringRef text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n')
      out += "\\l";
    else
      out += c;
  }
  return out;
}

std::string typesText(TypeRange types) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(types, os);
  return text;
}

class DotWriter {
public:
  explicit DotWriter(llvm::raw_ostream &os) : os(os) {}

  void writeModule(ModuleOp module) {
    os << "digraph \"ms\" {\n  node [shape=box, fontname=\"monospace\"];\n";
    for (auto func : module.getOps<func::FuncOp>()) {
      os << "  subgraph cluster_" << clusters++ << " {\n    label=\"@"
         << dotEscape(func.getSymName()) << "\";\n";
      writeArguments(func);
      writeBlock(func.getBody().front());
      os << "  }\n";
    }
    os << "}\n";
  }

private:
  /// A function argument: the parameter's name (ms.param) or its index.
  void writeArguments(func::FuncOp func) {
    for (BlockArgument arg : func.getArguments()) {
      auto param = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                     "ms.param");
      std::string name = param ? param.getValue().str()
                               : "input " + std::to_string(arg.getArgNumber());
      node(arg, name + "\n" + typesText(arg.getType()), "ellipse");
    }
  }

  void writeBlock(Block &block) {
    for (BlockArgument arg : block.getArguments())
      if (!ids.count(arg))
        node(arg, "block argument " + std::to_string(arg.getArgNumber()) +
                      "\n" + typesText(arg.getType()),
             "ellipse");
    for (Operation &op : block)
      writeOp(op);
  }

  void writeOp(Operation &op) {
    std::string id = "n" + std::to_string(nodes++);
    std::string label = op.getName().getStringRef().str();
    if (std::string path = ms::cellPathOf(op.getLoc()); !path.empty())
      label += "\n" + path;
    if (op.getNumResults())
      label += "\n" + typesText(op.getResultTypes());
    os << "    " << id << " [label=\"" << dotEscape(label) << "\\l\"];\n";
    for (Value operand : op.getOperands())
      if (auto it = ids.find(operand); it != ids.end())
        os << "    " << it->second << " -> " << id << ";\n";
    for (Value result : op.getResults())
      ids[result] = id;
    for (Region &region : op.getRegions()) {
      os << "    subgraph cluster_" << clusters++ << " {\n      label=\""
         << dotEscape(op.getName().getStringRef()) << " region "
         << region.getRegionNumber() << "\";\n";
      for (Block &block : region)
        writeBlock(block);
      os << "    }\n";
    }
  }

  void node(Value value, const std::string &label, llvm::StringRef shape) {
    std::string id = "n" + std::to_string(nodes++);
    ids[value] = id;
    os << "    " << id << " [shape=" << shape << ", label=\""
       << dotEscape(label) << "\\l\"];\n";
  }

  llvm::raw_ostream &os;
  llvm::DenseMap<Value, std::string> ids;
  unsigned nodes = 0, clusters = 0;
};

struct MSPrintGraphDotPass
    : ms::impl::MSPrintGraphDotBase<MSPrintGraphDotPass> {
  using MSPrintGraphDotBase::MSPrintGraphDotBase;

  void runOnOperation() override {
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> file =
        openOutputFile(outputFile, &error);
    if (!file) {
      // openOutputFile's message names the file and the reason.
      getOperation().emitError() << "ms-print-graph-dot: " << error;
      return signalPassFailure();
    }
    ms::writeGraphDot(getOperation(), file->os());
    file->keep();
    markAllAnalysesPreserved();
  }
};

} // namespace

void ms::writeGraphDot(ModuleOp module, llvm::raw_ostream &os) {
  DotWriter(os).writeModule(module);
}
