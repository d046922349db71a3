// The seed network (DESIGN §1): flatten, dense 784->512, relu, dense 512->512,
// relu, dense 512->10, on a [64, 1, 28, 28] input. Parameters are arguments
// tagged with their Cell path; locations carry the Cell path too.
//
//   ms-run examples/mlp.mlir --mode=graph --init-params=0 --print
func.func @construct(
    %x: tensor<64x1x28x28xf32>,
    %w0: tensor<512x784xf32> {ms.param = "dense_relu_sequential.0.weight"},
    %b0: tensor<512xf32> {ms.param = "dense_relu_sequential.0.bias"},
    %w2: tensor<512x512xf32> {ms.param = "dense_relu_sequential.2.weight"},
    %b2: tensor<512xf32> {ms.param = "dense_relu_sequential.2.bias"},
    %w4: tensor<10x512xf32> {ms.param = "dense_relu_sequential.4.weight"},
    %b4: tensor<10xf32> {ms.param = "dense_relu_sequential.4.bias"})
    -> tensor<64x10xf32> {
  %0 = ms.flatten %x : tensor<64x1x28x28xf32> loc("flatten")
  %1 = ms.dense %0, %w0, %b0 : tensor<64x784xf32>, tensor<512x784xf32>, tensor<512xf32> loc("dense_relu_sequential.0")
  %2 = ms.relu %1 : tensor<64x512xf32> loc("dense_relu_sequential.1")
  %3 = ms.dense %2, %w2, %b2 : tensor<64x512xf32>, tensor<512x512xf32>, tensor<512xf32> loc("dense_relu_sequential.2")
  %4 = ms.relu %3 : tensor<64x512xf32> loc("dense_relu_sequential.3")
  %5 = ms.dense %4, %w4, %b4 : tensor<64x512xf32>, tensor<10x512xf32>, tensor<10xf32> loc("dense_relu_sequential.4")
  return %5 : tensor<64x10xf32>
}
