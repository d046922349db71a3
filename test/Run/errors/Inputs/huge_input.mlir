// An input whose element count overflows int64 (2^64 elements).
func.func @construct(%x: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> {
  %0 = ms.relu %x : tensor<4294967296x4294967296xf32>
  return %0 : tensor<4294967296x4294967296xf32>
}
