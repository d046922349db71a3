// all_reduce lowers to a copy into a fresh buffer (none for a bucket only it
// reads) and an in-place call into the runtime's MPI layer on its aligned
// pointer: one blocking call when the next op reads the result, else a
// start where the op is and a wait just before its first reader. A
// gradient bucket's sum in an entry is shared instead (@bucket below).
// RUN: ms-opt %s --convert-ms-to-linalg | FileCheck %s

// CHECK-DAG: func.func private @ms_comm_all_reduce_f32(!llvm.ptr, i64, i32)
// CHECK-DAG: func.func private @ms_comm_all_reduce_f64(!llvm.ptr, i64, i32)
// CHECK-DAG: func.func private @ms_comm_all_reduce_start_f32(!llvm.ptr, i64, i32)
// CHECK-DAG: func.func private @ms_comm_all_reduce_wait(!llvm.ptr)
// CHECK-DAG: func.func private @ms_comm_share_bucket_f32(!llvm.ptr, i64, i64)
// CHECK-DAG: func.func private @ms_comm_share_bucket_f64(!llvm.ptr, i64, i64)
// CHECK-LABEL: func @sum
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK: %[[COPY:.*]] = bufferization.alloc_tensor() copy(%[[X]]) : tensor<4x8xf32>
// CHECK: %[[BUF:.*]] = bufferization.to_buffer %[[COPY]] : tensor<4x8xf32> to memref<4x8xf32>
// CHECK: %[[ADDR:.*]] = memref.extract_aligned_pointer_as_index %[[BUF]] : memref<4x8xf32> -> index
// CHECK: %[[A64:.*]] = arith.index_cast %[[ADDR]] : index to i64
// CHECK: %[[PTR:.*]] = llvm.inttoptr %[[A64]] : i64 to !llvm.ptr
// CHECK: %[[N:.*]] = arith.constant 32 : i64
// CHECK: %[[OP:.*]] = arith.constant 0 : i32
// CHECK: call @ms_comm_all_reduce_f32(%[[PTR]], %[[N]], %[[OP]]) : (!llvm.ptr, i64, i32) -> ()
// CHECK: %[[R:.*]] = bufferization.to_tensor %[[BUF]] restrict writable : memref<4x8xf32> to tensor<4x8xf32>
// CHECK: return %[[R]]
func.func @sum(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = ms.all_reduce %x : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// One declaration serves every call; the reduce op is the runtime's code.
// CHECK-LABEL: func @ops
// CHECK: arith.constant 1 : i32
// CHECK: call @ms_comm_all_reduce_f64
// CHECK: arith.constant 3 : i32
// CHECK: call @ms_comm_all_reduce_f64
func.func @ops(%x: tensor<5xf64>) -> tensor<5xf64> {
  %0 = ms.all_reduce %x reduce_op "max" : tensor<5xf64>
  %1 = ms.all_reduce %0 reduce_op "prod" : tensor<5xf64>
  return %1 : tensor<5xf64>
}

// A gradient bucket (a sum of a concatenation only the all_reduce reads, in
// an entry function) is shared in its own fresh buffer, no copy: the entry
// gets the other rank's bucket as a trailing argument, the runtime call
// waits for it (or all-reduces in place, the argument then -0.0), and the
// result is the sum of the two.
// CHECK-LABEL: func @bucket
// CHECK-SAME: (%{{.*}}: tensor<4xf32>, %{{.*}}: tensor<8xf32>, %[[PEER:.*]]: tensor<12xf32> {ms.comm_peer = 0 : i64})
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<12xf32>
// CHECK: %[[FIRST:.*]] = tensor.insert_slice %{{.*}} into %[[EMPTY]][0] [4] [1]
// CHECK: %[[BUCKET:.*]] = tensor.insert_slice %{{.*}} into %[[FIRST]][4] [8] [1]
// CHECK-NOT: alloc_tensor
// CHECK: %[[BUF:.*]] = bufferization.to_buffer %[[BUCKET]] : tensor<12xf32> to memref<12xf32>
// CHECK: %[[N:.*]] = arith.constant 12 : i64
// CHECK: %[[ID:.*]] = arith.constant 0 : i64
// CHECK: %[[PTR:.*]] = llvm.inttoptr
// CHECK: call @ms_comm_share_bucket_f32(%[[PTR]], %[[N]], %[[ID]]) {ms.comm_bucket = 0 : i64}
// CHECK: %[[OWN:.*]] = bufferization.to_tensor %[[BUF]] restrict writable
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[OWN]], %[[PEER]] : tensor<12xf32>, tensor<12xf32>) {{.*}} attrs = {ms.bucket_sum}
// CHECK: arith.addf
// CHECK: return %[[SUM]]
func.func @bucket(%a: tensor<4xf32>, %b: tensor<8xf32>) -> tensor<12xf32> {
  %0 = ms.concat %a, %b axis 0 : tensor<4xf32>, tensor<8xf32>
  %1 = ms.all_reduce %0 : tensor<12xf32>
  return %1 : tensor<12xf32>
}

