// A parameter whose element count overflows int64, and one that cannot be
// allocated; --init-params must report them, not abort.
func.func @construct(%x: tensor<2x4xf32>,
    %w: tensor<4294967296x4294967296xf32> {ms.param = "fc.weight"})
    -> tensor<2x4xf32> {
  return %x : tensor<2x4xf32>
}
func.func @big(%x: tensor<2x4xf32>,
    %w: tensor<33554432x33554432xf32> {ms.param = "fc.weight"})
    -> tensor<2x4xf32> {
  return %x : tensor<2x4xf32>
}
