// ms-fuse-tile-epilogues: a pointwise generic whose input only full vector
// tiles write and nothing else reads (a matmul's zero-start register
// tiles, after their accumulators left the K loop) runs on each tile as it
// is written, and the generic and the tile buffer go. Other inputs and the
// outputs must be distinct function arguments nothing else writes;
// anything else stays as it is.
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

// Captured scalars: a function argument is broadcast where the tile is
// written; a constant defined after the tiles is cloned there first.
// CHECK-LABEL: func @captures
// CHECK-SAME: %[[X:[^:]*]]: memref<4xf32>, %[[OUT:[^:]*]]: memref<4xf32>,
// CHECK-SAME: %[[V:[^:]*]]: vector<4xf32>, %[[ZERO:[^:]*]]: f32
// CHECK-NOT: memref.alloc
// CHECK: %[[XT:.*]] = vector.transfer_read %[[X]]
// CHECK: %[[SUM:.*]] = arith.addf %[[V]], %[[XT]] : vector<4xf32>
// CHECK: %[[CAP:.*]] = vector.broadcast %[[ZERO]] : f32 to vector<4xf32>
// CHECK: %[[MAX:.*]] = arith.maximumf %[[SUM]], %[[CAP]] : vector<4xf32>
// CHECK: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK: %[[TWOS:.*]] = vector.broadcast %[[TWO]] : f32 to vector<4xf32>
// CHECK: %[[R:.*]] = arith.mulf %[[MAX]], %[[TWOS]] : vector<4xf32>
// CHECK: vector.transfer_write %[[R]], %[[OUT]]
// CHECK-NOT: linalg.generic
#id1 = affine_map<(d0) -> (d0)>
func.func @captures(%x: memref<4xf32>, %out: memref<4xf32>,
                    %v: vector<4xf32>, %zero: f32) {
  %c0 = arith.constant 0 : index
  %g = memref.alloc() : memref<4xf32>
  vector.transfer_write %v, %g[%c0] {in_bounds = [true]}
      : vector<4xf32>, memref<4xf32>
  %two = arith.constant 2.0 : f32
  linalg.generic {indexing_maps = [#id1, #id1, #id1],
                  iterator_types = ["parallel"]}
      ins(%g, %x : memref<4xf32>, memref<4xf32>)
      outs(%out : memref<4xf32>) {
  ^bb0(%gi: f32, %xi: f32, %o: f32):
    %s = arith.addf %gi, %xi : f32
    %r = arith.maximumf %s, %zero : f32
    %d = arith.mulf %r, %two : f32
    linalg.yield %d : f32
  }
  return
}

// -----

// None of these fuse: a tile buffer read back (other than a zero start
// right after its write, here through a transposing read); an output that
// is also an input (its first epilogue's writes would be read by the
// next); a captured value computed between the tiles and the generic; an
// input that reaches another block as an argument (written after the
// tiles); a yielded value from outside the body; a rank-0 tile buffer.
// CHECK-LABEL: func @read_back
// CHECK: linalg.generic
// CHECK-LABEL: func @in_place
// CHECK: linalg.generic
// CHECK-LABEL: func @late_capture
// CHECK: linalg.generic
// CHECK-LABEL: func @block_argument
// CHECK: linalg.generic
// CHECK-LABEL: func @yields_capture
// CHECK: linalg.generic
// CHECK-LABEL: func @rank0_tile
// CHECK: linalg.generic
#id5 = affine_map<(d0, d1) -> (d0, d1)>
#id6 = affine_map<(d0) -> (d0)>
#none = affine_map<(d0, d1) -> ()>
func.func @read_back(%x: memref<4x4xf32>, %out: memref<4x4xf32>,
                     %y: memref<4x4xf32>, %v: vector<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %g = memref.alloc() : memref<4x4xf32>
  vector.transfer_write %v, %g[%c0, %c0] {in_bounds = [true, true]}
      : vector<4x4xf32>, memref<4x4xf32>
  %t = vector.transfer_read %g[%c0, %c0], %p
      {in_bounds = [true, true],
       permutation_map = affine_map<(d0, d1) -> (d1, d0)>}
      : memref<4x4xf32>, vector<4x4xf32>
  vector.transfer_write %t, %y[%c0, %c0] {in_bounds = [true, true]}
      : vector<4x4xf32>, memref<4x4xf32>
  linalg.generic {indexing_maps = [#id5, #id5, #id5],
                  iterator_types = ["parallel", "parallel"]}
      ins(%g, %x : memref<4x4xf32>, memref<4x4xf32>)
      outs(%out : memref<4x4xf32>) {
  ^bb0(%gi: f32, %xi: f32, %o: f32):
    %s = arith.addf %gi, %xi : f32
    linalg.yield %s : f32
  }
  return
}
func.func @in_place(%x: memref<4xf32>, %v: vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %g = memref.alloc() : memref<4xf32>
  vector.transfer_write %v, %g[%c0] {in_bounds = [true]}
      : vector<4xf32>, memref<4xf32>
  linalg.generic {indexing_maps = [#id6, #id6, #id6],
                  iterator_types = ["parallel"]}
      ins(%g, %x : memref<4xf32>, memref<4xf32>) outs(%x : memref<4xf32>) {
  ^bb0(%gi: f32, %xi: f32, %o: f32):
    %s = arith.addf %gi, %xi : f32
    linalg.yield %s : f32
  }
  return
}
func.func @late_capture(%x: memref<4xf32>, %out: memref<4xf32>,
                        %v: vector<4xf32>, %s: memref<f32>) {
  %c0 = arith.constant 0 : index
  %g = memref.alloc() : memref<4xf32>
  vector.transfer_write %v, %g[%c0] {in_bounds = [true]}
      : vector<4xf32>, memref<4xf32>
  %k = memref.load %s[] : memref<f32>
  linalg.generic {indexing_maps = [#id6, #id6, #id6],
                  iterator_types = ["parallel"]}
      ins(%g, %x : memref<4xf32>, memref<4xf32>)
      outs(%out : memref<4xf32>) {
  ^bb0(%gi: f32, %xi: f32, %o: f32):
    %a = arith.addf %gi, %xi : f32
    %b = arith.mulf %a, %k : f32
    linalg.yield %b : f32
  }
  return
}
func.func @block_argument(%out: memref<4xf32>, %v: vector<4xf32>,
                          %z: vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %y = memref.alloc() : memref<4xf32>
  %g = memref.alloc() : memref<4xf32>
  cf.br ^bb1(%y : memref<4xf32>)
^bb1(%m: memref<4xf32>):
  vector.transfer_write %v, %g[%c0] {in_bounds = [true]}
      : vector<4xf32>, memref<4xf32>
  vector.transfer_write %z, %y[%c0] {in_bounds = [true]}
      : vector<4xf32>, memref<4xf32>
  linalg.generic {indexing_maps = [#id6, #id6, #id6],
                  iterator_types = ["parallel"]}
      ins(%g, %m : memref<4xf32>, memref<4xf32>)
      outs(%out : memref<4xf32>) {
  ^bb0(%gi: f32, %mi: f32, %o: f32):
    %s = arith.addf %gi, %mi : f32
    linalg.yield %s : f32
  }
  return
}
func.func @yields_capture(%out: memref<4xf32>, %v: vector<4xf32>, %f: f32) {
  %c0 = arith.constant 0 : index
  %g = memref.alloc() : memref<4xf32>
  vector.transfer_write %v, %g[%c0] {in_bounds = [true]}
      : vector<4xf32>, memref<4xf32>
  linalg.generic {indexing_maps = [#id6, #id6],
                  iterator_types = ["parallel"]}
      ins(%g : memref<4xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%gi: f32, %o: f32):
    linalg.yield %f : f32
  }
  return
}
func.func @rank0_tile(%x: memref<4x16xf32>, %out: memref<4x16xf32>,
                      %v: vector<f32>) {
  %g = memref.alloc() : memref<f32>
  vector.transfer_write %v, %g[] : vector<f32>, memref<f32>
  linalg.generic {indexing_maps = [#none, #id5, #id5],
                  iterator_types = ["parallel", "parallel"]}
      ins(%g, %x : memref<f32>, memref<4x16xf32>)
      outs(%out : memref<4x16xf32>) {
  ^bb0(%gi: f32, %xi: f32, %o: f32):
    %s = arith.addf %gi, %xi : f32
    linalg.yield %s : f32
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
