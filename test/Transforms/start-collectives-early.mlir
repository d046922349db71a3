// ms-start-collectives-early moves each all_reduce, with the pure ops that
// only feed it, up to just after what it reads and the previous op with
// side effects; its readers stay where they are.
// RUN: ms-opt %s --ms-start-collectives-early | FileCheck %s
// Moving ops changes no value: the verifier still accepts the result.
// RUN: ms-opt %s --ms-start-collectives-early --verify-each | ms-opt | FileCheck %s

// Backward as captured: the last layer's gradient, then the first's, then
// the reducer's bucket (reshape, concat, all_reduce) and its reader. The
// bucket moves up to just after the gradients it holds; the first layer's
// gradient is computed while it is reduced.
// CHECK-LABEL: func @bucket_after_its_gradients
// CHECK: %[[G3:.*]] = ms.matmul %arg0, %arg1
// CHECK-NEXT: %[[B3:.*]] = ms.add %[[G3]], %arg2
// CHECK-NEXT: %[[R1:.*]] = ms.reshape %[[G3]]
// CHECK-NEXT: %[[R2:.*]] = ms.reshape %[[B3]]
// CHECK-NEXT: %[[BUCKET:.*]] = ms.concat %[[R1]], %[[R2]]
// CHECK-NEXT: %[[SUM:.*]] = ms.all_reduce %[[BUCKET]]
// CHECK-NEXT: ms.matmul %arg3, %arg4
// CHECK-NEXT: ms.exp
// CHECK-NEXT: ms.slice %[[SUM]]
func.func @bucket_after_its_gradients(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>,
    %c: tensor<4x4xf32>, %d: tensor<4x8xf32>, %e: tensor<8x4xf32>)
    -> (tensor<16xf32>, tensor<4x4xf32>) {
  %g3 = ms.matmul %a, %b : tensor<4x4xf32>, tensor<4x4xf32>
  %b3 = ms.add %g3, %c : tensor<4x4xf32>, tensor<4x4xf32>
  %g1 = ms.matmul %d, %e : tensor<4x8xf32>, tensor<8x4xf32>
  %e1 = ms.exp %g1 : tensor<4x4xf32>
  %r1 = ms.reshape %g3 to [16] : tensor<4x4xf32>
  %r2 = ms.reshape %b3 to [16] : tensor<4x4xf32>
  %bucket = ms.concat %r1, %r2 axis 0 : tensor<16xf32>, tensor<16xf32>
  %sum = ms.all_reduce %bucket : tensor<32xf32>
  %p = ms.slice %sum begin [0] end [16] strides [1] : tensor<32xf32>
  return %p, %e1 : tensor<16xf32>, tensor<4x4xf32>
}

// Collectives keep their order: the second bucket, ready first, stays
// after the first bucket's all_reduce (an op with side effects).
// CHECK-LABEL: func @collectives_keep_their_order
// CHECK: ms.exp %arg0
// CHECK-NEXT: %[[FIRST:.*]] = ms.all_reduce
// CHECK-NEXT: %[[SECOND:.*]] = ms.all_reduce %arg1
// CHECK-NEXT: ms.tanh
func.func @collectives_keep_their_order(%x: tensor<8xf32>, %y: tensor<8xf32>)
    -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %g = ms.exp %x : tensor<8xf32>
  %first = ms.all_reduce %g : tensor<8xf32>
  %t = ms.tanh %x : tensor<8xf32>
  %second = ms.all_reduce %y : tensor<8xf32>
  return %first, %second, %t : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// A feeder that something else also reads stays where it is, and the
// all_reduce goes no higher than it.
// CHECK-LABEL: func @shared_feeder_stays
// CHECK: ms.exp %arg0
// CHECK-NEXT: %[[R:.*]] = ms.reshape
// CHECK-NEXT: ms.all_reduce %[[R]]
// CHECK-NEXT: ms.tanh
func.func @shared_feeder_stays(%x: tensor<2x4xf32>)
    -> (tensor<8xf32>, tensor<8xf32>, tensor<2x4xf32>) {
  %g = ms.exp %x : tensor<2x4xf32>
  %r = ms.reshape %g to [8] : tensor<2x4xf32>
  %t = ms.tanh %x : tensor<2x4xf32>
  %s = ms.all_reduce %r : tensor<8xf32>
  return %s, %r, %t : tensor<8xf32>, tensor<8xf32>, tensor<2x4xf32>
}

// An all_reduce of an argument goes to the start of the function.
// CHECK-LABEL: func @argument_first
// CHECK-NEXT: ms.all_reduce %arg0
// CHECK-NEXT: ms.exp
func.func @argument_first(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = ms.exp %x : tensor<8xf32>
  %s = ms.all_reduce %x : tensor<8xf32>
  return %s, %e : tensor<8xf32>, tensor<8xf32>
}
