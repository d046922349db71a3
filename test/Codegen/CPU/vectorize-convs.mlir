// A unit-stride-width conv reads the image directly: register tiles of
// channels (6 with AVX2's 16 registers, up to 14 with AVX-512's 32) x 16
// pixels accumulate over (c, kh, kw) in order with one FMA per weight,
// starting from zeros. The pixels are those of one output row, or of the
// flattened rows when a row is longer than a vector that does not divide
// it. With output channels that fill whole vectors, the channels go in the
// lanes instead. The im2col copy and the matmul are gone either way. Other
// convs (strided columns, few channels and short rows) keep the im2col
// matmul.
// RUN: ms-opt %s --convert-ms-to-linalg="conv-as-matmul" --ms-vectorize-convs="vector-lanes=8 vector-registers=16" --canonicalize --cse --split-input-file | FileCheck %s
// RUN: ms-opt %s --convert-ms-to-linalg="conv-as-matmul" --ms-vectorize-convs="vector-lanes=8 vector-registers=32" --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=WIDE

// 30 columns, which 16 lanes do not divide: the tiles run over the 90
// flattened pixels, so a tile's lanes may continue on the next output row.
// A tile within one row reads one run of the [C, H*W] image per tap; one
// that spans two rows reads each row's run masked and merges them by a
// select. 5 whole tiles write unmasked, the last 10 pixels masked. 7
// channels: a 6-row tile and a 1-row one.
// CHECK-LABEL: func @flat_rows
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x5x32xf32>, %[[W:.*]]: tensor<7x2x3x3xf32>)
// CHECK-DAG: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK-DAG: %[[ALL:.*]] = arith.constant dense<true> : vector<16xi1>
// CHECK-DAG: %[[C93:.*]] = arith.constant 93 : index
// CHECK-DAG: %[[WEIGHTS:.*]] = tensor.collapse_shape %[[W]] {{\[}}[0], [1, 2, 3]] : tensor<7x2x3x3xf32> into tensor<7x18xf32>
// CHECK-DAG: %[[IMAGE:.*]] = tensor.extract_slice %[[X]]
// CHECK-DAG: %[[FLAT:.*]] = tensor.collapse_shape %[[IMAGE]] {{\[}}[0], [1, 2]] : tensor<2x5x32xf32> into tensor<2x160xf32>
// CHECK-NOT: linalg.
// CHECK: scf.for %[[P0:[[:alnum:]_]+]] = %{{.*}} to %[[C80:[[:alnum:]_]+]] step %[[C16:[[:alnum:]_]+]] iter_args(%[[OUT:[[:alnum:]_]+]] = %{{.*}}) -> (tensor<7x90xf32>)
// CHECK: %[[ROW:.*]] = arith.divui %[[P0]], %[[C30:[[:alnum:]_]+]] : index
// CHECK: %[[COL:.*]] = arith.remui %[[P0]], %[[C30]] : index
// CHECK: %[[HEAD_MASK:.*]] = vector.create_mask %{{.*}} : vector<16xi1>
// CHECK: %[[TAIL_MASK:.*]] = arith.xori %[[HEAD_MASK]], %[[ALL]] : vector<16xi1>
// The tail's start stays inside the 160-pixel image for every tap (the
// last tap is 2 rows and 2 columns on: 159 - 66).
// CHECK: %[[TAIL_BASE:.*]] = arith.minui %{{.*}}, %[[C93]] : index
// CHECK: %[[ONE_ROW:.*]] = arith.cmpi uge, %{{.*}}, %[[C16]] : index
// CHECK: scf.if %[[ONE_ROW]] -> (tensor<7x90xf32>) {
// CHECK: scf.for %[[CH:[[:alnum:]_]+]] = {{.*}} iter_args(%[[A0:[[:alnum:]_]+]] = %[[ZEROS]], %{{.*}} = %[[ZEROS]], %{{.*}} = %[[ZEROS]], %{{.*}} = %[[ZEROS]], %{{.*}} = %[[ZEROS]], %{{.*}} = %[[ZEROS]])
// CHECK: scf.for %{{.*}} iter_args(%[[ACC0:[[:alnum:]_]+]] = %[[A0]],
// CHECK: %[[PIX1:.*]] = vector.transfer_read %[[FLAT]][%[[CH]], %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<2x160xf32>, vector<16xf32>
// CHECK: %[[W00:.*]] = tensor.extract %[[WEIGHTS]][%{{.*}}, %{{.*}}] : tensor<7x18xf32>
// CHECK: %[[SPLAT:.*]] = vector.broadcast %[[W00]] : f32 to vector<16xf32>
// CHECK: math.fma %[[SPLAT]], %[[PIX1]], %[[ACC0]] : vector<16xf32>
// CHECK-COUNT-17: math.fma
// CHECK-NOT: arith.select
// CHECK-COUNT-6: vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %[[P0]]] {in_bounds = [true]} : vector<16xf32>, tensor<7x90xf32>
// CHECK: } else {
// CHECK: scf.for %[[CH2:[[:alnum:]_]+]] = {{.*}} iter_args(%[[B0:[[:alnum:]_]+]] = %[[ZEROS]],
// CHECK: scf.for %{{.*}} iter_args(%[[ACC1:[[:alnum:]_]+]] = %[[B0]],
// CHECK: %[[HEAD:.*]] = vector.transfer_read %[[FLAT]][%[[CH2]], %{{.*}}], %{{.*}}, %[[HEAD_MASK]] {in_bounds = [true]} : tensor<2x160xf32>, vector<16xf32>
// CHECK: %[[TAIL_START:.*]] = arith.addi %[[TAIL_BASE]], %{{.*}} : index
// CHECK: %[[TAIL:.*]] = vector.transfer_read %[[FLAT]][%[[CH2]], %[[TAIL_START]]], %{{.*}}, %[[TAIL_MASK]] {in_bounds = [true]} : tensor<2x160xf32>, vector<16xf32>
// CHECK: %[[PIXELS:.*]] = arith.select %[[HEAD_MASK]], %[[HEAD]], %[[TAIL]] : vector<16xi1>, vector<16xf32>
// CHECK: math.fma %{{.*}}, %[[PIXELS]], %[[ACC1]] : vector<16xf32>
// CHECK-COUNT-17: math.fma
// CHECK-COUNT-6: vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %[[P0]]] {in_bounds = [true]} : vector<16xf32>, tensor<7x90xf32>
// The last tile: pixels 80..89, all on the last row, so one run, its
// reads and writes masked to 10 lanes.
// CHECK: %[[M10R:.*]] = vector.constant_mask [10] : vector<16xi1>
// CHECK-NEXT: vector.transfer_read %[[FLAT]]{{.*}}, %[[M10R]] {in_bounds = [true]}
// CHECK-NOT: arith.select
// CHECK: %[[M10:.*]] = vector.constant_mask [10] : vector<16xi1>
// CHECK-COUNT-6: vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %[[C80]]], %[[M10]] {in_bounds = [true]}
// The seventh channel, one row, over the same tiles.
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C80]] step %[[C16]]
// CHECK: iter_args(%{{.*}} = %[[ZEROS]]) -> (vector<16xf32>)
// CHECK-NOT: linalg.
// CHECK: return
// With 32 registers (AVX-512) the 7 channels fit one tile.
// WIDE-LABEL: func @flat_rows
// WIDE: scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// WIDE-NOT: -> (vector<16xf32>)
// WIDE: return
func.func @flat_rows(%x: tensor<1x2x5x32xf32>, %w: tensor<7x2x3x3xf32>) -> tensor<1x7x3x30xf32> {
  %0 = ms.conv2d %x, %w pad_mode "valid" : tensor<1x2x5x32xf32>, tensor<7x2x3x3xf32>
  return %0 : tensor<1x7x3x30xf32>
}

