// A worksharing loop that ends its parallel region loses its barrier: the
// region's join waits for every thread anyway. A loop with work after it in
// the region keeps its barrier, and so does one already nowait (unchanged).
// RUN: ms-opt %s --ms-omp-loops-nowait --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @last_loop
// CHECK: omp.parallel
// CHECK-NEXT: omp.wsloop nowait {
func.func @last_loop(%buf: memref<8xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c8) step (%c1) {
        memref.store %v, %buf[%i] : memref<8xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// The first loop's threads must all finish before the second reads its
// results: its barrier stays; the second, last, loop loses its own.
// CHECK-LABEL: func.func @two_loops
// CHECK: omp.parallel
// CHECK-NEXT: omp.wsloop {
// CHECK: omp.wsloop nowait {
func.func @two_loops(%a: memref<8xf32>, %b: memref<8xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c8) step (%c1) {
        memref.store %v, %a[%i] : memref<8xf32>
        omp.yield
      }
    }
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c8) step (%c1) {
        %x = memref.load %a[%c0] : memref<8xf32>
        memref.store %x, %b[%i] : memref<8xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// Work after the loop in the same region: the barrier stays.
// CHECK-LABEL: func.func @work_after
// CHECK: omp.wsloop {
// CHECK-NOT: nowait
func.func @work_after(%buf: memref<8xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c8) step (%c1) {
        memref.store %v, %buf[%i] : memref<8xf32>
        omp.yield
      }
    }
    %x = memref.load %buf[%c0] : memref<8xf32>
    memref.store %x, %buf[%c1] : memref<8xf32>
    omp.terminator
  }
  return
}
