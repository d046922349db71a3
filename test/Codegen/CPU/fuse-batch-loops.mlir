// Batch loops (one whole image inserted per iteration) grow: a generic that
// reads their result along a parallel batch dimension moves in, tiled to
// that image (its -inf fill too); a next loop that reads only image i in
// iteration i is merged in. Anything else stays outside.
// RUN: ms-opt %s --ms-fuse-batch-loops --canonicalize --split-input-file | FileCheck %s

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#window = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
#kernel = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
#pooled = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>

// CHECK-LABEL: func @conv_relu_pool
// CHECK: %[[LOOP:.*]] = scf.forall (%[[I:.*]]) in (3) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<3x2x2x2xf32>)
// CHECK: %[[IMAGE:.*]] = tensor.expand_shape {{.*}} into tensor<1x2x4x4xf32>
// CHECK: %[[FILL:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x2x2xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: linalg.yield %{{.*}} : f32
// CHECK: %[[POOL:.*]] = linalg.generic {{.*}} ins(%[[IMAGE]], %{{.*}} : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%[[FILL]] : tensor<1x2x2x2xf32>)
// CHECK: arith.maximumf
// CHECK: arith.maximumf
// CHECK: scf.forall.in_parallel
// CHECK-NEXT: tensor.parallel_insert_slice %[[POOL]] into %[[OUT]][%[[I]], 0, 0, 0] [1, 2, 2, 2] [1, 1, 1, 1]
// CHECK-NOT: linalg.generic
// CHECK: return %[[LOOP]]
func.func @conv_relu_pool(%x: tensor<3x2x4x4xf32>) -> tensor<3x2x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<3x2x4x4xf32>
  %conv = scf.forall (%i) in (3) shared_outs(%out = %e) -> (tensor<3x2x4x4xf32>) {
    %img = tensor.extract_slice %x[%i, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<3x2x4x4xf32> to tensor<2x4x4xf32>
    %neg = arith.constant dense<-1.0> : tensor<2x4x4xf32>
    %scaled = arith.mulf %img, %neg : tensor<2x4x4xf32>
    %one = tensor.expand_shape %scaled [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %one into %out[%i, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x4xf32> into tensor<3x2x4x4xf32>
    }
  }
  %k = tensor.empty() : tensor<2x2xf32>
  %pe = tensor.empty() : tensor<3x2x2x2xf32>
  %init = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%pe : tensor<3x2x2x2xf32>) {
  ^bb0(%o: f32):
    linalg.yield %ninf : f32
  } -> tensor<3x2x2x2xf32>
  %pool = linalg.generic {indexing_maps = [#window, #kernel, #pooled], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%conv, %k : tensor<3x2x4x4xf32>, tensor<2x2xf32>) outs(%init : tensor<3x2x2x2xf32>) {
  ^bb0(%in: f32, %unused: f32, %o: f32):
    %r = arith.maximumf %in, %zero : f32
    %m = arith.maximumf %o, %r : f32
    linalg.yield %m : f32
  } -> tensor<3x2x2x2xf32>
  return %pool : tensor<3x2x2x2xf32>
}

// -----

// CHECK-LABEL: func @two_layers
// CHECK: %[[LOOP:.*]] = scf.forall (%[[I:.*]]) in (3) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<3x4xf32>)
// CHECK: %[[FIRST:.*]] = arith.negf %{{.*}} : tensor<1x4xf32>
// CHECK: %[[READ:.*]] = tensor.extract_slice %[[FIRST]][0, 0] [1, 4] [1, 1] : tensor<1x4xf32> to tensor<4xf32>
// CHECK: %[[SECOND:.*]] = arith.addf %[[READ]], %[[READ]]
// CHECK: tensor.expand_shape %[[SECOND]]
// CHECK: scf.forall.in_parallel
// CHECK-NEXT: tensor.parallel_insert_slice %{{.*}} into %[[OUT]][%[[I]], 0] [1, 4] [1, 1]
// CHECK-NOT: scf.forall
// CHECK: return %[[LOOP]]
func.func @two_layers(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %e = tensor.empty() : tensor<3x4xf32>
  %a = scf.forall (%i) in (3) shared_outs(%out = %e) -> (tensor<3x4xf32>) {
    %row = tensor.extract_slice %x[%i, 0] [1, 4] [1, 1] : tensor<3x4xf32> to tensor<1x4xf32>
    %neg = arith.negf %row : tensor<1x4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %neg into %out[%i, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<3x4xf32>
    }
  }
  %e2 = tensor.empty() : tensor<3x4xf32>
  %b = scf.forall (%j) in (3) shared_outs(%out = %e2) -> (tensor<3x4xf32>) {
    %row = tensor.extract_slice %a[%j, 0] [1, 4] [1, 1] : tensor<3x4xf32> to tensor<4xf32>
    %sum = arith.addf %row, %row : tensor<4xf32>
    %one = tensor.expand_shape %sum [[0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %one into %out[%j, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<3x4xf32>
    }
  }
  return %b : tensor<3x4xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#reverse = affine_map<(d0) -> (2 - d0)>

// A sum over the batch, and a loop that reads image 2 - j in iteration j:
// neither is computed image by image, so both stay outside.
// CHECK-LABEL: func @stays_outside
// CHECK: %[[A:.*]] = scf.forall
// CHECK: scf.forall.in_parallel
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]{{.*}} ins(%[[A]] : tensor<3x4xf32>)
// CHECK: scf.forall (%[[J:.*]]) in (3)
// CHECK: %[[K:.*]] = affine.apply #{{.*}}(%[[J]])
// CHECK: tensor.extract_slice %[[A]][%[[K]], 0] [1, 4] [1, 1]
func.func @stays_outside(%x: tensor<3x4xf32>) -> (tensor<4xf32>, tensor<3x4xf32>) {
  %e = tensor.empty() : tensor<3x4xf32>
  %a = scf.forall (%i) in (3) shared_outs(%out = %e) -> (tensor<3x4xf32>) {
    %row = tensor.extract_slice %x[%i, 0] [1, 4] [1, 1] : tensor<3x4xf32> to tensor<1x4xf32>
    %neg = arith.negf %row : tensor<1x4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %neg into %out[%i, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<3x4xf32>
    }
  }
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #col], iterator_types = ["reduction", "parallel"]} ins(%a : tensor<3x4xf32>) outs(%zero : tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %s = arith.addf %o, %in : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<3x4xf32>
  %b = scf.forall (%j) in (3) shared_outs(%out = %e2) -> (tensor<3x4xf32>) {
    %k = affine.apply #reverse(%j)
    %row = tensor.extract_slice %a[%k, 0] [1, 4] [1, 1] : tensor<3x4xf32> to tensor<1x4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %row into %out[%j, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<3x4xf32>
    }
  }
  return %sum, %b : tensor<4xf32>, tensor<3x4xf32>
}

// -----

#window = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
#kernel = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
#pooled = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>

// Floor-mode pooling of 5x5 images reads only their first 4x4: it moves in
// and reads that part of each image.
// CHECK-LABEL: func @reads_part_of_the_image
// CHECK: scf.forall
// CHECK: %[[IMAGE:.*]] = tensor.expand_shape {{.*}} into tensor<1x1x5x5xf32>
// CHECK: %[[PART:.*]] = tensor.extract_slice %[[IMAGE]][0, 0, 0, 0] [1, 1, 4, 4] [1, 1, 1, 1]
// CHECK: linalg.generic {{.*}} ins(%[[PART]], %{{.*}} : tensor<1x1x4x4xf32>, tensor<2x2xf32>)
// CHECK: scf.forall.in_parallel
func.func @reads_part_of_the_image(%x: tensor<2x1x5x5xf32>, %init: tensor<2x1x2x2xf32>) -> tensor<2x1x2x2xf32> {
  %e = tensor.empty() : tensor<2x1x5x5xf32>
  %conv = scf.forall (%i) in (2) shared_outs(%out = %e) -> (tensor<2x1x5x5xf32>) {
    %img = tensor.extract_slice %x[%i, 0, 0, 0] [1, 1, 5, 5] [1, 1, 1, 1] : tensor<2x1x5x5xf32> to tensor<1x5x5xf32>
    %neg = arith.negf %img : tensor<1x5x5xf32>
    %one = tensor.expand_shape %neg [[0, 1], [2], [3]] output_shape [1, 1, 5, 5] : tensor<1x5x5xf32> into tensor<1x1x5x5xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %one into %out[%i, 0, 0, 0] [1, 1, 5, 5] [1, 1, 1, 1] : tensor<1x1x5x5xf32> into tensor<2x1x5x5xf32>
    }
  }
  %k = tensor.empty() : tensor<2x2xf32>
  %pool = linalg.generic {indexing_maps = [#window, #kernel, #pooled], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%conv, %k : tensor<2x1x5x5xf32>, tensor<2x2xf32>) outs(%init : tensor<2x1x2x2xf32>) {
  ^bb0(%in: f32, %unused: f32, %o: f32):
    %m = arith.maximumf %o, %in : f32
    linalg.yield %m : f32
  } -> tensor<2x1x2x2xf32>
  return %pool : tensor<2x1x2x2xf32>
}