// Each slice of a bucket's sum (a parameter's gradient) is the sum of the
// two buckets' slices, so it fuses into the slice's reader (the update).
// Buckets are numbered in order, each with its argument.
// CHECK-LABEL: func @bucket_slices
// CHECK-SAME: %[[PEER0:[^:]*]]: tensor<12xf64> {ms.comm_peer = 0 : i64}, %[[PEER1:[^:]*]]: tensor<3xf64> {ms.comm_peer = 1 : i64}
// CHECK: call @ms_comm_share_bucket_f64({{.*}}) {ms.comm_bucket = 0 : i64}
// CHECK: %[[OWN:.*]] = bufferization.to_tensor
// CHECK-NOT: ins(%[[OWN]], %[[PEER0]]
// CHECK-DAG: %[[O1:.*]] = tensor.extract_slice %[[OWN]][4] [8] [1]
// CHECK-DAG: %[[P1:.*]] = tensor.extract_slice %[[PEER0]][4] [8] [1]
// CHECK: linalg.generic {{.*}} ins(%[[O1]], %[[P1]] : tensor<8xf64>, tensor<8xf64>)
// CHECK: arith.addf
// CHECK: call @ms_comm_share_bucket_f64({{.*}}) {ms.comm_bucket = 1 : i64}
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[PEER1]] : tensor<3xf64>, tensor<3xf64>) {{.*}} attrs = {ms.bucket_sum}
// CHECK: return
func.func @bucket_slices(%a: tensor<4xf64>, %b: tensor<8xf64>, %c: tensor<1xf64>, %d: tensor<2xf64>) -> (tensor<8xf64>, tensor<3xf64>) {
  %0 = ms.concat %a, %b axis 0 : tensor<4xf64>, tensor<8xf64>
  %1 = ms.all_reduce %0 : tensor<12xf64>
  %2 = ms.slice %1 begin [4] end [12] strides [1] : tensor<12xf64>
  %3 = ms.concat %c, %d axis 0 : tensor<1xf64>, tensor<2xf64>
  %4 = ms.all_reduce %3 : tensor<3xf64>
  return %2, %4 : tensor<8xf64>, tensor<3xf64>
}

// Not shared: another reduce op, or a function with callers (whose
// signature the callers fix).
// CHECK-LABEL: func @bucket_max
// CHECK: call @ms_comm_all_reduce_f32
// CHECK-LABEL: func private @called_bucket
// CHECK-SAME: (%{{.*}}: tensor<4xf32>, %{{.*}}: tensor<8xf32>) -> tensor<12xf32>
// CHECK: call @ms_comm_all_reduce_f32
func.func @bucket_max(%a: tensor<4xf32>, %b: tensor<8xf32>) -> tensor<12xf32> {
  %0 = ms.concat %a, %b axis 0 : tensor<4xf32>, tensor<8xf32>
  %1 = ms.all_reduce %0 reduce_op "max" : tensor<12xf32>
  return %1 : tensor<12xf32>
}
func.func private @called_bucket(%a: tensor<4xf32>, %b: tensor<8xf32>) -> tensor<12xf32> {
  %0 = ms.concat %a, %b axis 0 : tensor<4xf32>, tensor<8xf32>
  %1 = ms.all_reduce %0 : tensor<12xf32>
  return %1 : tensor<12xf32>
}
func.func @calls_bucket(%a: tensor<4xf32>, %b: tensor<8xf32>) -> tensor<12xf32> {
  %0 = call @called_bucket(%a, %b) : (tensor<4xf32>, tensor<8xf32>) -> tensor<12xf32>
  return %0 : tensor<12xf32>
}

