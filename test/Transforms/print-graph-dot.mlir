// ms-print-graph-dot: the graph as Graphviz DOT (what save_graphs draws).
// An op is a box labelled with its name, its Cell path and its result
// types; an argument is an ellipse, a parameter named by ms.param; an edge
// runs from each definition to each user; a region sits in its own box.
// The IR is unchanged.
// RUN: ms-opt %s --ms-print-graph-dot=output-file=%t.dot | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s < %t.dot
// RUN: ms-opt %s --ms-print-graph-dot -o /dev/null | FileCheck %s

// IR: func.func @construct
// IR: ms.dense

// CHECK: digraph "ms" {
// CHECK: subgraph cluster_0 {
// CHECK-NEXT: label="@construct";
// CHECK-NEXT: [[X:n[0-9]+]] [shape=ellipse, label="input 0\ltensor<2x4xf32>\l"];
// CHECK-NEXT: [[W:n[0-9]+]] [shape=ellipse, label="fc.weight\ltensor<3x4xf32>\l"];
// CHECK-NEXT: [[B:n[0-9]+]] [shape=ellipse, label="fc.bias\ltensor<3xf32>\l"];
// CHECK-NEXT: [[C:n[0-9]+]] [shape=ellipse, label="input 3\li1\l"];
// CHECK-NEXT: [[D:n[0-9]+]] [label="ms.dense\lfc\ltensor<2x3xf32>\l"];
// CHECK-DAG: [[X]] -> [[D]];
// CHECK-DAG: [[W]] -> [[D]];
// CHECK-DAG: [[B]] -> [[D]];
// CHECK: [[R:n[0-9]+]] [label="ms.relu\lblock.act\ltensor<2x3xf32>\l"];
// CHECK-NEXT: [[D]] -> [[R]];
// CHECK-NEXT: [[IF:n[0-9]+]] [label="scf.if\ltensor<2x3xf32>\l"];
// CHECK-NEXT: [[C]] -> [[IF]];
// CHECK-NEXT: subgraph cluster_{{[0-9]+}} {
// CHECK-NEXT: label="scf.if region 0";
// CHECK-NEXT: [[N:n[0-9]+]] [label="ms.neg\ltensor<2x3xf32>\l"];
// CHECK-NEXT: [[R]] -> [[N]];
// CHECK-NEXT: [[Y:n[0-9]+]] [label="scf.yield\l"];
// CHECK-NEXT: [[N]] -> [[Y]];
// CHECK-NEXT: }
// CHECK-NEXT: subgraph cluster_{{[0-9]+}} {
// CHECK-NEXT: label="scf.if region 1";
// CHECK: [[RET:n[0-9]+]] [label="func.return\l"];
// CHECK-NEXT: [[IF]] -> [[RET]];
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @construct(%x: tensor<2x4xf32>,
                     %w: tensor<3x4xf32> {ms.param = "fc.weight"},
                     %b: tensor<3xf32> {ms.param = "fc.bias"},
                     %c: i1) -> tensor<2x3xf32> {
  %0 = ms.dense %x, %w, %b : tensor<2x4xf32>, tensor<3x4xf32>, tensor<3xf32> loc("fc"("net.py":11:0))
  %1 = ms.relu %0 : tensor<2x3xf32> loc("block.act"("net.py":12:0))
  %2 = scf.if %c -> (tensor<2x3xf32>) {
    %3 = ms.neg %1 : tensor<2x3xf32>
    scf.yield %3 : tensor<2x3xf32>
  } else {
    scf.yield %1 : tensor<2x3xf32>
  }
  return %2 : tensor<2x3xf32>
}
