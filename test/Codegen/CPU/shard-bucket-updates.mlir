// ms-shard-bucket-updates: after a shared bucket's call, each elementwise
// update of at least 4096 elements that reads one region of the own bucket
// (ms.comm_bucket) and the same region of the other rank's (ms.comm_peer)
// at its own indices is computed on this rank's part of its rows only
// (ms_comm_shard_index of ms_comm_shard_count), and also written over the
// own bucket's region; after the last one, ms_comm_share_shards waits for
// the other rank's part, which is copied from its bucket. Smaller updates
// stay whole, and so does every update of a bucket another op still reads.
// RUN: ms-opt %s --ms-shard-bucket-updates --split-input-file | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#scalar = affine_map<(d0, d1) -> ()>
#id1 = affine_map<(d0) -> (d0)>

// An SGD step's bucket: a 16-element bias (whole: too small) and an 8x512
// weight (split).
// CHECK-LABEL: func @sgd
// CHECK-SAME: (%[[W:[^:]*]]: memref<8x512xf32> {ms.param = "w"}, %[[B:[^:]*]]: memref<16xf32> {ms.param = "b"}, %[[LR:[^:]*]]: memref<f32> {ms.param = "lr"}, %[[PEER:[^:]*]]: memref<4112xf32> {ms.comm_peer = 0 : i64}, %[[BYTES:[^:]*]]: memref<16448xi8> {ms.comm_bucket = 0 : i64})
// CHECK: call @ms_comm_share_bucket_f32
// CHECK: %[[COUNT:.*]] = call @ms_comm_shard_count() : () -> i64
// CHECK: %[[N:.*]] = arith.index_cast %[[COUNT]] : i64 to index
// CHECK: %[[INDEX:.*]] = call @ms_comm_shard_index() : () -> i64
// CHECK: %[[I:.*]] = arith.index_cast %[[INDEX]] : i64 to index
// The bias: whole.
// CHECK: linalg.generic {{.*}} outs(%[[B]] : memref<16xf32>)
// The weight: rows [8 * i / n, 8 * (i + 1) / n).
// CHECK: %[[ROWS:.*]] = arith.constant 8 : index
// CHECK: %[[NEXT:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK: %[[FIRST:.*]] = arith.muli %[[ROWS]], %[[I]] : index
// CHECK: %[[BEGIN:.*]] = arith.divui %[[FIRST]], %[[N]] : index
// CHECK: %[[LAST:.*]] = arith.muli %[[ROWS]], %[[NEXT]] : index
// CHECK: %[[END:.*]] = arith.divui %[[LAST]], %[[N]] : index
// CHECK: %[[SIZE:.*]] = arith.subi %[[END]], %[[BEGIN]] : index
// CHECK: %[[WPART:.*]] = memref.subview %[[W]][%[[BEGIN]], 0] [%[[SIZE]], 512] [1, 1]
// CHECK: %[[OWNPART:.*]] = memref.subview %[[OWNW:.*]][%[[BEGIN]], 0] [%[[SIZE]], 512] [1, 1] : memref<8x512xf32, strided<[512, 1], offset: 16>>
// CHECK: %[[PEERPART:.*]] = memref.subview %[[PEERW:.*]][%[[BEGIN]], 0] [%[[SIZE]], 512] [1, 1] : memref<8x512xf32, strided<[512, 1], offset: 16>>
// CHECK: %[[OWNOUT:.*]] = memref.subview %[[OWNW]][%[[BEGIN]], 0] [%[[SIZE]], 512]
// CHECK: %[[OUTPART:.*]] = memref.subview %[[W]][%[[BEGIN]], 0] [%[[SIZE]], 512]
// CHECK: linalg.generic {{.*}} ins(%[[WPART]], %[[LR]], %[[OWNPART]], %[[PEERPART]] : {{.*}}) outs(%[[OUTPART]], %[[OWNOUT]] : {{.*}})
// CHECK: linalg.yield %[[NEW:.*]], %[[NEW]] : f32, f32
// CHECK: call @ms_comm_share_shards(%{{.*}}) {ms.comm_bucket = 0 : i64} : (i64) -> ()
// The rows before this rank's part, then those after it, from the other
// rank's bucket.
// CHECK: %[[BEFORE:.*]] = arith.subi %[[BEGIN]], %[[ZERO:.*]] : index
// CHECK: %[[AFTER:.*]] = arith.subi %[[ROWS2:.*]], %[[END]] : index
// CHECK: %[[FROM:.*]] = memref.subview %[[PEERW]][%[[ZERO]], 0] [%[[BEFORE]], 512] [1, 1]
// CHECK: %[[TO:.*]] = memref.subview %[[W]][%[[ZERO]], 0] [%[[BEFORE]], 512] [1, 1]
// CHECK: linalg.copy ins(%[[FROM]] : {{.*}}) outs(%[[TO]] : {{.*}})
// CHECK: %[[FROM2:.*]] = memref.subview %[[PEERW]][%[[END]], 0] [%[[AFTER]], 512] [1, 1]
// CHECK: %[[TO2:.*]] = memref.subview %[[W]][%[[END]], 0] [%[[AFTER]], 512] [1, 1]
// CHECK: linalg.copy ins(%[[FROM2]] : {{.*}}) outs(%[[TO2]] : {{.*}})
// CHECK-NEXT: return
func.func private @ms_comm_share_bucket_f32(!llvm.ptr, i64, i64)
func.func @sgd(%w: memref<8x512xf32> {ms.param = "w"}, %b: memref<16xf32> {ms.param = "b"}, %lr: memref<f32> {ms.param = "lr"}, %peer: memref<4112xf32> {ms.comm_peer = 0 : i64}, %bytes: memref<16448xi8> {ms.comm_bucket = 0 : i64}) {
  %c0 = arith.constant 0 : index
  %own = memref.view %bytes[%c0][] : memref<16448xi8> to memref<4112xf32>
  %address = memref.extract_aligned_pointer_as_index %own : memref<4112xf32> -> index
  %a64 = arith.index_cast %address : index to i64
  %ptr = llvm.inttoptr %a64 : i64 to !llvm.ptr
  %n = arith.constant 4112 : i64
  %id = arith.constant 0 : i64
  call @ms_comm_share_bucket_f32(%ptr, %n, %id) {ms.comm_bucket = 0 : i64} : (!llvm.ptr, i64, i64) -> ()
  %ob = memref.subview %own[0] [16] [1] : memref<4112xf32> to memref<16xf32, strided<[1]>>
  %pb = memref.subview %peer[0] [16] [1] : memref<4112xf32> to memref<16xf32, strided<[1]>>
  linalg.generic {indexing_maps = [#id1, #id1, #id1, #id1], iterator_types = ["parallel"]} ins(%b, %ob, %pb : memref<16xf32>, memref<16xf32, strided<[1]>>, memref<16xf32, strided<[1]>>) outs(%b : memref<16xf32>) {
  ^bb0(%bi: f32, %x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.subf %bi, %s : f32
    linalg.yield %r : f32
  }
  %ow = memref.subview %own[16] [4096] [1] : memref<4112xf32> to memref<4096xf32, strided<[1], offset: 16>>
  %pw = memref.subview %peer[16] [4096] [1] : memref<4112xf32> to memref<4096xf32, strided<[1], offset: 16>>
  %ow2 = memref.expand_shape %ow [[0, 1]] output_shape [8, 512] : memref<4096xf32, strided<[1], offset: 16>> into memref<8x512xf32, strided<[512, 1], offset: 16>>
  %pw2 = memref.expand_shape %pw [[0, 1]] output_shape [8, 512] : memref<4096xf32, strided<[1], offset: 16>> into memref<8x512xf32, strided<[512, 1], offset: 16>>
  linalg.generic {indexing_maps = [#id, #scalar, #id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%w, %lr, %ow2, %pw2 : memref<8x512xf32>, memref<f32>, memref<8x512xf32, strided<[512, 1], offset: 16>>, memref<8x512xf32, strided<[512, 1], offset: 16>>) outs(%w : memref<8x512xf32>) {
  ^bb0(%wi: f32, %l: f32, %x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %d = arith.mulf %l, %s : f32
    %r = arith.subf %wi, %d : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A run of updates ends at the first op that reads an output of one: the
// first is split and its copies come before that op, which stays whole
// with everything after it.
// CHECK-LABEL: func @stop_at_reader
// CHECK-SAME: (%[[M:[^:]*]]: memref<64x64xf32>, %[[W:[^:]*]]: memref<64x64xf32>,
// CHECK: linalg.generic {{.*}} outs(%{{.*}}, %{{.*}} : memref<?x64xf32, {{.*}}>, memref<?x64xf32, {{.*}}>)
// CHECK: call @ms_comm_share_shards
// CHECK: linalg.copy
// CHECK: linalg.copy
// CHECK: linalg.generic {{.*}} ins(%[[M]], %{{.*}} : memref<64x64xf32>, {{.*}}) outs(%[[W]] : memref<64x64xf32>)
// CHECK-NOT: call @ms_comm_share_shards
func.func private @ms_comm_share_bucket_f32(!llvm.ptr, i64, i64)
func.func @stop_at_reader(%m: memref<64x64xf32>, %w: memref<64x64xf32>, %peer: memref<8192xf32> {ms.comm_peer = 0 : i64}, %own: memref<8192xf32> {ms.comm_bucket = 0 : i64}) {
  %address = memref.extract_aligned_pointer_as_index %own : memref<8192xf32> -> index
  %a64 = arith.index_cast %address : index to i64
  %ptr = llvm.inttoptr %a64 : i64 to !llvm.ptr
  %n = arith.constant 8192 : i64
  %id = arith.constant 0 : i64
  call @ms_comm_share_bucket_f32(%ptr, %n, %id) {ms.comm_bucket = 0 : i64} : (!llvm.ptr, i64, i64) -> ()
  %os = memref.subview %own[0] [4096] [1] : memref<8192xf32> to memref<4096xf32, strided<[1]>>
  %ps = memref.subview %peer[0] [4096] [1] : memref<8192xf32> to memref<4096xf32, strided<[1]>>
  %o = memref.expand_shape %os [[0, 1]] output_shape [64, 64] : memref<4096xf32, strided<[1]>> into memref<64x64xf32>
  %p = memref.expand_shape %ps [[0, 1]] output_shape [64, 64] : memref<4096xf32, strided<[1]>> into memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%o, %p : memref<64x64xf32>, memref<64x64xf32>) outs(%m : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  %os2 = memref.subview %own[4096] [4096] [1] : memref<8192xf32> to memref<4096xf32, strided<[1], offset: 4096>>
  %ps2 = memref.subview %peer[4096] [4096] [1] : memref<8192xf32> to memref<4096xf32, strided<[1], offset: 4096>>
  %o2 = memref.expand_shape %os2 [[0, 1]] output_shape [64, 64] : memref<4096xf32, strided<[1], offset: 4096>> into memref<64x64xf32, strided<[64, 1], offset: 4096>>
  %p2 = memref.expand_shape %ps2 [[0, 1]] output_shape [64, 64] : memref<4096xf32, strided<[1], offset: 4096>> into memref<64x64xf32, strided<[64, 1], offset: 4096>>
  linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%m, %o2, %p2 : memref<64x64xf32>, memref<64x64xf32, strided<[64, 1], offset: 4096>>, memref<64x64xf32, strided<[64, 1], offset: 4096>>) outs(%w : memref<64x64xf32>) {
  ^bb0(%mi: f32, %x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.subf %mi, %s : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// The same when the op reaches the output by another name: its address,
// taken before the bucket's call, passed to a call after the first
// update. The copies come before that call.
// CHECK-LABEL: func @stop_at_address
// CHECK-SAME: (%[[M:[^:]*]]: memref<64x64xf32>, %[[W:[^:]*]]: memref<64x64xf32>,
// CHECK: call @ms_comm_share_shards
// CHECK: linalg.copy
// CHECK: linalg.copy
// CHECK-NEXT: call @consume
// CHECK: linalg.generic {{.*}} outs(%[[W]] : memref<64x64xf32>)
// CHECK-NOT: call @ms_comm_share_shards
func.func private @ms_comm_share_bucket_f32(!llvm.ptr, i64, i64)
func.func private @consume(index)
func.func @stop_at_address(%m: memref<64x64xf32>, %w: memref<64x64xf32>, %peer: memref<8192xf32> {ms.comm_peer = 0 : i64}, %own: memref<8192xf32> {ms.comm_bucket = 0 : i64}) {
  %mAddress = memref.extract_aligned_pointer_as_index %m : memref<64x64xf32> -> index
  %address = memref.extract_aligned_pointer_as_index %own : memref<8192xf32> -> index
  %a64 = arith.index_cast %address : index to i64
  %ptr = llvm.inttoptr %a64 : i64 to !llvm.ptr
  %n = arith.constant 8192 : i64
  %id = arith.constant 0 : i64
  call @ms_comm_share_bucket_f32(%ptr, %n, %id) {ms.comm_bucket = 0 : i64} : (!llvm.ptr, i64, i64) -> ()
  %os = memref.subview %own[0] [4096] [1] : memref<8192xf32> to memref<4096xf32, strided<[1]>>
  %ps = memref.subview %peer[0] [4096] [1] : memref<8192xf32> to memref<4096xf32, strided<[1]>>
  %o = memref.expand_shape %os [[0, 1]] output_shape [64, 64] : memref<4096xf32, strided<[1]>> into memref<64x64xf32>
  %p = memref.expand_shape %ps [[0, 1]] output_shape [64, 64] : memref<4096xf32, strided<[1]>> into memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%o, %p : memref<64x64xf32>, memref<64x64xf32>) outs(%m : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  call @consume(%mAddress) : (index) -> ()
  %os2 = memref.subview %own[4096] [4096] [1] : memref<8192xf32> to memref<4096xf32, strided<[1], offset: 4096>>
  %ps2 = memref.subview %peer[4096] [4096] [1] : memref<8192xf32> to memref<4096xf32, strided<[1], offset: 4096>>
  %o2 = memref.expand_shape %os2 [[0, 1]] output_shape [64, 64] : memref<4096xf32, strided<[1], offset: 4096>> into memref<64x64xf32, strided<[64, 1], offset: 4096>>
  %p2 = memref.expand_shape %ps2 [[0, 1]] output_shape [64, 64] : memref<4096xf32, strided<[1], offset: 4096>> into memref<64x64xf32, strided<[64, 1], offset: 4096>>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%o2, %p2 : memref<64x64xf32, strided<[64, 1], offset: 4096>>, memref<64x64xf32, strided<[64, 1], offset: 4096>>) outs(%w : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Left whole, each for one reason (each case is split without it):
// another op reads the own bucket's region after the call (@read_own),
// or the other rank's (@read_peer), or reads the own region through a
// view that starts elsewhere in the bucket (@read_shifted), or through a
// reinterpret_cast of a view of other bytes (@read_reinterpreted); the
// regions
// differ (@other_region); the other rank's is read transposed
// (@transposed); the bucket is not the argument (@not_argument); the body
// reads the index (@index); the output's elements are not the bucket's
// (@element_type).
// CHECK-NOT: ms_comm_shard
func.func private @ms_comm_share_bucket_f32(!llvm.ptr, i64, i64)
func.func private @ms_comm_share_bucket_f64(!llvm.ptr, i64, i64)
func.func @read_own(%w: memref<64x64xf32>, %peer: memref<4096xf32> {ms.comm_peer = 0 : i64}, %bytes: memref<16384xi8> {ms.comm_bucket = 0 : i64}, %later: memref<vector<8xf32>>) {
  %c0b = arith.constant 0 : index
  %own = memref.view %bytes[%c0b][] : memref<16384xi8> to memref<4096xf32>
  %address = memref.extract_aligned_pointer_as_index %own : memref<4096xf32> -> index
  %a64 = arith.index_cast %address : index to i64
  %ptr = llvm.inttoptr %a64 : i64 to !llvm.ptr
  %n = arith.constant 4096 : i64
  %id = arith.constant 0 : i64
  call @ms_comm_share_bucket_f32(%ptr, %n, %id) {ms.comm_bucket = 0 : i64} : (!llvm.ptr, i64, i64) -> ()
  %os = memref.subview %own[0] [4096] [1] : memref<4096xf32> to memref<4096xf32, strided<[1]>>
  %ps = memref.subview %peer[0] [4096] [1] : memref<4096xf32> to memref<4096xf32, strided<[1]>>
  %o = memref.expand_shape %os [[0, 1]] output_shape [64, 64] : memref<4096xf32, strided<[1]>> into memref<64x64xf32>
  %p = memref.expand_shape %ps [[0, 1]] output_shape [64, 64] : memref<4096xf32, strided<[1]>> into memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%o, %p : memref<64x64xf32>, memref<64x64xf32>) outs(%w : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  %c8 = arith.constant 8 : index
  %v = vector.load %own[%c8] : memref<4096xf32>, vector<8xf32>
  memref.store %v, %later[] : memref<vector<8xf32>>
  return
}
func.func @read_peer(%w: memref<64x64xf32>, %peer: memref<4096xf32> {ms.comm_peer = 0 : i64}, %bytes: memref<16384xi8> {ms.comm_bucket = 0 : i64}, %later: memref<vector<8xf32>>) {
  %c0b = arith.constant 0 : index
  %own = memref.view %bytes[%c0b][] : memref<16384xi8> to memref<4096xf32>
  %address = memref.extract_aligned_pointer_as_index %own : memref<4096xf32> -> index
  %a64 = arith.index_cast %address : index to i64
  %ptr = llvm.inttoptr %a64 : i64 to !llvm.ptr
  %n = arith.constant 4096 : i64
  %id = arith.constant 0 : i64
  call @ms_comm_share_bucket_f32(%ptr, %n, %id) {ms.comm_bucket = 0 : i64} : (!llvm.ptr, i64, i64) -> ()
  %os = memref.subview %own[0] [4096] [1] : memref<4096xf32> to memref<4096xf32, strided<[1]>>
  %ps = memref.subview %peer[0] [4096] [1] : memref<4096xf32> to memref<4096xf32, strided<[1]>>
  %o = memref.expand_shape %os [[0, 1]] output_shape [64, 64] : memref<4096xf32, strided<[1]>> into memref<64x64xf32>
  %p = memref.expand_shape %ps [[0, 1]] output_shape [64, 64] : memref<4096xf32, strided<[1]>> into memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%o, %p : memref<64x64xf32>, memref<64x64xf32>) outs(%w : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  %c4088 = arith.constant 4088 : index
  %v = vector.load %peer[%c4088] : memref<4096xf32>, vector<8xf32>
  memref.store %v, %later[] : memref<vector<8xf32>>
  return
}
func.func @read_shifted(%w: memref<64x64xf32>, %peer: memref<4096xf32> {ms.comm_peer = 0 : i64}, %bytes: memref<16384xi8> {ms.comm_bucket = 0 : i64}, %later: memref<vector<8xf32>>) {
  %c0b = arith.constant 0 : index
  %own = memref.view %bytes[%c0b][] : memref<16384xi8> to memref<4096xf32>
  %address = memref.extract_aligned_pointer_as_index %own : memref<4096xf32> -> index
  %a64 = arith.index_cast %address : index to i64
  %ptr = llvm.inttoptr %a64 : i64 to !llvm.ptr
  %n = arith.constant 4096 : i64
  %id = arith.constant 0 : i64
  call @ms_comm_share_bucket_f32(%ptr, %n, %id) {ms.comm_bucket = 0 : i64} : (!llvm.ptr, i64, i64) -> ()
  %os = memref.subview %own[0] [4096] [1] : memref<4096xf32> to memref<4096xf32, strided<[1]>>
  %ps = memref.subview %peer[0] [4096] [1] : memref<4096xf32> to memref<4096xf32, strided<[1]>>
  %o = memref.expand_shape %os [[0, 1]] output_shape [64, 64] : memref<4096xf32, strided<[1]>> into memref<64x64xf32>
  %p = memref.expand_shape %ps [[0, 1]] output_shape [64, 64] : memref<4096xf32, strided<[1]>> into memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%o, %p : memref<64x64xf32>, memref<64x64xf32>) outs(%w : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %shifted = memref.view %bytes[%c64][] : memref<16384xi8> to memref<8xf32>
  %v = vector.load %shifted[%c0] : memref<8xf32>, vector<8xf32>
  memref.store %v, %later[] : memref<vector<8xf32>>
  return
}
func.func @transposed(%w: memref<64x64xf32>, %peer: memref<4096xf32> {ms.comm_peer = 0 : i64}, %bytes: memref<16384xi8> {ms.comm_bucket = 0 : i64}) {
  %c0b = arith.constant 0 : index
  %own = memref.view %bytes[%c0b][] : memref<16384xi8> to memref<4096xf32>
  %address = memref.extract_aligned_pointer_as_index %own : memref<4096xf32> -> index
  %a64 = arith.index_cast %address : index to i64
  %ptr = llvm.inttoptr %a64 : i64 to !llvm.ptr
  %n = arith.constant 4096 : i64
  %id = arith.constant 0 : i64
  call @ms_comm_share_bucket_f32(%ptr, %n, %id) {ms.comm_bucket = 0 : i64} : (!llvm.ptr, i64, i64) -> ()
  %os = memref.subview %own[0] [4096] [1] : memref<4096xf32> to memref<4096xf32, strided<[1]>>
  %ps = memref.subview %peer[0] [4096] [1] : memref<4096xf32> to memref<4096xf32, strided<[1]>>
  %o = memref.expand_shape %os [[0, 1]] output_shape [64, 64] : memref<4096xf32, strided<[1]>> into memref<64x64xf32>
  %p = memref.expand_shape %ps [[0, 1]] output_shape [64, 64] : memref<4096xf32, strided<[1]>> into memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d1, d0)>, #id], iterator_types = ["parallel", "parallel"]} ins(%o, %p : memref<64x64xf32>, memref<64x64xf32>) outs(%w : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}
func.func @not_argument(%w: memref<64x64xf32>, %peer: memref<4096xf32> {ms.comm_peer = 0 : i64}, %unused: memref<4096xf32> {ms.comm_bucket = 0 : i64}) {
  %own = memref.alloc() : memref<4096xf32>
  %address = memref.extract_aligned_pointer_as_index %own : memref<4096xf32> -> index
  %a64 = arith.index_cast %address : index to i64
  %ptr = llvm.inttoptr %a64 : i64 to !llvm.ptr
  %n = arith.constant 4096 : i64
  %id = arith.constant 0 : i64
  call @ms_comm_share_bucket_f32(%ptr, %n, %id) {ms.comm_bucket = 0 : i64} : (!llvm.ptr, i64, i64) -> ()
  %os = memref.subview %own[0] [4096] [1] : memref<4096xf32> to memref<4096xf32, strided<[1]>>
  %ps = memref.subview %peer[0] [4096] [1] : memref<4096xf32> to memref<4096xf32, strided<[1]>>
  %o = memref.expand_shape %os [[0, 1]] output_shape [64, 64] : memref<4096xf32, strided<[1]>> into memref<64x64xf32>
  %p = memref.expand_shape %ps [[0, 1]] output_shape [64, 64] : memref<4096xf32, strided<[1]>> into memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%o, %p : memref<64x64xf32>, memref<64x64xf32>) outs(%w : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}
func.func @index(%w: memref<64x64xf32>, %peer: memref<4096xf32> {ms.comm_peer = 0 : i64}, %bytes: memref<16384xi8> {ms.comm_bucket = 0 : i64}) {
  %c0b = arith.constant 0 : index
  %own = memref.view %bytes[%c0b][] : memref<16384xi8> to memref<4096xf32>
  %address = memref.extract_aligned_pointer_as_index %own : memref<4096xf32> -> index
  %a64 = arith.index_cast %address : index to i64
  %ptr = llvm.inttoptr %a64 : i64 to !llvm.ptr
  %n = arith.constant 4096 : i64
  %id = arith.constant 0 : i64
  call @ms_comm_share_bucket_f32(%ptr, %n, %id) {ms.comm_bucket = 0 : i64} : (!llvm.ptr, i64, i64) -> ()
  %os = memref.subview %own[0] [4096] [1] : memref<4096xf32> to memref<4096xf32, strided<[1]>>
  %ps = memref.subview %peer[0] [4096] [1] : memref<4096xf32> to memref<4096xf32, strided<[1]>>
  %o = memref.expand_shape %os [[0, 1]] output_shape [64, 64] : memref<4096xf32, strided<[1]>> into memref<64x64xf32>
  %p = memref.expand_shape %ps [[0, 1]] output_shape [64, 64] : memref<4096xf32, strided<[1]>> into memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%o, %p : memref<64x64xf32>, memref<64x64xf32>) outs(%w : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %i = linalg.index 0 : index
    %i32 = arith.index_cast %i : index to i32
    %f = arith.sitofp %i32 : i32 to f32
    %s = arith.addf %x, %y : f32
    %r = arith.addf %s, %f : f32
    linalg.yield %r : f32
  }
  return
}
func.func @other_region(%w: memref<64x64xf32>, %peer: memref<8192xf32> {ms.comm_peer = 0 : i64}, %bytes: memref<32768xi8> {ms.comm_bucket = 0 : i64}) {
  %c0 = arith.constant 0 : index
  %own = memref.view %bytes[%c0][] : memref<32768xi8> to memref<8192xf32>
  %address = memref.extract_aligned_pointer_as_index %own : memref<8192xf32> -> index
  %a64 = arith.index_cast %address : index to i64
  %ptr = llvm.inttoptr %a64 : i64 to !llvm.ptr
  %n = arith.constant 8192 : i64
  %id = arith.constant 0 : i64
  call @ms_comm_share_bucket_f32(%ptr, %n, %id) {ms.comm_bucket = 0 : i64} : (!llvm.ptr, i64, i64) -> ()
  %c16384 = arith.constant 16384 : index
  %second = memref.view %bytes[%c16384][] : memref<32768xi8> to memref<4096xf32>
  %os = memref.subview %second[0] [4096] [1] : memref<4096xf32> to memref<4096xf32, strided<[1]>>
  %ps = memref.subview %peer[0] [4096] [1] : memref<8192xf32> to memref<4096xf32, strided<[1]>>
  %o = memref.expand_shape %os [[0, 1]] output_shape [64, 64] : memref<4096xf32, strided<[1]>> into memref<64x64xf32>
  %p = memref.expand_shape %ps [[0, 1]] output_shape [64, 64] : memref<4096xf32, strided<[1]>> into memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%o, %p : memref<64x64xf32>, memref<64x64xf32>) outs(%w : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}
func.func @element_type(%w: memref<64x64xf32>, %peer: memref<4096xf64> {ms.comm_peer = 0 : i64}, %own: memref<4096xf64> {ms.comm_bucket = 0 : i64}) {
  %address = memref.extract_aligned_pointer_as_index %own : memref<4096xf64> -> index
  %a64 = arith.index_cast %address : index to i64
  %ptr = llvm.inttoptr %a64 : i64 to !llvm.ptr
  %n = arith.constant 4096 : i64
  %id = arith.constant 0 : i64
  call @ms_comm_share_bucket_f64(%ptr, %n, %id) {ms.comm_bucket = 0 : i64} : (!llvm.ptr, i64, i64) -> ()
  %os = memref.subview %own[0] [4096] [1] : memref<4096xf64> to memref<4096xf64, strided<[1]>>
  %ps = memref.subview %peer[0] [4096] [1] : memref<4096xf64> to memref<4096xf64, strided<[1]>>
  %o = memref.expand_shape %os [[0, 1]] output_shape [64, 64] : memref<4096xf64, strided<[1]>> into memref<64x64xf64>
  %p = memref.expand_shape %ps [[0, 1]] output_shape [64, 64] : memref<4096xf64, strided<[1]>> into memref<64x64xf64>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%o, %p : memref<64x64xf64>, memref<64x64xf64>) outs(%w : memref<64x64xf32>) {
  ^bb0(%x: f64, %y: f64, %out: f32):
    %s = arith.addf %x, %y : f64
    %t = arith.truncf %s : f64 to f32
    linalg.yield %t : f32
  }
  return
}
func.func @read_reinterpreted(%w: memref<64x64xf32>, %peer: memref<8192xf32> {ms.comm_peer = 0 : i64}, %own: memref<8192xf32> {ms.comm_bucket = 0 : i64}, %later: memref<vector<8xf32>>) {
  %address = memref.extract_aligned_pointer_as_index %own : memref<8192xf32> -> index
  %a64 = arith.index_cast %address : index to i64
  %ptr = llvm.inttoptr %a64 : i64 to !llvm.ptr
  %n = arith.constant 8192 : i64
  %id = arith.constant 0 : i64
  call @ms_comm_share_bucket_f32(%ptr, %n, %id) {ms.comm_bucket = 0 : i64} : (!llvm.ptr, i64, i64) -> ()
  %os = memref.subview %own[0] [4096] [1] : memref<8192xf32> to memref<4096xf32, strided<[1]>>
  %ps = memref.subview %peer[0] [4096] [1] : memref<8192xf32> to memref<4096xf32, strided<[1]>>
  %o = memref.expand_shape %os [[0, 1]] output_shape [64, 64] : memref<4096xf32, strided<[1]>> into memref<64x64xf32>
  %p = memref.expand_shape %ps [[0, 1]] output_shape [64, 64] : memref<4096xf32, strided<[1]>> into memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%o, %p : memref<64x64xf32>, memref<64x64xf32>) outs(%w : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  %tail = memref.subview %own[4096] [8] [1] : memref<8192xf32> to memref<8xf32, strided<[1], offset: 4096>>
  %head = memref.reinterpret_cast %tail to offset: [0], sizes: [8], strides: [1] : memref<8xf32, strided<[1], offset: 4096>> to memref<8xf32>
  %c0 = arith.constant 0 : index
  %v = vector.load %head[%c0] : memref<8xf32>, vector<8xf32>
  memref.store %v, %later[] : memref<vector<8xf32>>
  return
}
