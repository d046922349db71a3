// ms-concat-in-place: a local buffer copied whole (or through a reshape)
// into a contiguous slice of another local buffer, and not used after the
// copy, is placed in that slice (a memref.view of the concatenation's
// bytes) and the copy goes. Buffers that are used after the copy, whose
// pointer escapes, whose slice is read or overlapped before the copy, that
// are arguments, or whose slice is not contiguous stay as they are.
// RUN: ms-opt %s --ms-concat-in-place --split-input-file | FileCheck %s

// Two pieces, one through a reshape: both computed in their slices; the
// concatenation is bytes allocated first, with its old alignment.
// CHECK-LABEL: func @pieces
// CHECK: %[[BYTES:.*]] = memref.alloc() {alignment = 64 : i64} : memref<96xi8>
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: %[[CAT:.*]] = memref.view %[[BYTES]][%[[ZERO]]][] : memref<96xi8> to memref<24xf32>
// CHECK: %[[S0:.*]] = arith.constant 0 : index
// CHECK: %[[A:.*]] = memref.view %[[BYTES]][%[[S0]]][] : memref<96xi8> to memref<8xf32>
// CHECK: linalg.fill ins(%{{.*}}) outs(%[[A]] : memref<8xf32>)
// CHECK: %[[S32:.*]] = arith.constant 32 : index
// CHECK: %[[B:.*]] = memref.view %[[BYTES]][%[[S32]]][] : memref<96xi8> to memref<4x4xf32>
// CHECK: linalg.fill ins(%{{.*}}) outs(%[[B]] : memref<4x4xf32>)
// CHECK-NOT: memref.copy
// CHECK-NOT: memref.alloc
// CHECK: memref.copy %[[CAT]], %arg0
func.func @pieces(%out: memref<24xf32>) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %a = memref.alloc() : memref<8xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<8xf32>)
  %b = memref.alloc() : memref<4x4xf32>
  linalg.fill ins(%two : f32) outs(%b : memref<4x4xf32>)
  %flat = memref.collapse_shape %b [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  %cat = memref.alloc() {alignment = 64 : i64} : memref<24xf32>
  %s0 = memref.subview %cat[0] [8] [1] : memref<24xf32> to memref<8xf32, strided<[1]>>
  memref.copy %a, %s0 : memref<8xf32> to memref<8xf32, strided<[1]>>
  %s1 = memref.subview %cat[8] [16] [1] : memref<24xf32> to memref<16xf32, strided<[1], offset: 8>>
  memref.copy %flat, %s1 : memref<16xf32> to memref<16xf32, strided<[1], offset: 8>>
  memref.copy %cat, %out : memref<24xf32> to memref<24xf32>
  return
}

// -----

// A piece read after its copy keeps its buffer: the slice may change
// after the copy (here, it is written).
// CHECK-LABEL: func @read_after_copy
// CHECK: %[[A:.*]] = memref.alloc() : memref<8xf32>
// CHECK: memref.copy %[[A]], %{{.*}}
// CHECK: memref.copy %[[A]], %arg1
func.func @read_after_copy(%out: memref<16xf32>, %keep: memref<8xf32>) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<8xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<8xf32>)
  %cat = memref.alloc() : memref<16xf32>
  %s0 = memref.subview %cat[0] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1]>>
  memref.copy %a, %s0 : memref<8xf32> to memref<8xf32, strided<[1]>>
  linalg.fill ins(%one : f32) outs(%s0 : memref<8xf32, strided<[1]>>)
  memref.copy %a, %keep : memref<8xf32> to memref<8xf32>
  memref.copy %cat, %out : memref<16xf32> to memref<16xf32>
  return
}

// -----

// A piece whose pointer escapes (to a call that may keep it) stays.
// CHECK-LABEL: func @escapes
// CHECK: %[[A:.*]] = memref.alloc() : memref<8xf32>
// CHECK: memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: memref.copy %[[A]], %{{.*}}
func.func private @keep(index)
func.func @escapes(%out: memref<8xf32>) {
  %a = memref.alloc() : memref<8xf32>
  %p = memref.extract_aligned_pointer_as_index %a : memref<8xf32> -> index
  func.call @keep(%p) : (index) -> ()
  %cat = memref.alloc() : memref<8xf32>
  %s0 = memref.subview %cat[0] [8] [1] : memref<8xf32> to memref<8xf32, strided<[1]>>
  memref.copy %a, %s0 : memref<8xf32> to memref<8xf32, strided<[1]>>
  memref.copy %cat, %out : memref<8xf32> to memref<8xf32>
  return
}

// -----

