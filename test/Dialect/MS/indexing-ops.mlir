// Round trip of the indexing, comparison, logical, select and cast ops in
// their custom and generic forms.
// RUN: ms-opt %s | ms-opt | FileCheck %s
// RUN: ms-opt %s --mlir-print-op-generic | ms-opt | FileCheck %s

// CHECK-LABEL: func @indexing
func.func @indexing(%l: tensor<64xi32>, %m: tensor<2x3xi64>, %x: tensor<64x10xf32>, %i: tensor<4x5xi32>) {
  // CHECK: ms.one_hot %{{.*}} depth 10 : tensor<64xi32>
  %0 = ms.one_hot %l depth 10 : tensor<64xi32>
  // CHECK: ms.one_hot %{{.*}} depth 4 axis 0 on_value 5.000000e-01 off_value -1.000000e+00 : tensor<2x3xi64>
  %1 = ms.one_hot %m depth 4 axis 0 on_value 0.5 off_value -1.0 : tensor<2x3xi64>
  // CHECK: ms.argmax %{{.*}} axis 1 output_type i64 : tensor<64x10xf32>
  %2 = ms.argmax %x axis 1 output_type i64 : tensor<64x10xf32>
  // CHECK: ms.argmin %{{.*}} keep_dims output_type i32 : tensor<4x5xi32>
  %3 = ms.argmin %i keep_dims output_type i32 : tensor<4x5xi32>
  // CHECK: ms.argmax %{{.*}} axis 0 output_type i32 : tensor<4x5xi32>
  %4 = ms.argmax %i axis 0 output_type i32 : tensor<4x5xi32>
  return
}

// CHECK-LABEL: func @logical
func.func @logical(%x: tensor<64x10xf32>, %y: tensor<10xf32>, %a: tensor<4xi64>, %b: tensor<i64>, %c: tensor<4xi1>) {
  // CHECK: ms.equal %{{.*}}, %{{.*}} : tensor<64x10xf32>, tensor<10xf32>
  %0 = ms.equal %x, %y : tensor<64x10xf32>, tensor<10xf32>
  // CHECK: ms.not_equal %{{.*}}, %{{.*}} : tensor<4xi64>, tensor<i64>
  %1 = ms.not_equal %a, %b : tensor<4xi64>, tensor<i64>
  // CHECK: ms.greater %{{.*}}, %{{.*}} : tensor<64x10xf32>, tensor<10xf32>
  %2 = ms.greater %x, %y : tensor<64x10xf32>, tensor<10xf32>
  // CHECK: ms.greater_equal %{{.*}}, %{{.*}} : tensor<4xi64>, tensor<i64>
  %3 = ms.greater_equal %a, %b : tensor<4xi64>, tensor<i64>
  // CHECK: ms.less %{{.*}}, %{{.*}} : tensor<4xi1>, tensor<4xi1>
  %4 = ms.less %c, %c : tensor<4xi1>, tensor<4xi1>
  // CHECK: ms.less_equal %{{.*}}, %{{.*}} : tensor<64x10xf32>, tensor<10xf32>
  %5 = ms.less_equal %x, %y : tensor<64x10xf32>, tensor<10xf32>
  // CHECK: ms.logical_and %{{.*}}, %{{.*}} : tensor<64x10xi1>, tensor<64x10xi1>
  %6 = ms.logical_and %0, %2 : tensor<64x10xi1>, tensor<64x10xi1>
  // CHECK: ms.logical_or %{{.*}}, %{{.*}} : tensor<4xi1>, tensor<4xi1>
  %7 = ms.logical_or %1, %3 : tensor<4xi1>, tensor<4xi1>
  // CHECK: ms.logical_not %{{.*}} : tensor<64x10xi1>
  %8 = ms.logical_not %6 : tensor<64x10xi1>
  // CHECK: ms.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x10xi1>, tensor<64x10xf32>, tensor<10xf32>
  %9 = ms.select %8, %x, %y : tensor<64x10xi1>, tensor<64x10xf32>, tensor<10xf32>
  // CHECK: ms.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
  %10 = ms.select %c, %c, %7 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
  // CHECK: ms.cast %{{.*}} to i32 : tensor<64x10xf32>
  %11 = ms.cast %x to i32 : tensor<64x10xf32>
  // CHECK: ms.cast %{{.*}} to f32 : tensor<4xi1>
  %12 = ms.cast %c to f32 : tensor<4xi1>
  // CHECK: ms.cast %{{.*}} to i1 : tensor<4xi64>
  %13 = ms.cast %a to i1 : tensor<4xi64>
  return
}
