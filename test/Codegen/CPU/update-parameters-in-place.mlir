// ms-update-parameters-in-place: a result's out-param (ms.result) written
// whole by one elementwise generic that also reads a parameter at the same
// indices, the parameter's last access, is written into the parameter
// instead; the out-param is tagged ms.in_place_of = (the parameter's
// argument index). Anything else stays as it was.
// RUN: ms-opt %s --ms-update-parameters-in-place --split-input-file | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#scalar = affine_map<(d0, d1) -> ()>

// An SGD step: forward reads w, then the update w - lr * g.
// CHECK-LABEL: func @sgd
// CHECK-SAME: (%[[X:.*]]: memref<4x8xf32>, %[[W:.*]]: memref<4x8xf32> {ms.param = "w"}, %[[LR:.*]]: memref<f32> {ms.param = "lr"}, %[[G:.*]]: memref<4x8xf32>, %[[OUT:.*]]: memref<4x8xf32> {ms.in_place_of = 1 : i64, ms.result = 0 : i64})
// CHECK: linalg.add ins(%[[X]], %[[W]] : {{.*}}) outs(%[[G]] : {{.*}})
// CHECK: linalg.generic {{.*}} ins(%[[W]], %[[LR]], %[[G]] : {{.*}}) outs(%[[W]] : memref<4x8xf32>)
// CHECK-NOT: %[[OUT]]
func.func @sgd(%x: memref<4x8xf32>, %w: memref<4x8xf32> {ms.param = "w"}, %lr: memref<f32> {ms.param = "lr"}, %g: memref<4x8xf32>, %out: memref<4x8xf32> {ms.result = 0 : i64}) {
  linalg.add ins(%x, %w : memref<4x8xf32>, memref<4x8xf32>) outs(%g : memref<4x8xf32>)
  linalg.generic {indexing_maps = [#id, #scalar, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%w, %lr, %g : memref<4x8xf32>, memref<f32>, memref<4x8xf32>) outs(%out : memref<4x8xf32>) {
  ^bb0(%wi: f32, %l: f32, %gi: f32, %o: f32):
    %d = arith.mulf %l, %gi : f32
    %r = arith.subf %wi, %d : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// The parameter is read after the update: through a view made before it,
// inside a loop, by a call. The op reads it twice. None is rewritten.
// CHECK-LABEL: func @read_after
// CHECK-NOT: ms.in_place_of
// CHECK-COUNT-4: outs(%arg{{[5-8]}} : memref<4x8xf32>)
func.func private @consume(memref<4x8xf32>)
func.func @read_after(%w: memref<4x8xf32> {ms.param = "w"}, %v: memref<4x8xf32> {ms.param = "v"}, %u: memref<4x8xf32> {ms.param = "u"}, %t: memref<4x8xf32> {ms.param = "t"}, %g: memref<4x8xf32>, %o1: memref<4x8xf32> {ms.result = 0 : i64}, %o2: memref<4x8xf32> {ms.result = 1 : i64}, %o3: memref<4x8xf32> {ms.result = 2 : i64}, %o4: memref<4x8xf32> {ms.result = 3 : i64}, %later: memref<8xf32>) {
  %row = memref.subview %w[0, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1]>>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%w, %g : memref<4x8xf32>, memref<4x8xf32>) outs(%o1 : memref<4x8xf32>) {
  ^bb0(%wi: f32, %gi: f32, %o: f32):
    %r = arith.subf %wi, %gi : f32
    linalg.yield %r : f32
  }
  memref.copy %row, %later : memref<8xf32, strided<[1]>> to memref<8xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%v, %g : memref<4x8xf32>, memref<4x8xf32>) outs(%o2 : memref<4x8xf32>) {
  ^bb0(%vi: f32, %gi: f32, %o: f32):
    %r = arith.subf %vi, %gi : f32
    linalg.yield %r : f32
  }
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %e = memref.load %v[%i, %c0] : memref<4x8xf32>
    memref.store %e, %later[%i] : memref<8xf32>
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%u, %g : memref<4x8xf32>, memref<4x8xf32>) outs(%o3 : memref<4x8xf32>) {
  ^bb0(%ui: f32, %gi: f32, %o: f32):
    %r = arith.subf %ui, %gi : f32
    linalg.yield %r : f32
  }
  func.call @consume(%u) : (memref<4x8xf32>) -> ()
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%t, %t : memref<4x8xf32>, memref<4x8xf32>) outs(%o4 : memref<4x8xf32>) {
  ^bb0(%ti: f32, %tj: f32, %o: f32):
    %r = arith.addf %ti, %tj : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>

// The parameter is read at other indices than the ones written (a
// transpose): writing over it would change what later iterations read.
// CHECK-LABEL: func @transposed
// CHECK-NOT: ms.in_place_of
func.func @transposed(%w: memref<8x8xf32> {ms.param = "w"}, %out: memref<8x8xf32> {ms.result = 0 : i64}) {
  linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]} ins(%w : memref<8x8xf32>) outs(%out : memref<8x8xf32>) {
  ^bb0(%wi: f32, %o: f32):
    linalg.yield %wi : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A parameter the code reads in a packed layout, or has a packed copy of
// (the runtime would pass the packed copy), a caller's input that is not a
// parameter, and a caller's argument that is not a result's out-param.
// CHECK-LABEL: func @not_plain
// CHECK-NOT: ms.in_place_of
func.func @not_plain(%w: memref<4x8xf32> {ms.param = "w", ms.packed = "transpose"}, %v: memref<4x8xf32> {ms.param = "v"}, %x: memref<4x8xf32>, %u: memref<4x8xf32> {ms.param = "u"}, %copy: memref<8x4xf32> {ms.packed = "transpose", ms.packed_copy_of = 1 : i64}, %o1: memref<4x8xf32> {ms.result = 0 : i64}, %o2: memref<4x8xf32> {ms.result = 1 : i64}, %o3: memref<4x8xf32> {ms.result = 2 : i64}, %in: memref<4x8xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%w : memref<4x8xf32>) outs(%o1 : memref<4x8xf32>) {
  ^bb0(%wi: f32, %o: f32):
    linalg.yield %wi : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%v : memref<4x8xf32>) outs(%o2 : memref<4x8xf32>) {
  ^bb0(%vi: f32, %o: f32):
    linalg.yield %vi : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x8xf32>) outs(%o3 : memref<4x8xf32>) {
  ^bb0(%xi: f32, %o: f32):
    linalg.yield %xi : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%u : memref<4x8xf32>) outs(%in : memref<4x8xf32>) {
  ^bb0(%ui: f32, %o: f32):
    linalg.yield %ui : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#outer = affine_map<(d0, d1, d2) -> (d0, d1)>

// The op reads what the out-param held (an accumulation), reduces, or
// writes the out-param in two ops: none is a whole elementwise write.
// CHECK-LABEL: func @not_whole
// CHECK-NOT: ms.in_place_of
func.func @not_whole(%w: memref<4x8xf32> {ms.param = "w"}, %b: memref<4x8xf32> {ms.param = "b"}, %u: memref<4x8xf32> {ms.param = "u"}, %parts: memref<4x8x2xf32>, %o1: memref<4x8xf32> {ms.result = 0 : i64}, %o2: memref<4x8xf32> {ms.result = 1 : i64}, %o3: memref<4x8xf32> {ms.result = 2 : i64}) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%w : memref<4x8xf32>) outs(%o1 : memref<4x8xf32>) {
  ^bb0(%wi: f32, %o: f32):
    %r = arith.addf %wi, %o : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#outer, #id3, #outer], iterator_types = ["parallel", "parallel", "reduction"]} ins(%b, %parts : memref<4x8xf32>, memref<4x8x2xf32>) outs(%o2 : memref<4x8xf32>) {
  ^bb0(%bi: f32, %p: f32, %o: f32):
    %r = arith.addf %bi, %p : f32
    linalg.yield %r : f32
  }
  %c0 = arith.constant 0.0 : f32
  linalg.fill ins(%c0 : f32) outs(%o3 : memref<4x8xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%u : memref<4x8xf32>) outs(%o3 : memref<4x8xf32>) {
  ^bb0(%ui: f32, %o: f32):
    linalg.yield %ui : f32
  }
  return
}
