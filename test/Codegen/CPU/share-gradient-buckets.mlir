// ms-share-gradient-buckets: the buffer a shared gradient bucket's runtime
// call reads (tagged ms.comm_bucket) becomes a trailing argument of the
// entry with the same tag, after the other rank's bucket (ms.comm_peer):
// the allocation itself, or the bytes ms-concat-in-place allocated for it.
// Buffers it cannot trace to an allocation in the entry block stay (the
// runtime then copies them into its buffer).
// RUN: ms-opt %s --ms-share-gradient-buckets --split-input-file | FileCheck %s

// A bucket of its own: the alloc becomes the argument, before the result.
// CHECK-LABEL: func @plain
// CHECK-SAME: (%[[X:.*]]: memref<8xf32>, %[[PEER:.*]]: memref<8xf32> {ms.comm_peer = 0 : i64}, %[[BUCKET:.*]]: memref<8xf32> {ms.comm_bucket = 0 : i64}, %[[OUT:.*]]: memref<8xf32>)
// CHECK-NOT: memref.alloc
// CHECK: memref.copy %[[X]], %[[BUCKET]]
// CHECK: memref.extract_aligned_pointer_as_index %[[BUCKET]]
// CHECK: call @ms_comm_share_bucket_f32
// CHECK: linalg.add ins(%[[BUCKET]], %[[PEER]] : memref<8xf32>, memref<8xf32>) outs(%[[OUT]] : memref<8xf32>)
func.func private @ms_comm_share_bucket_f32(!llvm.ptr, i64, i64)
func.func @plain(%x: memref<8xf32>, %peer: memref<8xf32> {ms.comm_peer = 0 : i64}, %out: memref<8xf32>) {
  %bucket = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
  memref.copy %x, %bucket : memref<8xf32> to memref<8xf32>
  %address = memref.extract_aligned_pointer_as_index %bucket : memref<8xf32> -> index
  %a64 = arith.index_cast %address : index to i64
  %ptr = llvm.inttoptr %a64 : i64 to !llvm.ptr
  %n = arith.constant 8 : i64
  %id = arith.constant 0 : i64
  call @ms_comm_share_bucket_f32(%ptr, %n, %id) {ms.comm_bucket = 0 : i64} : (!llvm.ptr, i64, i64) -> ()
  linalg.add ins(%bucket, %peer : memref<8xf32>, memref<8xf32>) outs(%out : memref<8xf32>)
  return
}

// -----

// ms-concat-in-place's bytes: the bytes become the argument; the pieces'
// views and the whole one read it.
// CHECK-LABEL: func @bytes
// CHECK-SAME: (%[[PEER:.*]]: memref<12xf32> {ms.comm_peer = 0 : i64}, %[[BYTES:.*]]: memref<48xi8> {ms.comm_bucket = 0 : i64})
// CHECK-NOT: memref.alloc
// CHECK: %[[WHOLE:.*]] = memref.view %[[BYTES]][%{{.*}}][] : memref<48xi8> to memref<12xf32>
// CHECK: memref.view %[[BYTES]][%{{.*}}][] : memref<48xi8> to memref<4xf32>
// CHECK: memref.extract_aligned_pointer_as_index %[[WHOLE]]
func.func private @ms_comm_share_bucket_f32(!llvm.ptr, i64, i64)
func.func @bytes(%peer: memref<12xf32> {ms.comm_peer = 0 : i64}) {
  %bytes = memref.alloc() {alignment = 64 : i64} : memref<48xi8>
  %c0 = arith.constant 0 : index
  %whole = memref.view %bytes[%c0][] : memref<48xi8> to memref<12xf32>
  %c32 = arith.constant 32 : index
  %piece = memref.view %bytes[%c32][] : memref<48xi8> to memref<4xf32>
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%piece : memref<4xf32>)
  %address = memref.extract_aligned_pointer_as_index %whole : memref<12xf32> -> index
  %a64 = arith.index_cast %address : index to i64
  %ptr = llvm.inttoptr %a64 : i64 to !llvm.ptr
  %n = arith.constant 12 : i64
  %id = arith.constant 0 : i64
  call @ms_comm_share_bucket_f32(%ptr, %n, %id) {ms.comm_bucket = 0 : i64} : (!llvm.ptr, i64, i64) -> ()
  return
}

// -----

// Not traced: a bucket allocated in a loop (one per iteration) stays.
// CHECK-LABEL: func @in_loop
// CHECK-SAME: (%{{.*}}: memref<8xf32> {ms.comm_peer = 0 : i64})
// CHECK: scf.for
// CHECK: memref.alloc() : memref<8xf32>
func.func private @ms_comm_share_bucket_f32(!llvm.ptr, i64, i64)
func.func @in_loop(%peer: memref<8xf32> {ms.comm_peer = 0 : i64}) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %bucket = memref.alloc() : memref<8xf32>
    %address = memref.extract_aligned_pointer_as_index %bucket : memref<8xf32> -> index
    %a64 = arith.index_cast %address : index to i64
    %ptr = llvm.inttoptr %a64 : i64 to !llvm.ptr
    %n = arith.constant 8 : i64
    %id = arith.constant 0 : i64
    func.call @ms_comm_share_bucket_f32(%ptr, %n, %id) {ms.comm_bucket = 0 : i64} : (!llvm.ptr, i64, i64) -> ()
  }
  return
}
