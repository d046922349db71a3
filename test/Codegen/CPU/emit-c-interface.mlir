// RUN: ms-opt %s --ms-emit-c-interface | FileCheck %s

// Public functions get the C interface, and each result its index (which
// buffer-results-to-out-params carries to the result's out-param).
// CHECK: func.func @construct(%{{.*}}: tensor<2xf32>) -> (tensor<2xf32> {ms.result = 0 : i64}, tensor<f32> {ms.result = 1 : i64}) attributes {llvm.emit_c_interface}
func.func @construct(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<f32>) {
  %c = arith.constant dense<1.0> : tensor<f32>
  return %x, %c : tensor<2xf32>, tensor<f32>
}
// CHECK: func.func private @helper() -> tensor<f32> {
func.func private @helper() -> tensor<f32> {
  %c = arith.constant dense<1.0> : tensor<f32>
  return %c : tensor<f32>
}
// CHECK: func.func private @external()
// CHECK-NOT: llvm.emit_c_interface
func.func private @external()
