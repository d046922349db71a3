func.func @construct(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