// -----

// 14 columns, shorter than a vector: one masked 16-lane tile per output
// row. The reads past the 16-column image row and the writes past the 14
// output columns are masked off.
// CHECK-LABEL: func @masked_row
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x5x16xf32>, %[[W:.*]]: tensor<7x2x3x3xf32>)
// CHECK: %[[IMAGE:.*]] = tensor.extract_slice %[[X]]
// CHECK-NOT: linalg.
// CHECK: scf.for %[[OH:[[:alnum:]_]+]] =
// CHECK: scf.for %[[C:[[:alnum:]_]+]] = {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK: scf.for %[[KH:[[:alnum:]_]+]] =
// CHECK: %[[ROW:.*]] = arith.addi %[[OH]], %[[KH]] : index
// CHECK: vector.transfer_read %[[IMAGE]][%[[C]], %[[ROW]], %[[C0:[[:alnum:]_]+]]], %{{.*}} {in_bounds = [true]} : tensor<2x5x16xf32>, vector<16xf32>
// CHECK: %[[M15:.*]] = vector.constant_mask [15] : vector<16xi1>
// CHECK: vector.transfer_read %[[IMAGE]][%[[C]], %[[ROW]], %{{.*}}], %{{.*}}, %[[M15]] {in_bounds = [true]}
// CHECK: %[[M14R:.*]] = vector.constant_mask [14] : vector<16xi1>
// CHECK: vector.transfer_read %[[IMAGE]][%[[C]], %[[ROW]], %{{.*}}], %{{.*}}, %[[M14R]] {in_bounds = [true]}
// CHECK: scf.yield
// CHECK: scf.yield
// CHECK: %[[M14:.*]] = vector.constant_mask [14] : vector<16xi1>
// CHECK-COUNT-6: vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %[[OH]], %[[C0]]], %[[M14]] {in_bounds = [true]}
// CHECK: return
func.func @masked_row(%x: tensor<1x2x5x16xf32>, %w: tensor<7x2x3x3xf32>) -> tensor<1x7x3x14xf32> {
  %0 = ms.conv2d %x, %w pad_mode "valid" : tensor<1x2x5x16xf32>, tensor<7x2x3x3xf32>
  return %0 : tensor<1x7x3x14xf32>
}

