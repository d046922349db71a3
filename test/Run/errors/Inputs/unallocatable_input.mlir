// An input of 2^50 f32 elements: 4 PiB, more than any x86-64 or AArch64
// process can map, though the size fits in int64.
func.func @construct(%x: tensor<1125899906842624xf32>) -> tensor<1125899906842624xf32> {
  %0 = ms.relu %x : tensor<1125899906842624xf32>
  return %0 : tensor<1125899906842624xf32>
}
