// Two 128 MiB inputs broadcast to a 4 PiB result: rejected when compiling,
// in both modes, instead of aborting when the result is allocated.
func.func @construct(%a: tensor<33554432x1xf32>, %b: tensor<1x33554432xf32>) -> tensor<33554432x33554432xf32> {
  %0 = ms.add %a, %b : tensor<33554432x1xf32>, tensor<1x33554432xf32>
  return %0 : tensor<33554432x33554432xf32>
}
