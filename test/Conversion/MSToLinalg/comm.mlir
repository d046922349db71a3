// all_reduce lowers to a copy into a fresh buffer (none for a bucket only it
// reads) and an in-place call into the runtime's MPI layer on its aligned
// pointer: one blocking call when the next op reads the result, else a
// start where the op is and a wait just before its first reader.
// RUN: ms-opt %s --convert-ms-to-linalg | FileCheck %s

// CHECK-DAG: func.func private @ms_comm_all_reduce_f32(!llvm.ptr, i64, i32)
// CHECK-DAG: func.func private @ms_comm_all_reduce_f64(!llvm.ptr, i64, i32)
// CHECK-DAG: func.func private @ms_comm_all_reduce_start_f32(!llvm.ptr, i64, i32)
// CHECK-DAG: func.func private @ms_comm_all_reduce_wait(!llvm.ptr)
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

// A bucket (a concatenation only the all_reduce reads) is reduced in its
// own fresh buffer: no copy.
// CHECK-LABEL: func @bucket
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<12xf32>
// CHECK: %[[FIRST:.*]] = tensor.insert_slice %{{.*}} into %[[EMPTY]][0] [4] [1]
// CHECK: %[[BUCKET:.*]] = tensor.insert_slice %{{.*}} into %[[FIRST]][4] [8] [1]
// CHECK-NOT: alloc_tensor
// CHECK: bufferization.to_buffer %[[BUCKET]] : tensor<12xf32> to memref<12xf32>
// CHECK: call @ms_comm_all_reduce_f32
func.func @bucket(%a: tensor<4xf32>, %b: tensor<8xf32>) -> tensor<12xf32> {
  %0 = ms.concat %a, %b axis 0 : tensor<4xf32>, tensor<8xf32>
  %1 = ms.all_reduce %0 : tensor<12xf32>
  return %1 : tensor<12xf32>
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
