// A parameter tagged ms.packed by hand, its type left as the caller's: the
// runtime would pass a copy of another shape.
func.func @construct(%x: tensor<1x784xf32>, %w: tensor<128x784xf32> {ms.param = "fc.weight", ms.packed = "LAYOUT"}, %b: tensor<128xf32> {ms.param = "fc.bias"}) -> tensor<1x128xf32> {
  %0 = ms.dense %x, %w, %b : tensor<1x784xf32>, tensor<128x784xf32>, tensor<128xf32>
  return %0 : tensor<1x128xf32>
}
