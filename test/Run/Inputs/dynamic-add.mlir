// Two ?-batch inputs (test/Run/dynamic-batch.test): one call must give
// them the same batch.
func.func @construct(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = ms.add %a, %b : tensor<?x4xf32>, tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
