// RUN: ms-opt %s --ms-emit-c-interface | FileCheck %s

// CHECK: func.func @construct() attributes {llvm.emit_c_interface}
func.func @construct() {
  return
}
// CHECK: func.func private @helper() {
func.func private @helper() {
  return
}
// CHECK: func.func private @external()
// CHECK-NOT: llvm.emit_c_interface
func.func private @external()
