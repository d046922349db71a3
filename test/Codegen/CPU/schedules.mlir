// ms-vectorize-convs and ms-vectorize-matmuls record the schedule they chose
// for each op in the function's discardable `ms.schedules` array, in the
// order they rewrote the ops: the conv strategy and tile (channel-lanes,
// pixel-lanes, flat-pixel-lanes, pooled), the matmul micro-tile, cache
// blocks and threads. Fixed targets, so the choices do not depend on the host.
// RUN: ms-opt %s --convert-ms-to-linalg="conv-as-matmul" --ms-vectorize-convs="vector-lanes=8 vector-registers=16" --split-input-file | FileCheck %s
// RUN: ms-opt %s --convert-ms-to-linalg="conv-as-matmul" --ms-vectorize-convs="vector-lanes=8 vector-registers=32" --split-input-file | FileCheck %s --check-prefix=WIDE
// RUN: ms-opt %s --convert-ms-to-linalg="conv-as-matmul" --ms-vectorize-convs="vector-lanes=8 vector-registers=16" --canonicalize --ms-vectorize-matmuls="num-threads=2 vector-lanes=8 vector-registers=16 l1-kib=32 l1-ways=8 l2-kib=512" --split-input-file | FileCheck %s --check-prefix=MATMUL

// LeNet's first conv: 6 channels fill no vector, rows of 28 in 16 lanes run
// over the flattened pixels, 6 channels a tile.
// CHECK-LABEL: func @lenet_conv1
// CHECK-SAME: ms.schedules = [{op = "conv", out = array<i64: 6, 28, 28>, strategy = "flat-pixel-lanes", tile = array<i64: 16, 6>}]
// WIDE-LABEL: func @lenet_conv1
// WIDE-SAME: strategy = "flat-pixel-lanes", tile = array<i64: 16, 6>
func.func @lenet_conv1(%x: tensor<1x1x32x32xf32>, %w: tensor<6x1x5x5xf32>) -> tensor<1x6x28x28xf32> {
  %0 = ms.conv2d %x, %w pad_mode "valid" : tensor<1x1x32x32xf32>, tensor<6x1x5x5xf32>
  return %0 : tensor<1x6x28x28xf32>
}

// -----

// A row of 14 fills 7/8 of 16 lanes: one masked tile per row.
// CHECK-LABEL: func @masked_rows
// CHECK-SAME: ms.schedules = [{op = "conv", out = array<i64: 7, 3, 14>, strategy = "pixel-lanes", tile = array<i64: 16, 6>}]
func.func @masked_rows(%x: tensor<1x2x5x16xf32>, %w: tensor<7x2x3x3xf32>) -> tensor<1x7x3x14xf32> {
  %0 = ms.conv2d %x, %w pad_mode "valid" : tensor<1x2x5x16xf32>, tensor<7x2x3x3xf32>
  return %0 : tensor<1x7x3x14xf32>
}

// -----

// 16 channels are two vectors: channels in the lanes, 6 pixels of a row a
// tile in 16 registers, the whole row of 10 in 32.
// CHECK-LABEL: func @lenet_conv2
// CHECK-SAME: ms.schedules = [{op = "conv", out = array<i64: 16, 10, 10>, strategy = "channel-lanes", tile = array<i64: 16, 6>}]
// WIDE-LABEL: func @lenet_conv2
// WIDE-SAME: strategy = "channel-lanes", tile = array<i64: 16, 10>
func.func @lenet_conv2(%x: tensor<1x6x14x14xf32>, %w: tensor<16x6x5x5xf32>) -> tensor<1x16x10x10xf32> {
  %0 = ms.conv2d %x, %w pad_mode "valid" : tensor<1x6x14x14xf32>, tensor<16x6x5x5xf32>
  return %0 : tensor<1x16x10x10xf32>
}

// -----

// LeNet's second block: conv, relu and a 2x2 max pool in the tiles, one
// window a tile in 16 registers, three in 32.
// CHECK-LABEL: func @lenet_conv2_pooled
// CHECK-SAME: ms.schedules = [{op = "conv", out = array<i64: 16, 10, 10>, strategy = "pooled", tile = array<i64: 16, 6>, window = array<i64: 2, 2>, windows_per_tile = 1 : i64}]
// WIDE-LABEL: func @lenet_conv2_pooled
// WIDE-SAME: strategy = "pooled", tile = array<i64: 16, 10>, window = array<i64: 2, 2>, windows_per_tile = 3 : i64
func.func @lenet_conv2_pooled(%x: tensor<2x6x14x14xf32>, %w: tensor<16x6x5x5xf32>) -> tensor<2x16x5x5xf32> {
  %0 = ms.conv2d %x, %w pad_mode "valid" : tensor<2x6x14x14xf32>, tensor<16x6x5x5xf32>
  %1 = ms.relu %0 : tensor<2x16x10x10xf32>
  %2 = ms.max_pool2d %1 kernel_size [2, 2] stride [2, 2] : tensor<2x16x10x10xf32>
  return %2 : tensor<2x16x5x5xf32>
}

