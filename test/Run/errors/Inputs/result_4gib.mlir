// Two 128 KiB inputs broadcast to a 4 GiB result: it fits the machine, so
// it compiles, and under a 2 GB address-space limit allocating it fails.
func.func @construct(%a: tensor<32768x1xf32>, %b: tensor<1x32768xf32>) -> tensor<32768x32768xf32> {
  %0 = ms.add %a, %b : tensor<32768x1xf32>, tensor<1x32768xf32>
  return %0 : tensor<32768x32768xf32>
}
