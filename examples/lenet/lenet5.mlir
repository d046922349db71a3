// MindSpore's LeNet-5 (model zoo) for 32x32 Fashion-MNIST images, batch 64:
// conv 1->6 5x5 valid, relu, max pool 2; conv 6->16 5x5 valid, relu, max
// pool 2; flatten; dense 400->120, relu; dense 120->84, relu; dense 84->10.
// The convs have no bias (nn.Conv2d's has_bias=False). Weights trained by
// examples/lenet/train_torch.py. Evaluate the whole test set:
//
//   ms-run examples/lenet/lenet5.mlir --jit-level=O2 \
//     --params=examples/lenet/lenet5.safetensors \
//     --input=idx:/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz \
//     --eval-labels=/usr/share/datasets/fashion-mnist/t10k-labels-idx1-ubyte.gz
func.func @construct(
    %x: tensor<64x1x32x32xf32>,
    %c1: tensor<6x1x5x5xf32> {ms.param = "conv1.weight"},
    %c2: tensor<16x6x5x5xf32> {ms.param = "conv2.weight"},
    %w1: tensor<120x400xf32> {ms.param = "fc1.weight"},
    %b1: tensor<120xf32> {ms.param = "fc1.bias"},
    %w2: tensor<84x120xf32> {ms.param = "fc2.weight"},
    %b2: tensor<84xf32> {ms.param = "fc2.bias"},
    %w3: tensor<10x84xf32> {ms.param = "fc3.weight"},
    %b3: tensor<10xf32> {ms.param = "fc3.bias"})
    -> tensor<64x10xf32> {
  %0 = ms.conv2d %x, %c1 pad_mode "valid" : tensor<64x1x32x32xf32>, tensor<6x1x5x5xf32> loc("conv1")
  %1 = ms.relu %0 : tensor<64x6x28x28xf32> loc("relu")
  %2 = ms.max_pool2d %1 kernel_size [2, 2] stride [2, 2] : tensor<64x6x28x28xf32> loc("max_pool2d")
  %3 = ms.conv2d %2, %c2 pad_mode "valid" : tensor<64x6x14x14xf32>, tensor<16x6x5x5xf32> loc("conv2")
  %4 = ms.relu %3 : tensor<64x16x10x10xf32> loc("relu")
  %5 = ms.max_pool2d %4 kernel_size [2, 2] stride [2, 2] : tensor<64x16x10x10xf32> loc("max_pool2d")
  %6 = ms.flatten %5 : tensor<64x16x5x5xf32> loc("flatten")
  %7 = ms.dense %6, %w1, %b1 : tensor<64x400xf32>, tensor<120x400xf32>, tensor<120xf32> loc("fc1")
  %8 = ms.relu %7 : tensor<64x120xf32> loc("relu")
  %9 = ms.dense %8, %w2, %b2 : tensor<64x120xf32>, tensor<84x120xf32>, tensor<84xf32> loc("fc2")
  %10 = ms.relu %9 : tensor<64x84xf32> loc("relu")
  %11 = ms.dense %10, %w3, %b3 : tensor<64x84xf32>, tensor<10x84xf32>, tensor<10xf32> loc("fc3")
  return %11 : tensor<64x10xf32>
}
