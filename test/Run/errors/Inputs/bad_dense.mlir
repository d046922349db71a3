func.func @construct(%x: tensor<4x8xf32>, %w: tensor<3x9xf32>) -> tensor<4x3xf32> {
  %0 = ms.dense %x, %w : tensor<4x8xf32>, tensor<3x9xf32>
  return %0 : tensor<4x3xf32>
}
