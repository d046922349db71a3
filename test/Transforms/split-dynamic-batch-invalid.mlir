// Every error of ms-split-dynamic-batch: rows that would mix, ? dims that
// are not the batch, bad options. (ms-to-linalg's error for a ? that
// reaches it is in test/Conversion/dynamic-shapes-invalid.mlir.)
// RUN: ms-opt %s --ms-split-dynamic-batch -split-input-file -verify-diagnostics
// RUN: not ms-opt %S/split-dynamic-batch.mlir --ms-split-dynamic-batch="batch-tiles=4,2" 2>&1 | FileCheck %s --check-prefix=TILES
// TILES: ms-split-dynamic-batch: batch-tiles must be positive, decreasing, and end in 1

func.func @reduce_batch(%x: tensor<?x4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'ms.reduce_sum' op mixes the rows of the ? batch dim (it reduces over the batch); a ?-batch function must treat rows independently}}
  %0 = ms.reduce_sum %x axes [0] : tensor<?x4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @softmax_batch(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error@+1 {{'ms.softmax' op mixes the rows of the ? batch dim (it works along the batch dim)}}
  %0 = ms.softmax %x axis 0 : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @transpose_batch(%x: tensor<?x4xf32>) -> tensor<4x?xf32> {
  // expected-error@+1 {{'ms.transpose' op mixes the rows of the ? batch dim (it moves the batch dim)}}
  %0 = ms.transpose %x perm [1, 0] : tensor<?x4xf32>
  return %0 : tensor<4x?xf32>
}

// -----

func.func @reshape_rows(%x: tensor<?x4xf32>) -> tensor<?x2xf32> {
  // expected-error@+1 {{'ms.reshape' op mixes the rows of the ? batch dim (it moves elements across rows of the batch)}}
  %0 = ms.reshape %x to [-1, 2] : tensor<?x4xf32>
  return %0 : tensor<?x2xf32>
}

// -----

func.func @concat_batch(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error@+1 {{'ms.concat' op mixes the rows of the ? batch dim (it concatenates along the batch)}}
  %0 = ms.concat %x, %x axis 0 : tensor<?x4xf32>, tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// expected-error@+1 {{argument 1 has type 'tensor<4x?xf32>'; only the leading (batch) dim of an input may be ?}}
func.func @matmul_rhs(%w: tensor<3x4xf32>, %x: tensor<4x?xf32>) -> tensor<3x?xf32> {
  %0 = ms.matmul %w, %x : tensor<3x4xf32>, tensor<4x?xf32>
  return %0 : tensor<3x?xf32>
}

// -----

func.func @matmul_transpose_a(%x: tensor<?x4xf32>, %w: tensor<5x3xf32>) -> tensor<4x3xf32> {
  // expected-error@+1 {{'ms.matmul' op mixes the rows of the ? batch dim (transpose_a makes the batch the contraction dim)}}
  %0 = "ms.matmul"(%x, %w) {transpose_a} : (tensor<?x4xf32>, tensor<5x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// expected-error@+1 {{parameter argument 1 has a ? dim; parameters are static}}
func.func @param(%x: tensor<?x4xf32>, %w: tensor<?x4xf32> {ms.param = "w"}) -> tensor<?x4xf32> {
  %0 = ms.add %x, %w : tensor<?x4xf32>, tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @unbatched_result(%x: tensor<?x4xf32>, %w: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{result of type 'tensor<4xf32>' does not depend on the ? batch}}
  return %w : tensor<4xf32>
}

// -----

func.func @dropout_training(%x: tensor<?x4xf32>, %s: tensor<2xi64>) -> tensor<?x4xf32> {
  // expected-error@+1 {{'ms.dropout' op mixes the rows of the ? batch dim (training dropout numbers elements across the batch)}}
  %0 = ms.dropout %x, %s {p = 5.000000e-01 : f32, training} : tensor<?x4xf32>, tensor<2xi64>
  return %0 : tensor<?x4xf32>
}

// -----

// Ops whose shape rules take no ? yet say so.
func.func @static_only_op(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error@+1 {{'ms.cumsum' op input must have a static shape, got 'tensor<?x4xf32>'}}
  %0 = ms.cumsum %x axis 1 : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
