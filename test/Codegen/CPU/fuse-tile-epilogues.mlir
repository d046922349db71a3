// ms-fuse-tile-epilogues: a pointwise generic whose input only full vector
// tiles write (a matmul's zero-start register tiles, after their
// accumulators left the K loop) runs on each tile as it is written, and
// the generic and the tile buffer go. Other inputs and the outputs must be
// function arguments nothing else writes; anything else stays as it is.
// RUN: ms-opt %s --ms-fuse-tile-epilogues --split-input-file | FileCheck %s

// An SGD update (w - lr * g) of a 4x16 gradient made in two 2x16 tiles,
// each starting from zero. The zero write and its read back are forwarded,
// the overwritten zeros dropped, and each tile's update written to %out.
// CHECK-LABEL: func @sgd_in_tiles
// CHECK-SAME: %[[W:[^:]*]]: memref<4x16xf32>, %[[LR:[^:]*]]: memref<f32>,
// CHECK-SAME: %[[A:[^:]*]]: memref<4x8xf32>, %[[B:[^:]*]]: memref<8x16xf32>,
// CHECK-SAME: %[[OUT:[^:]*]]: memref<4x16xf32>
// CHECK-NOT: memref.alloc
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<2x16xf32>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[TILE:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]])
// CHECK: %[[WT:.*]] = vector.transfer_read %[[W]][%[[I]], %{{.*}}]
// CHECK: %[[L:.*]] = memref.load %[[LR]][]
// CHECK: %[[LV:.*]] = vector.broadcast %[[L]] : f32 to vector<2x16xf32>
// CHECK: %[[STEP:.*]] = arith.mulf %[[LV]], %[[TILE]] : vector<2x16xf32>
// CHECK: %[[NEW:.*]] = arith.subf %[[WT]], %[[STEP]] : vector<2x16xf32>
// CHECK: vector.transfer_write %[[NEW]], %[[OUT]][%[[I]], %{{.*}}]
// CHECK-NOT: linalg.generic
// CHECK-NOT: memref.dealloc
#id = affine_map<(d0, d1) -> (d0, d1)>
#scalar = affine_map<(d0, d1) -> ()>
func.func @sgd_in_tiles(%w: memref<4x16xf32>, %lr: memref<f32>,
                        %a: memref<4x8xf32>, %b: memref<8x16xf32>,
                        %out: memref<4x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %p = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<2x16xf32>
  %g = memref.alloc() : memref<4x16xf32>
  scf.for %i = %c0 to %c4 step %c2 {
    vector.transfer_write %zero, %g[%i, %c0] {in_bounds = [true, true]}
        : vector<2x16xf32>, memref<4x16xf32>
    %init = vector.transfer_read %g[%i, %c0], %p {in_bounds = [true, true]}
        : memref<4x16xf32>, vector<2x16xf32>
    %acc = scf.for %k = %c0 to %c8 step %c1 iter_args(%t = %init)
        -> (vector<2x16xf32>) {
      %row = vector.transfer_read %b[%k, %c0], %p {in_bounds = [true, true]}
          : memref<8x16xf32>, vector<2x16xf32>
      %sum = arith.addf %t, %row : vector<2x16xf32>
      scf.yield %sum : vector<2x16xf32>
    }
    vector.transfer_write %acc, %g[%i, %c0] {in_bounds = [true, true]}
        : vector<2x16xf32>, memref<4x16xf32>
  }
  linalg.generic {indexing_maps = [#id, #scalar, #id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%w, %lr, %g : memref<4x16xf32>, memref<f32>, memref<4x16xf32>)
      outs(%out : memref<4x16xf32>) {
  ^bb0(%wi: f32, %l: f32, %gi: f32, %o: f32):
    %s = arith.mulf %l, %gi : f32
    %n = arith.subf %wi, %s : f32
    linalg.yield %n : f32
  }
  memref.dealloc %g : memref<4x16xf32>
  return
}

// -----

// A tile buffer read back other than right after the same write stays,
// and so do its writes: the epilogue follows each write (the first one's
// result is overwritten by the second's). A scalar from outside the body
// is broadcast.
// CHECK-LABEL: func @kept_buffer
// CHECK: %[[G:.*]] = memref.alloc()
// CHECK: vector.transfer_write %[[V:.*]], %[[G]]
// CHECK: %[[X:.*]] = vector.transfer_read %arg0
// CHECK: %[[SUM:.*]] = arith.addf %[[V]], %[[X]] : vector<4xf32>
// CHECK: %[[CAP:.*]] = vector.broadcast %{{.*}} : f32 to vector<4xf32>
// CHECK: arith.maximumf %[[SUM]], %[[CAP]] : vector<4xf32>
// CHECK: vector.transfer_write %{{.*}}, %arg1
// CHECK: %[[T:.*]] = vector.transfer_read %[[G]]
// CHECK: %[[T2:.*]] = arith.addf %[[T]], %[[T]]
// CHECK: vector.transfer_write %[[T2]], %[[G]]
// CHECK: arith.addf %[[T2]], %{{.*}} : vector<4xf32>
// CHECK: vector.transfer_write %{{.*}}, %arg1
// CHECK-NOT: linalg.generic
#id1 = affine_map<(d0) -> (d0)>
func.func @kept_buffer(%x: memref<4xf32>, %out: memref<4xf32>,
                       %v: vector<4xf32>, %zero: f32) {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %g = memref.alloc() : memref<4xf32>
  vector.transfer_write %v, %g[%c0] {in_bounds = [true]}
      : vector<4xf32>, memref<4xf32>
  // Not right after the write, so not forwarded.
  %c1 = arith.constant 1 : index
  %t = vector.transfer_read %g[%c0], %p {in_bounds = [true]}
      : memref<4xf32>, vector<4xf32>
  %t2 = arith.addf %t, %t : vector<4xf32>
  vector.transfer_write %t2, %g[%c0] {in_bounds = [true]}
      : vector<4xf32>, memref<4xf32>
  linalg.generic {indexing_maps = [#id1, #id1, #id1],
                  iterator_types = ["parallel"]}
      ins(%g, %x : memref<4xf32>, memref<4xf32>)
      outs(%out : memref<4xf32>) {
  ^bb0(%gi: f32, %xi: f32, %o: f32):
    %s = arith.addf %gi, %xi : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Another input that the function computes (not an argument) could be
// written between the tiles and the generic: nothing fuses.
// CHECK-LABEL: func @local_operand
// CHECK: linalg.generic
#id2 = affine_map<(d0) -> (d0)>
func.func @local_operand(%out: memref<4xf32>, %v: vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %g = memref.alloc() : memref<4xf32>
  %other = memref.alloc() : memref<4xf32>
  vector.transfer_write %v, %g[%c0] {in_bounds = [true]}
      : vector<4xf32>, memref<4xf32>
  vector.transfer_write %v, %other[%c0] {in_bounds = [true]}
      : vector<4xf32>, memref<4xf32>
  linalg.generic {indexing_maps = [#id2, #id2, #id2],
                  iterator_types = ["parallel"]}
      ins(%g, %other : memref<4xf32>, memref<4xf32>)
      outs(%out : memref<4xf32>) {
  ^bb0(%gi: f32, %oi: f32, %o: f32):
    %s = arith.addf %gi, %oi : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The output is written by something else too, the buffer is written by
// an op that is not a vector tile, or a tile is written after the generic:
// nothing fuses.
// CHECK-LABEL: func @output_written_twice
// CHECK: linalg.generic
// CHECK-LABEL: func @filled_buffer
// CHECK: linalg.generic
// CHECK-LABEL: func @written_after
// CHECK: linalg.generic
// CHECK: vector.transfer_write
#id3 = affine_map<(d0) -> (d0)>
func.func @output_written_twice(%x: memref<4xf32>, %out: memref<4xf32>,
                                %v: vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %g = memref.alloc() : memref<4xf32>
  vector.transfer_write %v, %g[%c0] {in_bounds = [true]}
      : vector<4xf32>, memref<4xf32>
  vector.transfer_write %v, %out[%c0] {in_bounds = [true]}
      : vector<4xf32>, memref<4xf32>
  linalg.generic {indexing_maps = [#id3, #id3, #id3],
                  iterator_types = ["parallel"]}
      ins(%g, %x : memref<4xf32>, memref<4xf32>)
      outs(%out : memref<4xf32>) {
  ^bb0(%gi: f32, %xi: f32, %o: f32):
    %s = arith.addf %gi, %xi : f32
    linalg.yield %s : f32
  }
  return
}
func.func @filled_buffer(%x: memref<4xf32>, %out: memref<4xf32>,
                         %v: vector<4xf32>, %f: f32) {
  %c0 = arith.constant 0 : index
  %g = memref.alloc() : memref<4xf32>
  vector.transfer_write %v, %g[%c0] {in_bounds = [true]}
      : vector<4xf32>, memref<4xf32>
  linalg.fill ins(%f : f32) outs(%g : memref<4xf32>)
  linalg.generic {indexing_maps = [#id3, #id3, #id3],
                  iterator_types = ["parallel"]}
      ins(%g, %x : memref<4xf32>, memref<4xf32>)
      outs(%out : memref<4xf32>) {
  ^bb0(%gi: f32, %xi: f32, %o: f32):
    %s = arith.addf %gi, %xi : f32
    linalg.yield %s : f32
  }
  return
}
func.func @written_after(%x: memref<4xf32>, %out: memref<4xf32>,
                         %v: vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %g = memref.alloc() : memref<4xf32>
  vector.transfer_write %v, %g[%c0] {in_bounds = [true]}
      : vector<4xf32>, memref<4xf32>
  linalg.generic {indexing_maps = [#id3, #id3, #id3],
                  iterator_types = ["parallel"]}
      ins(%g, %x : memref<4xf32>, memref<4xf32>)
      outs(%out : memref<4xf32>) {
  ^bb0(%gi: f32, %xi: f32, %o: f32):
    %s = arith.addf %gi, %xi : f32
    linalg.yield %s : f32
  }
  vector.transfer_write %v, %g[%c0] {in_bounds = [true]}
      : vector<4xf32>, memref<4xf32>
  return
}

// -----

// On several threads the generic comes split in row chunks, one per
// iteration of a parallel loop (ms-parallelize-generics). Chunks that
// together cover the buffers fuse as the whole generic would; chunks that
// leave rows out do not.
// CHECK-LABEL: func @chunked
// CHECK-NOT: memref.alloc
// CHECK: scf.for %[[I:.*]] =
// CHECK: %[[XT:.*]] = vector.transfer_read %arg0[%[[I]], %{{.*}}]
// CHECK: %[[SUM:.*]] = arith.addf %{{.*}}, %[[XT]] : vector<2x8xf32>
// CHECK: vector.transfer_write %[[SUM]], %arg1[%[[I]], %{{.*}}]
// CHECK-NOT: scf.forall
// CHECK-NOT: linalg.generic
// CHECK-LABEL: func @chunks_leave_rows_out
// CHECK: scf.forall
// CHECK: linalg.generic
#rows = affine_map<(d0) -> (d0 * 2)>
#rows1 = affine_map<(d0) -> (d0 * 1)>
#id4 = affine_map<(d0, d1) -> (d0, d1)>
func.func @chunked(%x: memref<4x8xf32>, %out: memref<4x8xf32>,
                   %v: vector<2x8xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %g = memref.alloc() : memref<4x8xf32>
  scf.for %i = %c0 to %c4 step %c2 {
    vector.transfer_write %v, %g[%i, %c0] {in_bounds = [true, true]}
        : vector<2x8xf32>, memref<4x8xf32>
  }
  scf.forall (%t) in (2) {
    %first = affine.apply #rows(%t)
    %gc = memref.subview %g[%first, 0] [2, 8] [1, 1]
        : memref<4x8xf32> to memref<2x8xf32, strided<[8, 1], offset: ?>>
    %xc = memref.subview %x[%first, 0] [2, 8] [1, 1]
        : memref<4x8xf32> to memref<2x8xf32, strided<[8, 1], offset: ?>>
    %oc = memref.subview %out[%first, 0] [2, 8] [1, 1]
        : memref<4x8xf32> to memref<2x8xf32, strided<[8, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id4, #id4, #id4],
                    iterator_types = ["parallel", "parallel"]}
        ins(%gc, %xc : memref<2x8xf32, strided<[8, 1], offset: ?>>,
                       memref<2x8xf32, strided<[8, 1], offset: ?>>)
        outs(%oc : memref<2x8xf32, strided<[8, 1], offset: ?>>) {
    ^bb0(%gi: f32, %xi: f32, %o: f32):
      %s = arith.addf %gi, %xi : f32
      linalg.yield %s : f32
    }
  }
  memref.dealloc %g : memref<4x8xf32>
  return
}
func.func @chunks_leave_rows_out(%x: memref<4x8xf32>, %out: memref<4x8xf32>,
                                 %v: vector<2x8xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %g = memref.alloc() : memref<4x8xf32>
  scf.for %i = %c0 to %c4 step %c2 {
    vector.transfer_write %v, %g[%i, %c0] {in_bounds = [true, true]}
        : vector<2x8xf32>, memref<4x8xf32>
  }
  scf.forall (%t) in (2) {
    %first = affine.apply #rows1(%t)
    %gc = memref.subview %g[%first, 0] [1, 8] [1, 1]
        : memref<4x8xf32> to memref<1x8xf32, strided<[8, 1], offset: ?>>
    %xc = memref.subview %x[%first, 0] [1, 8] [1, 1]
        : memref<4x8xf32> to memref<1x8xf32, strided<[8, 1], offset: ?>>
    %oc = memref.subview %out[%first, 0] [1, 8] [1, 1]
        : memref<4x8xf32> to memref<1x8xf32, strided<[8, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id4, #id4, #id4],
                    iterator_types = ["parallel", "parallel"]}
        ins(%gc, %xc : memref<1x8xf32, strided<[8, 1], offset: ?>>,
                       memref<1x8xf32, strided<[8, 1], offset: ?>>)
        outs(%oc : memref<1x8xf32, strided<[8, 1], offset: ?>>) {
    ^bb0(%gi: f32, %xi: f32, %o: f32):
      %s = arith.addf %gi, %xi : f32
      linalg.yield %s : f32
    }
  }
  memref.dealloc %g : memref<4x8xf32>
  return
}
