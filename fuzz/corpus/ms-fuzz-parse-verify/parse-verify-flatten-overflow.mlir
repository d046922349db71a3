func.func @f(%x: tensor<2x4294967296x4294967296xf32>) -> tensor<2x0xf32> {
  %0 = ms.flatten %x : tensor<2x4294967296x4294967296xf32>
  return %0 : tensor<2x0xf32>
}
