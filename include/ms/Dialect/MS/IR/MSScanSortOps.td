//===- MSScanSortOps.td - cumsum, argsort, gather_elements -*- tablegen -*-===//
//
// Scans and orderings along one axis: cumsum, argsort (which also gives
// topk's indices) and gather_elements, which reads the values an argsort or
// argmax picked (sort, topk and max/min with indices are compositions of
// these in python/msmlir/_ops_sort.py). Shape rules are in
// lib/Dialect/MS/IR/MSScanSortOps.cpp, lowerings in
// lib/Conversion/MSToLinalg/ScanSort.cpp, gradient rules in
// lib/Dialect/MS/IR/Gradients/ScanSort.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MS_DIALECT_MS_IR_MSSCANSORTOPS_TD
#define MS_DIALECT_MS_IR_MSSCANSORTOPS_TD

def MS_CumsumOp : MS_Op<"cumsum", [Pure, InferTypeOpAdaptor]> {
  let summary = "cumulative sum along an axis (ops.cumsum, CumSum)";
  let description = [{
    MindSpore's `CumSum(exclusive, reverse)`: `output[..., i, ...]` is the
    sum of `input[..., j, ...]` over `j <= i` (`j < i` with `exclusive`;
    `j >= i` / `j > i` with `reverse`) along `axis` (negative counts from
    the end). The sums are sequential and in order along the axis (one add
    per step, integers wrapping), so every mode and jit_level give the
    same bits.

    Example:

    ```mlir
    %s = ms.cumsum %x axis 1 : tensor<4x5xf32>
    %r = ms.cumsum %i axis 0 exclusive reverse : tensor<6xi64>
    ```
  }];
  let arguments = (ins MS_NumericTensor:$input, I64Attr:$axis,
                   UnitAttr:$exclusive, UnitAttr:$reverse);
  let results = (outs MS_NumericTensor:$output);
  let assemblyFormat = [{
    $input `axis` $axis (`exclusive` $exclusive^)? (`reverse` $reverse^)?
    attr-dict `:` type($input)
  }];
  let extraClassDeclaration = [{
    /// `axis` normalized to [0, rank).
    int64_t getNormalizedAxis() {
      int64_t axis = static_cast<int64_t>(getAxis());
      return axis < 0 ? axis + getInput().getType().getRank() : axis;
    }
  }];
}

def MS_ArgsortOp : MS_Op<"argsort", [Pure, InferTypeOpAdaptor]> {
  let summary = "indices that sort a tensor along an axis (ops.argsort, "
                "ops.sort, ops.topk)";
  let description = [{
    The positions of `input`'s elements along `axis` in sorted order:
    ascending, or descending with `descending`. The sort is stable (equal
    elements keep their order), and NaN counts as larger than every number
    (last ascending, first descending), as in torch and numpy. With `k`, only
    the first `k` positions are returned, so the result's `axis` has size
    `k`: topk's indices. `output_type` is the index type, i32 (MindSpore's
    Sort/TopK) or i64.

    Each row is merge sorted bottom-up (n ceil(log2 n) steps for a row of
    n elements, in loops with static trip counts whose choices are
    selects: no data-dependent control flow), so every mode gives the same
    result.

    Example:

    ```mlir
    %i = ms.argsort %x axis -1 output_type i32 : tensor<4x5xf32>
    %t = ms.argsort %x axis 1 descending k 2 output_type i32 : tensor<4x5xf32>
    ```
  }];
  let arguments = (ins MS_NumericTensor:$input,
                   DefaultValuedAttr<I64Attr, "-1">:$axis,
                   UnitAttr:$descending, OptionalAttr<I64Attr>:$k,
                   TypeAttrOf<AnySignlessInteger>:$output_type);
  let results = (outs MS_IndexTensor:$output);
  let assemblyFormat = [{
    $input (`axis` $axis^)? (`descending` $descending^)? (`k` $k^)?
    `output_type` $output_type attr-dict `:` type($input)
  }];
  let extraClassDeclaration = [{
    /// `axis` normalized to [0, rank).
    int64_t getNormalizedAxis() {
      int64_t axis = static_cast<int64_t>(getAxis());
      return axis < 0 ? axis + getInput().getType().getRank() : axis;
    }
  }];
}

def MS_GatherElementsOp : MS_Op<"gather_elements", [Pure, InferTypeOpAdaptor]> {
  let summary = "reads one element per index along an axis "
                "(ops.gather_elements, GatherD)";
  let description = [{
    `output[p, j, q] = input[p, indices[p, j, q], q]` along `axis`: the
    result has the shape of `indices`, which has the rank of `input` and
    its sizes on every other axis. An index outside `[0, input.shape[axis])`
    gives 0 (it never reads outside the input), as `ms.gather` does.

    Example:

    ```mlir
    %v = ms.gather_elements %x, %i axis 1 : tensor<4x5xf32>, tensor<4x2xi32>
    ```
  }];
  let arguments = (ins MS_NumericTensor:$input, MS_IndexTensor:$indices,
                   I64Attr:$axis);
  let results = (outs MS_NumericTensor:$output);
  let assemblyFormat = [{
    $input `,` $indices `axis` $axis attr-dict `:` type($input) `,`
    type($indices)
  }];
  let extraClassDeclaration = [{
    /// `axis` normalized to [0, rank).
    int64_t getNormalizedAxis() {
      int64_t axis = static_cast<int64_t>(getAxis());
      return axis < 0 ? axis + getInput().getType().getRank() : axis;
    }
  }];
}

#endif // MS_DIALECT_MS_IR_MSSCANSORTOPS_TD