// -----

// Stride 2 in height moves each output row's reads by 2 rows; dilation 2 in
// width moves each tap's read by 2 columns. The batch loop stays.
// CHECK-LABEL: func @strided_rows_dilated_columns
// CHECK: scf.forall (%[[N:.*]]) in (2)
// CHECK: %[[IMAGE:.*]] = tensor.extract_slice %{{.*}}[%[[N]], 0, 0, 0] [1, 1, 9, 20]
// CHECK: scf.for %[[OH:[[:alnum:]_]+]] =
// CHECK: %[[BASE:.*]] = arith.muli %[[OH]], %[[C2:[[:alnum:]_]+]] : index
// CHECK: scf.for %[[KH:[[:alnum:]_]+]] =
// CHECK: %[[ROW:.*]] = arith.addi %[[BASE]], %[[KH]] : index
// CHECK: vector.transfer_read %[[IMAGE]][%{{.*}}, %[[ROW]], %[[C0:[[:alnum:]_]+]]]{{.*}} : tensor<1x9x20xf32>, vector<16xf32>
// CHECK: vector.transfer_read %[[IMAGE]][%{{.*}}, %[[ROW]], %[[C2]]]{{.*}} : tensor<1x9x20xf32>, vector<16xf32>
// CHECK: vector.transfer_read %[[IMAGE]][%{{.*}}, %[[ROW]], %[[C4:[[:alnum:]_]+]]]{{.*}} : tensor<1x9x20xf32>, vector<16xf32>
// CHECK-NOT: linalg.matmul
func.func @strided_rows_dilated_columns(%x: tensor<2x1x9x20xf32>, %w: tensor<3x1x3x3xf32>) -> tensor<2x3x4x16xf32> {
  %0 = ms.conv2d %x, %w pad_mode "valid" stride [2, 1] dilation [1, 2] : tensor<2x1x9x20xf32>, tensor<3x1x3x3xf32>
  return %0 : tensor<2x3x4x16xf32>
}

// -----

