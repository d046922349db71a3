// A pool whose "same" padding makes a 32 GiB copy of a 4x4 image.
func.func @construct(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  %0 = ms.max_pool2d %x kernel_size [2147483647, 1] stride [2, 2] pad_mode "same" : tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x2x2xf32>
}