// A concatenation read again after the all_reduce keeps its values: copied.
// CHECK-LABEL: func @bucket_read_again
// CHECK: %[[BUCKET:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[4] [8] [1]
// CHECK: bufferization.alloc_tensor() copy(%[[BUCKET]])
// CHECK: call @ms_comm_all_reduce_f32
func.func @bucket_read_again(%a: tensor<4xf32>, %b: tensor<8xf32>) -> (tensor<12xf32>, tensor<12xf32>) {
  %0 = ms.concat %a, %b axis 0 : tensor<4xf32>, tensor<8xf32>
  %1 = ms.all_reduce %0 : tensor<12xf32>
  return %0, %1 : tensor<12xf32>, tensor<12xf32>
}

// A one-tensor concatenation may fold into its input: copied.
// CHECK-LABEL: func @one_piece
// CHECK: bufferization.alloc_tensor() copy
// CHECK: call @ms_comm_all_reduce_f32
func.func @one_piece(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ms.concat %a axis 0 : tensor<4xf32>
  %1 = ms.all_reduce %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// A concatenation with an empty piece may fold into its other piece (here
// the argument): copied.
// CHECK-LABEL: func @empty_piece
// CHECK: bufferization.alloc_tensor() copy
// CHECK: call @ms_comm_all_reduce_f32
func.func @empty_piece(%e: tensor<0xf32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ms.concat %e, %a axis 0 : tensor<0xf32>, tensor<4xf32>
  %1 = ms.all_reduce %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// Work between the all_reduce and its first reader runs while the bytes
// move: the start is where the op was, the wait (on the same pointer) just
// before the reader, and the result tensor after the wait.
// CHECK-LABEL: func @overlapped
// CHECK: %[[BUF:.*]] = bufferization.to_buffer
// CHECK: %[[PTR:.*]] = llvm.inttoptr
// CHECK: call @ms_comm_all_reduce_start_f32(%[[PTR]], %{{.*}}, %{{.*}}) : (!llvm.ptr, i64, i32) -> ()
// CHECK-NOT: ms_comm_all_reduce_wait
// CHECK: math.exp
// CHECK: call @ms_comm_all_reduce_wait(%[[PTR]]) : (!llvm.ptr) -> ()
// CHECK-NEXT: %[[R:.*]] = bufferization.to_tensor %[[BUF]] restrict writable
// CHECK: linalg.generic {{.*}} ins(%[[R]], %{{.*}} : tensor<8xf32>, tensor<8xf32>)
// CHECK: arith.addf
func.func @overlapped(%g: tensor<8xf32>, %x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = ms.all_reduce %g : tensor<8xf32>
  %1 = ms.exp %x : tensor<8xf32>
  %2 = ms.add %0, %1 : tensor<8xf32>, tensor<8xf32>
  return %2 : tensor<8xf32>
}

// Two in flight: each waited for before its own first reader (here both
// at the return, in program order).
// CHECK-LABEL: func @two_in_flight
// CHECK: call @ms_comm_all_reduce_start_f32(%[[P0:[^,]*]],
// CHECK: call @ms_comm_all_reduce_start_f32(%[[P1:[^,]*]],
// CHECK: call @ms_comm_all_reduce_wait(%[[P0]])
// CHECK: call @ms_comm_all_reduce_wait(%[[P1]])
// CHECK: return
func.func @two_in_flight(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = ms.all_reduce %a : tensor<8xf32>
  %1 = ms.all_reduce %b : tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}