// Stride 2 along the width: the columns are not a contiguous run, and 4
// channels do not fill a vector.
// CHECK-LABEL: func @strided_columns
// CHECK-NOT: vector.
// CHECK: linalg.matmul
func.func @strided_columns(%x: tensor<1x1x5x34xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x3x16xf32> {
  %0 = ms.conv2d %x, %w pad_mode "valid" stride [1, 2] : tensor<1x1x5x34xf32>, tensor<4x1x3x3xf32>
  return %0 : tensor<1x4x3x16xf32>
}

// -----

// 16 output channels fill a vector: the channels go in the lanes. The
// weights are transposed once to [K, O]; per tap, one weight vector times
// each of 6 pixels' image value (a tap's value is the next tap's neighbour,
// so CSE shares the broadcasts). 8 columns: a 6-pixel tile and a 2-pixel
// one.
// CHECK-LABEL: func @channel_lanes
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x4x9xf32>, %[[W:.*]]: tensor<16x2x2x2xf32>)
// CHECK: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK: %[[WEIGHTS:.*]] = tensor.collapse_shape %[[W]] {{.*}} into tensor<16x8xf32>
// CHECK: %[[WT:.*]] = linalg.transpose ins(%[[WEIGHTS]] : tensor<16x8xf32>) outs(%{{.*}} : tensor<8x16xf32>) permutation = [1, 0]
// CHECK: %[[IMAGE:.*]] = tensor.extract_slice %[[X]]
// CHECK-NOT: linalg.
// CHECK: scf.for %[[OH:[[:alnum:]_]+]] =
// CHECK: %[[PIXEL0:[[:alnum:]_]+]]:6 = scf.for %[[C:[[:alnum:]_]+]] = {{.*}} iter_args(%{{.*}} = %[[ZEROS]], %{{.*}} = %[[ZEROS]], %{{.*}} = %[[ZEROS]], %{{.*}} = %[[ZEROS]], %{{.*}} = %[[ZEROS]], %{{.*}} = %[[ZEROS]])
// CHECK: scf.for %[[KH:[[:alnum:]_]+]] = {{.*}} iter_args(%[[ACC0:[[:alnum:]_]+]] =
// CHECK: %[[ROW:.*]] = arith.addi %[[OH]], %[[KH]] : index
// CHECK: %[[TAP:.*]] = vector.transfer_read %[[WT]][%{{.*}}, %[[C0:[[:alnum:]_]+]]], %{{.*}} {in_bounds = [true]} : tensor<8x16xf32>, vector<16xf32>
// CHECK: %[[P0:.*]] = tensor.extract %[[IMAGE]][%[[C]], %[[ROW]], %[[C0]]] : tensor<2x4x9xf32>
// CHECK: %[[SPLAT:.*]] = vector.broadcast %[[P0]] : f32 to vector<16xf32>
// CHECK: math.fma %[[TAP]], %[[SPLAT]], %[[ACC0]] : vector<16xf32>
// CHECK-COUNT-11: math.fma
// The 6 pixel vectors and 10 zero ones are transposed as a 16x16 square in
// 4 rounds of 16 shuffles (those of two zero vectors fold away); pixel 0's
// vector pairs with zeros first. Then each channel's 6 pixels are one
// masked write.
// CHECK: vector.shuffle %[[PIXEL0]]#0, %[[ZEROS]] [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23] : vector<16xf32>, vector<16xf32>
// CHECK-COUNT-59: vector.shuffle
// CHECK-NOT: vector.shuffle
// CHECK: %[[M6:.*]] = vector.constant_mask [6] : vector<16xi1>
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%[[C0]], %[[OH]], %[[C0]]], %[[M6]] {in_bounds = [true]} : vector<16xf32>, tensor<16x3x8xf32>
// CHECK-COUNT-15: vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %[[OH]], %[[C0]]], %[[M6]] {in_bounds = [true]}
// The 2-pixel tile: its 2 pixels per channel go to column 6.
// CHECK: iter_args(%{{.*}} = %[[ZEROS]], %{{.*}} = %[[ZEROS]]) -> (vector<16xf32>, vector<16xf32>)
// CHECK-COUNT-44: vector.shuffle
// CHECK-NOT: vector.shuffle
// CHECK: %[[M2:.*]] = vector.constant_mask [2] : vector<16xi1>
// CHECK-COUNT-16: vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %[[OH]], %[[C6:[[:alnum:]_]+]]], %[[M2]] {in_bounds = [true]}
// CHECK-NOT: linalg.
// CHECK: return
// With 32 registers the row's 8 pixels fit one tile.
// WIDE-LABEL: func @channel_lanes
// WIDE: scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// WIDE-COUNT-64: vector.shuffle
// WIDE-COUNT-16: vector.transfer_write
// WIDE-NOT: vector.transfer_write
// WIDE: return
func.func @channel_lanes(%x: tensor<1x2x4x9xf32>, %w: tensor<16x2x2x2xf32>) -> tensor<1x16x3x8xf32> {
  %0 = ms.conv2d %x, %w pad_mode "valid" : tensor<1x2x4x9xf32>, tensor<16x2x2x2xf32>
  return %0 : tensor<1x16x3x8xf32>
}

// -----

// 4 channels do not fill a vector, and 10 columns fill only 10 of 16
// pixel lanes; im2col wastes none.
// CHECK-LABEL: func @short_rows
// CHECK-NOT: vector.
// CHECK: linalg.matmul
func.func @short_rows(%x: tensor<1x6x14x14xf32>, %w: tensor<4x6x5x5xf32>) -> tensor<1x4x10x10xf32> {
  %0 = ms.conv2d %x, %w pad_mode "valid" : tensor<1x6x14x14xf32>, tensor<4x6x5x5xf32>
  return %0 : tensor<1x4x10x10xf32>
}

// -----

