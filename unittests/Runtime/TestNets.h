//===- TestNets.h - Small networks the runtime tests compile ----*- C++ -*-===//
#ifndef MS_UNITTESTS_RUNTIME_TESTNETS_H
#define MS_UNITTESTS_RUNTIME_TESTNETS_H

/// relu(x @ w^T) on a [2, 3] input and a [4, 3] parameter.
inline constexpr const char *kNet = R"mlir(
func.func @construct(%x: tensor<2x3xf32>,
                     %w: tensor<4x3xf32> {ms.param = "fc.weight"})
    -> tensor<2x4xf32> {
  %0 = ms.dense %x, %w : tensor<2x3xf32>, tensor<4x3xf32>
  %1 = ms.relu %0 : tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
}
)mlir";

#endif // MS_UNITTESTS_RUNTIME_TESTNETS_H