// The concatenation read or written before the copy, other than by copies
// into other slices: no change. Of two overlapping slices, the first
// piece moves (nothing touches its slice until its copy; the second copy
// then overwrites part of it, as before), the second does not (its slice
// is written before its copy).
// CHECK-LABEL: func @slice_busy
// CHECK: %[[CAT:.*]] = memref.alloc() : memref<8xf32>
// CHECK: %[[A:.*]] = memref.alloc() : memref<8xf32>
// CHECK: memref.copy %[[A]], %{{.*}} : memref<8xf32> to memref<8xf32, strided<[1]>>
// CHECK: memref.copy %[[CAT]], %arg0
// CHECK-LABEL: func @overlapping
// CHECK: %[[BYTES:.*]] = memref.alloc() : memref<32xi8>
// CHECK: memref.view %[[BYTES]][%{{.*}}][] : memref<32xi8> to memref<4xf32>
// CHECK: %[[B:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NOT: memref.copy
// CHECK: memref.copy %[[B]], %{{.*}} : memref<4xf32> to memref<4xf32, strided<[1], offset: 2>>
// CHECK-NEXT: memref.copy
// CHECK-NEXT: return
func.func @slice_busy(%out: memref<8xf32>, %x: memref<8xf32>) {
  %one = arith.constant 1.0 : f32
  %cat = memref.alloc() : memref<8xf32>
  memref.copy %x, %cat : memref<8xf32> to memref<8xf32>
  %a = memref.alloc() : memref<8xf32>
  memref.copy %cat, %a : memref<8xf32> to memref<8xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<8xf32>)
  %s0 = memref.subview %cat[0] [8] [1] : memref<8xf32> to memref<8xf32, strided<[1]>>
  memref.copy %a, %s0 : memref<8xf32> to memref<8xf32, strided<[1]>>
  memref.copy %cat, %out : memref<8xf32> to memref<8xf32>
  return
}
func.func @overlapping(%out: memref<8xf32>) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<4xf32>)
  linalg.fill ins(%one : f32) outs(%b : memref<4xf32>)
  %cat = memref.alloc() : memref<8xf32>
  %s0 = memref.subview %cat[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  memref.copy %a, %s0 : memref<4xf32> to memref<4xf32, strided<[1]>>
  %s1 = memref.subview %cat[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  memref.copy %b, %s1 : memref<4xf32> to memref<4xf32, strided<[1], offset: 2>>
  memref.copy %cat, %out : memref<8xf32> to memref<8xf32>
  return
}

// -----

// A slice that is not contiguous (rows of a wider buffer), and a piece that
// is an argument: no change.
// CHECK-LABEL: func @not_contiguous
// CHECK: memref.alloc() : memref<2x4xf32>
// CHECK: memref.copy
// CHECK-LABEL: func @argument_piece
// CHECK: memref.copy %arg1
func.func @not_contiguous(%out: memref<2x8xf32>) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<2x4xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<2x4xf32>)
  %cat = memref.alloc() : memref<2x8xf32>
  %s0 = memref.subview %cat[0, 0] [2, 4] [1, 1] : memref<2x8xf32> to memref<2x4xf32, strided<[8, 1]>>
  memref.copy %a, %s0 : memref<2x4xf32> to memref<2x4xf32, strided<[8, 1]>>
  memref.copy %cat, %out : memref<2x8xf32> to memref<2x8xf32>
  return
}
func.func @argument_piece(%out: memref<8xf32>, %a: memref<8xf32>) {
  %cat = memref.alloc() : memref<8xf32>
  %s0 = memref.subview %cat[0] [8] [1] : memref<8xf32> to memref<8xf32, strided<[1]>>
  memref.copy %a, %s0 : memref<8xf32> to memref<8xf32, strided<[1]>>
  memref.copy %cat, %out : memref<8xf32> to memref<8xf32>
  return
}

// -----

