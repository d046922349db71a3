// An input whose element count overflows int64 (2^64 elements). No op uses
// it (ops verify that their operands' sizes fit), but ms-run still has to
// make a tensor for it.
func.func @construct(%x: tensor<4294967296x4294967296xf32>, %y: tensor<2xf32>) -> tensor<2xf32> {
  %0 = ms.relu %y : tensor<2xf32>
  return %0 : tensor<2xf32>
}
