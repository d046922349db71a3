// ms-plan-buffers: a parallel loop whose body allocates becomes one chunk
// of consecutive iterations per thread (an scf.for in an scf.forall of
// num-threads iterations; the scf.for alone on one thread), and the body's
// static allocations that it does not free move out of the scf.for: once
// per thread, not once per iteration. Loops without allocations, with no
// more iterations than threads, or nested in another stay as they are.
// RUN: ms-opt %s --ms-plan-buffers=num-threads=2 --split-input-file | FileCheck %s
// RUN: ms-opt %s --ms-plan-buffers=num-threads=3 --split-input-file | FileCheck %s --check-prefix=THREE
// RUN: ms-opt %s --ms-plan-buffers=num-threads=1 --split-input-file | FileCheck %s --check-prefix=ONE

// Five images on two threads: chunks of 3, the second ending at 5.
// CHECK-LABEL: func @allocating
// CHECK: %[[N:.*]] = arith.constant 5 : index
// CHECK: scf.forall (%[[T:.*]]) in (2) {
// CHECK: %[[SIZE:.*]] = arith.constant 3 : index
// CHECK: %[[FIRST:.*]] = arith.muli %[[T]], %[[SIZE]] : index
// CHECK: %[[END:.*]] = arith.addi %[[FIRST]], %[[SIZE]] : index
// CHECK: %[[LAST:.*]] = arith.minsi %[[END]], %[[N]] : index
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<4xf32>
// CHECK: scf.for %[[I:.*]] = %[[FIRST]] to %[[LAST]] step %{{.*}} {
// CHECK: memref.store %{{.*}}, %[[BUF]][%{{.*}}]
// CHECK: memref.load %[[BUF]]
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[I]]] : memref<5xf32>
// CHECK-NOT: memref.alloc
// CHECK-NOT: scf.forall
// Three threads: chunks of 2 (2, 2, 1).
// THREE-LABEL: func @allocating
// THREE: scf.forall (%{{.*}}) in (3) {
// THREE: arith.constant 2 : index
// One thread: one loop over the five, its buffer allocated before it.
// ONE-LABEL: func @allocating
// ONE-NOT: scf.forall
// ONE: memref.alloc() : memref<4xf32>
// ONE-NEXT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step
func.func @allocating(%out: memref<5xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  scf.forall (%i) in (5) {
    %buf = memref.alloc() : memref<4xf32>
    memref.store %x, %buf[%c0] : memref<4xf32>
    %v = memref.load %buf[%c0] : memref<4xf32>
    memref.store %v, %out[%i] : memref<5xf32>
  }
  return
}

// -----

// A buffer the body frees stays in the body, so each iteration frees its
// own.
// CHECK-LABEL: func @freed_inside
// CHECK: scf.forall (%{{.*}}) in (2) {
// CHECK: scf.for %
// CHECK-NEXT: memref.alloc() : memref<4xf32>
// CHECK: memref.dealloc
func.func @freed_inside(%out: memref<5xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  scf.forall (%i) in (5) {
    %buf = memref.alloc() : memref<4xf32>
    memref.store %x, %buf[%c0] : memref<4xf32>
    %v = memref.load %buf[%c0] : memref<4xf32>
    memref.store %v, %out[%i] : memref<5xf32>
    memref.dealloc %buf : memref<4xf32>
  }
  return
}

// -----

// No allocation: nothing to plan.
// CHECK-LABEL: func @no_buffers
// CHECK: scf.forall (%{{.*}}) in (5) {
// CHECK-NOT: scf.for %
func.func @no_buffers(%out: memref<5xf32>, %x: f32) {
  scf.forall (%i) in (5) {
    memref.store %x, %out[%i] : memref<5xf32>
  }
  return
}

// -----

// As many iterations as threads (a row split): already one per thread.
// CHECK-LABEL: func @one_per_thread
// CHECK: scf.forall (%{{.*}}) in (2) {
// CHECK-NEXT: memref.alloc
// CHECK-NOT: scf.for %
func.func @one_per_thread(%out: memref<2xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  scf.forall (%i) in (2) {
    %buf = memref.alloc() : memref<4xf32>
    memref.store %x, %buf[%c0] : memref<4xf32>
    %v = memref.load %buf[%c0] : memref<4xf32>
    memref.store %v, %out[%i] : memref<2xf32>
  }
  return
}

// -----

// Only the outermost loop is planned: the threads share it out.
// CHECK-LABEL: func @nested
// CHECK: scf.forall (%{{.*}}) in (2) {
// CHECK: scf.for %
// CHECK: scf.forall (%{{.*}}) in (3) {
// CHECK-NEXT: memref.alloc
func.func @nested(%out: memref<4x3xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  scf.forall (%i) in (4) {
    scf.forall (%j) in (3) {
      %buf = memref.alloc() : memref<4xf32>
      memref.store %x, %buf[%c0] : memref<4xf32>
      %v = memref.load %buf[%c0] : memref<4xf32>
      memref.store %v, %out[%i, %j] : memref<4x3xf32>
    }
  }
  return
}