// Pieces handed on before the copy stay: yielded out of a region (an alias
// read after the slice is overwritten), passed to a function that may
// return or keep it, or turned into another alias. A call to an external
// function (a runtime kernel, which keeps no pointer) does not stop it.
// CHECK-LABEL: func @yielded
// CHECK: %[[A:.*]] = memref.alloc() : memref<8xf32>
// CHECK: scf.yield %[[A]]
// CHECK: memref.copy %[[A]], %{{.*}} : memref<8xf32> to memref<8xf32, strided<[1]>>
// CHECK-LABEL: func @passed_to_defined
// CHECK: %[[A:.*]] = memref.alloc() : memref<8xf32>
// CHECK: call @identity(%[[A]])
// CHECK: memref.copy %[[A]], %{{.*}} : memref<8xf32> to memref<8xf32, strided<[1]>>
// CHECK-LABEL: func @distinct
// CHECK: %[[A:.*]] = memref.alloc() : memref<8xf32>
// CHECK: memref.copy %[[A]], %{{.*}} : memref<8xf32> to memref<8xf32, strided<[1]>>
// CHECK-LABEL: func @external_kernel
// CHECK: %[[BYTES:.*]] = memref.alloc() : memref<32xi8>
// CHECK: memref.view %[[BYTES]]
// CHECK: %[[A:.*]] = memref.view %[[BYTES]]
// CHECK: call @kernel(%[[A]])
// CHECK-NOT: memref.copy %[[A]]
func.func @yielded(%out: memref<8xf32>, %keep: memref<8xf32>, %c: i1) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<8xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<8xf32>)
  %alias = scf.if %c -> memref<8xf32> {
    scf.yield %a : memref<8xf32>
  } else {
    scf.yield %keep : memref<8xf32>
  }
  %cat = memref.alloc() : memref<8xf32>
  %s0 = memref.subview %cat[0] [8] [1] : memref<8xf32> to memref<8xf32, strided<[1]>>
  memref.copy %a, %s0 : memref<8xf32> to memref<8xf32, strided<[1]>>
  linalg.fill ins(%one : f32) outs(%cat : memref<8xf32>)
  memref.copy %alias, %out : memref<8xf32> to memref<8xf32>
  return
}
func.func private @identity(%m: memref<8xf32>) -> memref<8xf32> {
  return %m : memref<8xf32>
}
func.func @passed_to_defined(%out: memref<8xf32>) {
  %a = memref.alloc() : memref<8xf32>
  %alias = func.call @identity(%a) : (memref<8xf32>) -> memref<8xf32>
  %cat = memref.alloc() : memref<8xf32>
  %s0 = memref.subview %cat[0] [8] [1] : memref<8xf32> to memref<8xf32, strided<[1]>>
  memref.copy %a, %s0 : memref<8xf32> to memref<8xf32, strided<[1]>>
  memref.copy %alias, %out : memref<8xf32> to memref<8xf32>
  return
}
func.func @distinct(%out: memref<8xf32>, %b: memref<8xf32>) {
  %a = memref.alloc() : memref<8xf32>
  %da, %db = memref.distinct_objects %a, %b : memref<8xf32>, memref<8xf32>
  %cat = memref.alloc() : memref<8xf32>
  %s0 = memref.subview %cat[0] [8] [1] : memref<8xf32> to memref<8xf32, strided<[1]>>
  memref.copy %a, %s0 : memref<8xf32> to memref<8xf32, strided<[1]>>
  memref.copy %da, %out : memref<8xf32> to memref<8xf32>
  return
}
func.func private @kernel(memref<8xf32>)
func.func @external_kernel(%out: memref<8xf32>) {
  %a = memref.alloc() : memref<8xf32>
  func.call @kernel(%a) : (memref<8xf32>) -> ()
  %cat = memref.alloc() : memref<8xf32>
  %s0 = memref.subview %cat[0] [8] [1] : memref<8xf32> to memref<8xf32, strided<[1]>>
  memref.copy %a, %s0 : memref<8xf32> to memref<8xf32, strided<[1]>>
  memref.copy %cat, %out : memref<8xf32> to memref<8xf32>
  return
}

// -----

// Buffers in another memory space, elements LLVM pads (an i24 takes 4
// bytes), and a piece whose alignment is assumed (its slice may start
// anywhere): no change.
// CHECK-LABEL: func @memory_space
// CHECK: memref.copy
// CHECK-LABEL: func @padded_elements
// CHECK: memref.copy
// CHECK-LABEL: func @assumed_alignment
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<16xf32>
// CHECK: memref.copy
func.func @memory_space(%out: memref<8xf32, 1>) {
  %a = memref.alloc() : memref<8xf32, 1>
  %cat = memref.alloc() : memref<8xf32, 1>
  %s0 = memref.subview %cat[0] [8] [1] : memref<8xf32, 1> to memref<8xf32, strided<[1]>, 1>
  memref.copy %a, %s0 : memref<8xf32, 1> to memref<8xf32, strided<[1]>, 1>
  memref.copy %cat, %out : memref<8xf32, 1> to memref<8xf32, 1>
  return
}
func.func @padded_elements(%out: memref<8xi24>) {
  %a = memref.alloc() : memref<4xi24>
  %cat = memref.alloc() : memref<8xi24>
  %s0 = memref.subview %cat[4] [4] [1] : memref<8xi24> to memref<4xi24, strided<[1], offset: 4>>
  memref.copy %a, %s0 : memref<4xi24> to memref<4xi24, strided<[1], offset: 4>>
  memref.copy %cat, %out : memref<8xi24> to memref<8xi24>
  return
}
func.func @assumed_alignment(%out: memref<20xf32>) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  %aligned = memref.assume_alignment %a, 64 : memref<16xf32>
  linalg.fill ins(%one : f32) outs(%aligned : memref<16xf32>)
  %cat = memref.alloc() {alignment = 64 : i64} : memref<20xf32>
  %s0 = memref.subview %cat[4] [16] [1] : memref<20xf32> to memref<16xf32, strided<[1], offset: 4>>
  memref.copy %a, %s0 : memref<16xf32> to memref<16xf32, strided<[1], offset: 4>>
  memref.copy %cat, %out : memref<20xf32> to memref<20xf32>
  return
}