// -----

// A conv that keeps its im2col matmul (strided rows, 4 channels) records
// nothing here; ms-vectorize-matmuls then records the matmul's schedule: with
// 4 rows (output channels), fewer than the 6x16 micro-tile's, the few-row
// tile (4 rows by 2 vectors of columns with 16 registers), one K block, no
// threads inside the conv's loop over the images, and tiles that start
// from zero (each image's output is a zero fill). A plain matmul gets the
// 6x16 micro-tile, K and column blocks, and splits its rows over 2 threads;
// its B's rows are 256 bytes apart, so a 256-row K block puts 16 lines in
// each of 16 sets of an 8-way L1, and B is read from a copy with rows of 80.
// CHECK-LABEL: func @im2col_and_matmul
// CHECK-NOT: ms.schedules
// MATMUL-LABEL: func @im2col_and_matmul
// MATMUL-SAME: ms.schedules = [{k_block = 9 : i64, micro_tile = array<i64: 4, 16>, n_block = 48 : i64, op = "matmul", shape = array<i64: 4, 48, 9>, threads = 1 : i64, unroll_k = 4 : i64, zero_start}, {k_block = 256 : i64, micro_tile = array<i64: 6, 16>, n_block = 64 : i64, op = "matmul", rhs_row_length = 80 : i64, shape = array<i64: 120, 64, 400>, threads = 2 : i64, unroll_k = 4 : i64}]
func.func @im2col_and_matmul(%x: tensor<2x1x5x34xf32>, %w: tensor<4x1x3x3xf32>, %a: tensor<120x400xf32>, %b: tensor<400x64xf32>) -> (tensor<2x4x3x16xf32>, tensor<120x64xf32>) {
  %0 = ms.conv2d %x, %w pad_mode "valid" stride [1, 2] : tensor<2x1x5x34xf32>, tensor<4x1x3x3xf32>
  %1 = ms.matmul %a, %b : tensor<120x400xf32>, tensor<400x64xf32>
  return %0, %1 : tensor<2x4x3x16xf32>, tensor<120x64xf32>
}

// -----

// A conv's filter gradient runs one matmul per image in a sequential loop
// over the batch, which carries the sum. LeNet-5's second conv: [16 x 100] x
// [100 x 150] is 0.24M multiply-adds an image, under the 1M that pays for
// a fork and join in every iteration, so it stays on one thread. An 18 x 18
// gradient ([16 x 324] x [324 x 150], 0.78M) stays too; a 32 x 32 one
// ([16 x 1024] x [1024 x 150], 2.5M) splits its rows over 2. Each is two
// matmuls: 150 columns are 18 vectors of 8 and a last vector of 8 from column
// 142 (chooseOverlappedColumnStart); the threads are chosen for each part.
// MATMUL-LABEL: func @filter_grads_in_batch_loop
// MATMUL-SAME: ms.schedules = [{{.*}}shape = array<i64: 16, 144, 100>, threads = 1 : i64{{.*}}}, {{{.*}}shape = array<i64: 16, 8, 100>, threads = 1 : i64{{.*}}}, {{{.*}}shape = array<i64: 16, 144, 324>, threads = 1 : i64{{.*}}}, {{{.*}}shape = array<i64: 16, 8, 324>, threads = 1 : i64{{.*}}}, {{{.*}}shape = array<i64: 16, 144, 1024>, threads = 2 : i64{{.*}}}, {{{.*}}shape = array<i64: 16, 8, 1024>, threads = 1 : i64{{.*}}}]
func.func @filter_grads_in_batch_loop(%dy: tensor<4x16x10x10xf32>, %x: tensor<4x6x14x14xf32>, %dy2: tensor<4x16x18x18xf32>, %x2: tensor<4x6x22x22xf32>, %dy3: tensor<4x16x32x32xf32>, %x3: tensor<4x6x36x36xf32>) -> (tensor<16x6x5x5xf32>, tensor<16x6x5x5xf32>, tensor<16x6x5x5xf32>) {
  %0 = ms.conv2d_backprop_filter %dy, %x shape [16, 6, 5, 5] pad_mode "valid" : tensor<4x16x10x10xf32>, tensor<4x6x14x14xf32>
  %1 = ms.conv2d_backprop_filter %dy2, %x2 shape [16, 6, 5, 5] pad_mode "valid" : tensor<4x16x18x18xf32>, tensor<4x6x22x22xf32>
  %2 = ms.conv2d_backprop_filter %dy3, %x3 shape [16, 6, 5, 5] pad_mode "valid" : tensor<4x16x32x32xf32>, tensor<4x6x36x36xf32>
  return %0, %1, %2 : tensor<16x6x5x5xf32>, tensor<16x6x5x5xf32>, tensor<16x6x5x5xf32>
}
