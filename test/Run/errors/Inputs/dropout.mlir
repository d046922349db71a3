func.func @construct(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ms.dropout %x {training} : tensor<4xf32> loc("net.drop")
  return %0 : tensor<4xf32>
}
