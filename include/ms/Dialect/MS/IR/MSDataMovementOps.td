//===- MSDataMovementOps.td - Slicing, padding, broadcasting, gather -*- tablegen -*-===//
//
// The ops behind Tensor indexing, ops.pad, ops.broadcast_to and
// ops.gather / nn.Embedding. Included from MSOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef MS_DIALECT_MS_IR_MSDATAMOVEMENTOPS_TD
#define MS_DIALECT_MS_IR_MSDATAMOVEMENTOPS_TD

def MS_SliceOp : MS_Op<"slice", [Pure, MS_DtypeNeutral, InferTypeOpAdaptor]> {
  let summary = "a strided slice (Tensor.__getitem__, ops.strided_slice)";
  let description = [{
    Result dimension `d` takes input indices `begin[d]`, `begin[d] +
    strides[d]`, ... below `end[d]`: `ceil((end - begin) / stride)`
    elements. One entry per input dimension, with `0 <= begin <= end <=
    size` and `stride >= 1`; the frontend normalizes negative and
    out-of-range Python indices before building the op.

    Example:

    ```mlir
    %y = ms.slice %x begin [0, 1] end [4, 7] strides [1, 2] : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins MS_AllTensor:$input, DenseI64ArrayAttr:$begin,
                   DenseI64ArrayAttr:$end, DenseI64ArrayAttr:$strides);
  let results = (outs MS_AllTensor:$output);
  let assemblyFormat = [{
    $input `begin` $begin `end` $end `strides` $strides attr-dict `:`
    type($input)
  }];
}

def MS_BroadcastToOp : MS_Op<"broadcast_to", [Pure, MS_DtypeNeutral,
    InferTypeOpAdaptor]> {
  let summary = "broadcasts a tensor to a shape (ops.broadcast_to)";
  let description = [{
    numpy broadcasting of `input` to `shape`: dimensions align on the
    right, and an input dimension of size 1 stretches.

    Example:

    ```mlir
    %y = ms.broadcast_to %b to [64, 10] : tensor<10xf32>
    ```
  }];
  let arguments = (ins MS_AllTensor:$input, DenseI64ArrayAttr:$shape);
  let results = (outs MS_AllTensor:$output);
  let assemblyFormat = "$input `to` $shape attr-dict `:` type($input)";
}

def MS_PadOp : MS_Op<"pad", [Pure, MS_DtypeNeutral, InferTypeOpAdaptor]> {
  let summary = "pads a tensor with a constant (ops.pad, mode 'constant')";
  let description = [{
    Adds `low[d]` elements before and `high[d]` after dimension `d`, all
    equal to `value`. One entry per dimension, none negative.

    Example:

    ```mlir
    %y = ms.pad %x low [0, 1] high [0, 2] value 0.000000e+00 : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins MS_AllTensor:$input, DenseI64ArrayAttr:$low,
                   DenseI64ArrayAttr:$high,
                   DefaultValuedAttr<F32Attr, "0.0">:$value);
  let results = (outs MS_AllTensor:$output);
  let assemblyFormat = [{
    $input `low` $low `high` $high (`value` $value^)? attr-dict `:`
    type($input)
  }];
}

def MS_GatherOp : MS_Op<"gather", [Pure, MS_DtypeNeutral, InferTypeOpAdaptor]> {
  let summary = "gathers slices along an axis (ops.gather, nn.Embedding)";
  let description = [{
    `result[p..., i..., q...] = input[p..., indices[i...], q...]` along
    `axis`: the result shape is `input.shape[:axis] + indices.shape +
    input.shape[axis + 1:]`. An index outside `[0, input.shape[axis])`
    gives zeros (as MindSpore's CPU Gather does); it never reads outside
    the input.

    Example:

    ```mlir
    %e = ms.gather %table, %ids axis 0 : tensor<100x16xf32>, tensor<8x5xi32>
    ```
  }];
  let arguments = (ins MS_AllTensor:$input, MS_IndexTensor:$indices,
                   DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs MS_AllTensor:$output);
  let assemblyFormat = [{
    $input `,` $indices `axis` $axis attr-dict `:` type($input) `,`
    type($indices)
  }];
}

def MS_SliceUpdateOp : MS_Op<"slice_update", [Pure, InferTypeOpAdaptor]> {
  let summary = "a copy of a tensor with a strided slice replaced (Tensor.__setitem__)";
  let description = [{
    The functional form of `input[begin:end:strides] = update`: the result
    equals `input` except at the positions `ms.slice` with the same
    attributes reads, which hold `update` in order. `update` has exactly
    that slice's shape (the frontend broadcasts a value to it first), and
    the same element type as `input`.

    Example:

    ```mlir
    %y = ms.slice_update %x, %u begin [0, 1] end [4, 7] strides [1, 2] : tensor<4x8xf32>, tensor<4x3xf32>
    ```
  }];
  let arguments = (ins MS_AllTensor:$input, MS_AllTensor:$update,
                   DenseI64ArrayAttr:$begin, DenseI64ArrayAttr:$end,
                   DenseI64ArrayAttr:$strides);
  let results = (outs MS_AllTensor:$output);
  let assemblyFormat = [{
    $input `,` $update `begin` $begin `end` $end `strides` $strides
    attr-dict `:` type($input) `,` type($update)
  }];
}

def MS_ScatterUpdateOp : MS_Op<"scatter_update", [Pure, InferTypeOpAdaptor]> {
  let summary = "a copy of a tensor with rows replaced at indices (Tensor.__setitem__, the inverse of gather axis 0)";
  let description = [{
    The functional form of MindSpore's ScatterUpdate:
    `result[indices[i...], q...] = updates[i..., q...]`, every other row
    as in `input`. `updates` has the shape `indices.shape +
    input.shape[1:]` and `input`'s element type. The updates are applied
    in row-major order of `indices`, so with a repeated index the last one
    wins (as numpy's item assignment); an index outside
    `[0, input.shape[0])` writes nothing, as `ms.gather` reads nothing for
    it.

    Example:

    ```mlir
    %y = ms.scatter_update %x, %ids, %rows : tensor<10x4xf32>, tensor<3xi64>, tensor<3x4xf32>
    ```
  }];
  let arguments = (ins MS_AllTensor:$input, MS_IndexTensor:$indices,
                   MS_AllTensor:$updates);
  let results = (outs MS_AllTensor:$output);
  let assemblyFormat = [{
    $input `,` $indices `,` $updates attr-dict `:` type($input) `,`
    type($indices) `,` type($updates)
  }];
}

#endif // MS_DIALECT_MS_IR_MSDATAMOVEMENTOPS_TD
