func.func @construct(%x: tensor<4x?xf32>) -> tensor<4x?xf32> {
  return %x : tensor<4x?xf32>
}
