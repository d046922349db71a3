// ms-print-graph-dot names the file it cannot write, at the module.
// RUN: ms-opt %s --ms-print-graph-dot=output-file=%t.missing/x.dot -verify-diagnostics

// expected-error@+1 {{ms-print-graph-dot: cannot open output file '}}
module {
  func.func @construct(%x: tensor<2xf32>) -> tensor<2xf32> {
    return %x : tensor<2xf32>
  }
}

// RUN: not ms-opt %s --ms-print-graph-dot=output-file=%t.missing/x.dot 2>&1 | FileCheck %s -DFILE=%t.missing/x.dot
// CHECK: error: ms-print-graph-dot: cannot open output file '[[FILE]]': No such file or directory
