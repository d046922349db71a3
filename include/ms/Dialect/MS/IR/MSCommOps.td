//===- MSCommOps.td - Collectives across ranks -------------*- tablegen -*-===//
//
// Data parallelism's gradient all-reduce inside a compiled graph. The shape
// rule is in lib/Dialect/MS/IR/MSCommOps.cpp, the lowering (a call into the
// runtime's MPI layer, Runtime/Communication/Communication.h) in
// lib/Conversion/MSToLinalg/Communication.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MS_DIALECT_MS_IR_MSCOMMOPS_TD
#define MS_DIALECT_MS_IR_MSCOMMOPS_TD

def MS_CommTensor : RankedTensorOf<[F32, F64]> {
  let summary = "ranked tensor of f32 or f64";
}

def MS_AllReduceOp : MS_Op<"all_reduce",
    [InferTypeOpAdaptor, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "reduces a tensor elementwise across all ranks (ops.AllReduce)";
  let description = [{
    Every rank of the MPI world (msmlir.communication) passes a tensor of
    the same type; every rank gets their elementwise `reduce_op` ("sum",
    the default, "max", "min" or "prod"). The result has the input's type.
    `nn.DistributedGradReducer` (and so `nn.TrainOneStepCell` under
    DATA_PARALLEL) emits one per gradient bucket: the flattened gradients
    of several parameters concatenated.

    The op communicates, so it has side effects: it is never folded,
    duplicated or removed, and stays in program order, which every rank
    shares. It lowers to a call to the runtime's `ms_comm_all_reduce_f32` /
    `_f64` (an in-place `MPI_Allreduce`) on a fresh buffer: a copy of the
    input, or, for a bucket that only this op reads, the concatenation's
    own. Run outside mpirun, the world is one rank and the result equals
    the input.

    Example:

    ```mlir
    %sum = ms.all_reduce %grads : tensor<669706xf32>
    %max = ms.all_reduce %x reduce_op "max" : tensor<4x8xf64>
    ```
  }];
  let arguments = (ins MS_CommTensor:$input,
                   DefaultValuedAttr<StrAttr, "\"sum\"">:$reduce_op);
  let results = (outs MS_CommTensor:$output);
  let assemblyFormat = [{
    $input (`reduce_op` $reduce_op^)? attr-dict `:` type($input)
  }];
  let extraClassDeclaration = [{
    /// The runtime's ReduceOp code of reduce_op (Communication.h), or -1.
    static int32_t reduceOpCode(::llvm::StringRef name);
  }];
}

#endif // MS_DIALECT_MS_IR_MSCOMMOPS_TD