// A matmul that is not an im2col conv is left alone.
// CHECK-LABEL: func @plain_matmul
// CHECK-NOT: vector.
// CHECK: linalg.matmul
func.func @plain_matmul(%a: tensor<6x25xf32>, %b: tensor<25x32xf32>) -> tensor<6x32xf32> {
  %0 = ms.matmul %a, %b : tensor<6x25xf32>, tensor<25x32xf32>
  return %0 : tensor<6x32xf32>
}

// -----

// Weights of unknown size: left alone, not a crash.
#image = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 + d3, d2 + d4)>
#windows = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func @dynamic_weights
// CHECK-NOT: vector.
// CHECK: linalg.matmul
func.func @dynamic_weights(%x: tensor<1x6x18xf32>, %w: tensor<?x9xf32>, %init: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %e = tensor.empty() : tensor<1x3x3x4x16xf32>
  %win = linalg.generic {indexing_maps = [#image, #windows], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x6x18xf32>) outs(%e : tensor<1x3x3x4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x3x3x4x16xf32>
  %cols = tensor.collapse_shape %win [[0, 1, 2], [3, 4]] : tensor<1x3x3x4x16xf32> into tensor<9x64xf32>
  %p = linalg.matmul ins(%w, %cols : tensor<?x9xf32>, tensor<9x64xf32>) outs(%init : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %p : tensor<?x64xf32>
}

// -----

// A product that was not zero-filled: each channel-lane accumulator starts
// from the product's values at its pixel, read along the channels.
#image2 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 + d3, d2 + d4)>
#windows2 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func @accumulate_into
// CHECK-SAME: %[[INIT:[[:alnum:]_]+]]: tensor<16x4xf32>)
// CHECK: %[[ROWS:.*]] = tensor.expand_shape %[[INIT]] {{\[}}[0], [1, 2]] output_shape [16, 2, 2] : tensor<16x4xf32> into tensor<16x2x2xf32>
// CHECK: scf.for %[[OH:[[:alnum:]_]+]] = {{.*}} iter_args(%[[OUT:[[:alnum:]_]+]] = %[[ROWS]])
// CHECK: %[[START:.*]] = vector.transfer_read %[[OUT]][%{{.*}}, %[[OH]], %{{.*}}], %{{.*}} {in_bounds = [true], permutation_map = #{{.*}}} : tensor<16x2x2xf32>, vector<16xf32>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[START]],
// CHECK-NOT: linalg.matmul
func.func @accumulate_into(%x: tensor<1x3x3xf32>, %w: tensor<16x4xf32>, %init: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %e = tensor.empty() : tensor<1x2x2x2x2xf32>
  %win = linalg.generic {indexing_maps = [#image2, #windows2], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x3x3xf32>) outs(%e : tensor<1x2x2x2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x2x2x2x2xf32>
  %cols = tensor.collapse_shape %win [[0, 1, 2], [3, 4]] : tensor<1x2x2x2x2xf32> into tensor<4x4xf32>
  %p = linalg.matmul ins(%w, %cols : tensor<16x4xf32>, tensor<4x4xf32>) outs(%init : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %p : tensor<16x4xf32>
}

// -----

// relu then a 2x2 max pool of a channel-lane conv: one loop over the images
// writes the pooled images, its tiles covering whole windows: 2 conv rows x
// 2 pixels (4 accumulators in 16 registers, with 16 lanes two registers
// each), summed as above, each window combined by maximumf with the nsz flag
// (the relu erases the sign of zero), the relu applied once (plain
// maximumf), and the pooled pixel written
// through the transpose. No conv image, relu or pool remains.
// CHECK-LABEL: func @channel_lanes_pooled
// CHECK-SAME: (%[[X:.*]]: tensor<2x2x6x10xf32>, %[[W:.*]]: tensor<16x2x3x3xf32>)
// CHECK: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK: %[[WT:.*]] = linalg.transpose
// CHECK-NOT: linalg.
// CHECK: scf.forall (%[[N:.*]]) in (2) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<2x16x2x4xf32>)
// CHECK: %[[IMAGE:.*]] = tensor.extract_slice %[[X]][%[[N]], 0, 0, 0] [1, 2, 6, 10] [1, 1, 1, 1] : tensor<2x2x6x10xf32> to tensor<2x6x10xf32>
// CHECK: scf.for %[[PR:[[:alnum:]_]+]] = {{.*}} -> (tensor<16x2x4xf32>)
// CHECK: scf.for %[[PC:[[:alnum:]_]+]] = {{.*}} -> (tensor<16x2x4xf32>)
// CHECK: %[[ROW0:.*]] = arith.muli %[[PR]], %[[C2:[[:alnum:]_]+]] : index
// CHECK: %[[COL0:.*]] = arith.muli %[[PC]], %[[C2]] : index
// CHECK: %[[COL1:.*]] = arith.addi %[[COL0]], %[[C1:[[:alnum:]_]+]] : index
// CHECK: %[[ROW1:.*]] = arith.addi %[[ROW0]], %[[C1]] : index
// CHECK: %[[SUMS:.*]]:4 = scf.for %[[C:[[:alnum:]_]+]] = {{.*}} iter_args(%{{.*}} = %[[ZEROS]], %{{.*}} = %[[ZEROS]], %{{.*}} = %[[ZEROS]], %{{.*}} = %[[ZEROS]])
// CHECK: scf.for %[[KH:[[:alnum:]_]+]] =
// CHECK: %[[TAPROW0:.*]] = arith.addi %[[ROW0]], %[[KH]] : index
// CHECK: %[[TAPROW1:.*]] = arith.addi %[[ROW1]], %[[KH]] : index
// CHECK: tensor.extract %[[IMAGE]][%[[C]], %[[TAPROW0]], %[[COL0]]]
// CHECK: tensor.extract %[[IMAGE]][%[[C]], %[[TAPROW0]], %[[COL1]]]
// CHECK: tensor.extract %[[IMAGE]][%[[C]], %[[TAPROW1]], %[[COL0]]]
// CHECK: tensor.extract %[[IMAGE]][%[[C]], %[[TAPROW1]], %[[COL1]]]
// CHECK-COUNT-9: math.fma
// CHECK-NOT: math.fma
// CHECK: %[[M01:.*]] = arith.maximumf %[[SUMS]]#0, %[[SUMS]]#1 fastmath<nsz> : vector<16xf32>
// CHECK: %[[M012:.*]] = arith.maximumf %[[M01]], %[[SUMS]]#2 fastmath<nsz> : vector<16xf32>
// CHECK: %[[WINDOW:.*]] = arith.maximumf %[[M012]], %[[SUMS]]#3 fastmath<nsz> : vector<16xf32>
// CHECK: %[[RELU:.*]] = arith.maximumf %[[WINDOW]], %[[ZEROS]] : vector<16xf32>
// CHECK: vector.shuffle %[[RELU]], %[[ZEROS]]
// CHECK: %[[M1:.*]] = vector.constant_mask [1] : vector<16xi1>
// CHECK-COUNT-16: vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %[[PR]], %[[PC]]], %[[M1]] {in_bounds = [true]} : vector<16xf32>, tensor<16x2x4xf32>
// CHECK: tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%[[N]], 0, 0, 0] [1, 16, 2, 4] [1, 1, 1, 1] : tensor<1x16x2x4xf32> into tensor<2x16x2x4xf32>
// CHECK-NOT: linalg.
// CHECK: return
// With 32 registers a tile holds 3 windows of a row (12 accumulators), then
// a 1-window tile for the 4th.
// WIDE-LABEL: func @channel_lanes_pooled
// WIDE: scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// WIDE-COUNT-3: arith.maximumf %{{[^ ]*}}, %{{[^ ]*}} : vector<16xf32>
// WIDE: %[[M3:.*]] = vector.constant_mask [3] : vector<16xi1>
// WIDE-COUNT-16: vector.transfer_write {{.*}}, %[[M3]]
// WIDE: scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// WIDE-COUNT-1: arith.maximumf %{{[^ ]*}}, %{{[^ ]*}} : vector<16xf32>
// WIDE-NOT: arith.maximumf %{{[^ ]*}}, %{{[^ ]*}} : vector<16xf32>
// WIDE: return
func.func @channel_lanes_pooled(%x: tensor<2x2x6x10xf32>, %w: tensor<16x2x3x3xf32>) -> tensor<2x16x2x4xf32> {
  %0 = ms.conv2d %x, %w pad_mode "valid" : tensor<2x2x6x10xf32>, tensor<16x2x3x3xf32>
  %1 = ms.relu %0 : tensor<2x16x4x8xf32>
  %2 = ms.max_pool2d %1 kernel_size [2, 2] stride [2, 2] : tensor<2x16x4x8xf32>
  return %2 : tensor<2x16x2x4xf32>
}

// -----

// Not pooled in the tiles: overlapping windows (3x3 at stride 2), an add of
// a whole tensor (not a per-channel vector) between conv and pool, a relu
// whose result is also returned, and a sigmoid (its exp is a libm call in
// every mode, not vector arithmetic). The convs are channel-lane tiles as
// usual and the elementwise ops and pools stay generics.
// CHECK-LABEL: func @pools_kept
// CHECK: scf.forall {{.*}} -> (tensor<2x16x4x8xf32>)
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: scf.forall {{.*}} -> (tensor<2x16x4x8xf32>)
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: scf.forall {{.*}} -> (tensor<2x16x4x8xf32>)
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: scf.forall {{.*}} -> (tensor<2x16x4x8xf32>)
// CHECK: math.exp
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @pools_kept(%x: tensor<2x2x6x10xf32>, %w: tensor<16x2x3x3xf32>, %w2: tensor<16x2x3x3xf32>, %w3: tensor<16x2x3x3xf32>, %y: tensor<2x16x4x8xf32>, %w4: tensor<16x2x3x3xf32>) -> (tensor<2x16x1x3xf32>, tensor<2x16x2x4xf32>, tensor<2x16x2x4xf32>, tensor<2x16x4x8xf32>, tensor<2x16x2x4xf32>) {
  %0 = ms.conv2d %x, %w pad_mode "valid" : tensor<2x2x6x10xf32>, tensor<16x2x3x3xf32>
  %1 = ms.relu %0 : tensor<2x16x4x8xf32>
  %2 = ms.max_pool2d %1 kernel_size [3, 3] stride [2, 2] : tensor<2x16x4x8xf32>
  %3 = ms.conv2d %x, %w2 pad_mode "valid" : tensor<2x2x6x10xf32>, tensor<16x2x3x3xf32>
  %s = ms.add %3, %y : tensor<2x16x4x8xf32>, tensor<2x16x4x8xf32>
  %4 = ms.max_pool2d %s kernel_size [2, 2] stride [2, 2] : tensor<2x16x4x8xf32>
  %5 = ms.conv2d %x, %w3 pad_mode "valid" : tensor<2x2x6x10xf32>, tensor<16x2x3x3xf32>
  %6 = ms.relu %5 : tensor<2x16x4x8xf32>
  %7 = ms.max_pool2d %6 kernel_size [2, 2] stride [2, 2] : tensor<2x16x4x8xf32>
  %8 = ms.conv2d %x, %w4 pad_mode "valid" : tensor<2x2x6x10xf32>, tensor<16x2x3x3xf32>
  %9 = ms.sigmoid %8 : tensor<2x16x4x8xf32>
  %10 = ms.max_pool2d %9 kernel_size [2, 2] stride [2, 2] : tensor<2x16x4x8xf32>
  return %2, %4, %7, %6, %10 : tensor<2x16x1x3xf32>, tensor<2x16x2x4xf32>, tensor<2x16x2x4xf32>, tensor<2x16x4x8xf32>, tensor<2x16x2x4xf32>
}

// -----

// Per-channel elementwise ops between conv and pool run on each accumulator
// as the generics would run them on each element: the bias and batch_norm
// parameters read once per tile as vectors of the tile's channels, the
// batch_norm arithmetic in its order, then the window's max ignoring zero
// signs and the relu once. A pool right after the conv combines with exact
// maximumf (no relu to erase the sign of zero).
// CHECK-LABEL: func @channelwise_pooled
// CHECK-SAME: (%[[X:.*]]: tensor<2x2x6x10xf32>, %[[W:.*]]: tensor<16x2x3x3xf32>, %[[B:.*]]: tensor<16xf32>, %[[G:.*]]: tensor<16xf32>, %[[BE:.*]]: tensor<16xf32>, %[[M:.*]]: tensor<16xf32>, %[[V:.*]]: tensor<16xf32>, %[[W2:.*]]: tensor<16x2x3x3xf32>)
// CHECK-DAG: %[[EPS:.*]] = arith.constant dense<9.99999974E-6> : vector<16xf32>
// CHECK-DAG: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK-DAG: %[[BIAS:.*]] = tensor.expand_shape %[[B]]
// CHECK-DAG: %[[MEAN:.*]] = tensor.expand_shape %[[M]]
// CHECK-DAG: %[[VAR:.*]] = tensor.expand_shape %[[V]]
// CHECK: scf.forall {{.*}} -> (tensor<2x16x2x4xf32>)
// CHECK: %[[SUMS:.*]]:4 = scf.for
// CHECK: %[[BIASV:.*]] = vector.transfer_read %[[BIAS]]
// CHECK: %[[MEANV:.*]] = vector.transfer_read %[[MEAN]]
// CHECK: %[[VARV:.*]] = vector.transfer_read %[[VAR]]
// CHECK: %[[GAMMAV:.*]] = vector.transfer_read
// CHECK: %[[BETAV:.*]] = vector.transfer_read
// CHECK: %[[Y0:.*]] = arith.addf %[[SUMS]]#0, %[[BIASV]] : vector<16xf32>
// CHECK: %[[C0:.*]] = arith.subf %[[Y0]], %[[MEANV]] : vector<16xf32>
// CHECK: %[[VE:.*]] = arith.addf %[[VARV]], %[[EPS]] : vector<16xf32>
// CHECK: %[[SD:.*]] = math.sqrt %[[VE]] : vector<16xf32>
// CHECK: %[[N0:.*]] = arith.divf %[[C0]], %[[SD]] : vector<16xf32>
// CHECK: %[[S0:.*]] = arith.mulf %[[N0]], %[[GAMMAV]] : vector<16xf32>
// CHECK: %[[BN0:.*]] = arith.addf %[[S0]], %[[BETAV]] : vector<16xf32>
// CHECK-COUNT-3: arith.divf
// CHECK: %[[M01:.*]] = arith.maximumf %[[BN0]], %{{.*}} fastmath<nsz> : vector<16xf32>
// CHECK-COUNT-2: arith.maximumf %{{.*}} fastmath<nsz>
// CHECK: arith.maximumf %{{[^ ]*}}, %[[ZEROS]] : vector<16xf32>
// CHECK: scf.forall {{.*}} -> (tensor<2x16x2x4xf32>)
// CHECK: %[[SUMS2:.*]]:4 = scf.for
// CHECK: %[[P01:.*]] = arith.maximumf %[[SUMS2]]#0, %[[SUMS2]]#1 : vector<16xf32>
// CHECK: %[[P012:.*]] = arith.maximumf %[[P01]], %[[SUMS2]]#2 : vector<16xf32>
// CHECK: %[[P:.*]] = arith.maximumf %[[P012]], %[[SUMS2]]#3 : vector<16xf32>
// CHECK-NOT: arith.maximumf
// CHECK: vector.shuffle %[[P]], %[[ZEROS]]
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @channelwise_pooled(%x: tensor<2x2x6x10xf32>, %w: tensor<16x2x3x3xf32>, %b: tensor<16xf32>, %g: tensor<16xf32>, %be: tensor<16xf32>, %m: tensor<16xf32>, %v: tensor<16xf32>, %w2: tensor<16x2x3x3xf32>) -> (tensor<2x16x2x4xf32>, tensor<2x16x2x4xf32>) {
  %0 = ms.conv2d %x, %w, %b pad_mode "valid" : tensor<2x2x6x10xf32>, tensor<16x2x3x3xf32>, tensor<16xf32>
  %1 = ms.batch_norm %0, %g, %be, %m, %v : tensor<2x16x4x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
  %2 = ms.relu %1 : tensor<2x16x4x8xf32>
  %3 = ms.max_pool2d %2 kernel_size [2, 2] stride [2, 2] : tensor<2x16x4x8xf32>
  %4 = ms.conv2d %x, %w2 pad_mode "valid" : tensor<2x2x6x10xf32>, tensor<16x2x3x3xf32>
  %5 = ms.max_pool2d %4 kernel_size [2, 2] stride [2, 2] : tensor<2x16x4x8xf32>
  return %3, %5 : tensor<2x16x2x4xf32>, tensor<2x16x2x4xf32>
}

// -----

// Each kw of the kernel is unrolled into the tile, so a kernel wider than
// kMaxUnrolledTaps (64) keeps the im2col matmul: compile time must not grow
// with the kernel. 64 wide is read directly, 65 wide is not.
// CHECK-LABEL: func @kernel_width_bound
// CHECK-COUNT-1: linalg.matmul
// CHECK-NOT: linalg.matmul
// CHECK: return
func.func @kernel_width_bound(%x: tensor<1x2x4x80xf32>, %w64: tensor<8x2x1x64xf32>, %w65: tensor<8x2x1x65xf32>) -> (tensor<1x8x4x17xf32>, tensor<1x8x4x16xf32>) {
  %0 = ms.conv2d %x, %w64 pad_mode "valid" : tensor<1x2x4x80xf32>, tensor<8x2x1x64xf32>
  %1 = ms.conv2d %x, %w65 pad_mode "valid" : tensor<1x2x4x80xf32>, tensor<8x2x1x65xf32>
  return %0, %1 : tensor<1x8x4x17xf32>, tensor<1x8x4x16xf32>
}
