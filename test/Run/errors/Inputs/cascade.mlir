// A parse error the parser's recovery reports again ("expected ']'").
func.func @construct(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = ms.max_pool2d %x kernel_size [99999999999999999999, 1] : tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}
