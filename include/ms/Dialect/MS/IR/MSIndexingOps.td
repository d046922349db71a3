//===- MSIndexingOps.td - one_hot, argmax, argmin ----------*- tablegen -*-===//
//
// Ops that turn values into indices or indices into values. Shape rules are
// in lib/Dialect/MS/IR/MSIndexingOps.cpp, lowerings in
// lib/Conversion/MSToLinalg/Indexing.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MS_DIALECT_MS_IR_MSINDEXINGOPS_TD
#define MS_DIALECT_MS_IR_MSINDEXINGOPS_TD

def MS_OneHotOp : MS_Op<"one_hot", [Pure, InferTypeOpAdaptor]> {
  let summary = "one-hot encoding of integer indices (ops.one_hot)";
  let description = [{
    MindSpore's `ops.one_hot(indices, depth, on_value, off_value, axis)`:
    the result has the shape of `indices` with a new dimension of size
    `depth` inserted at `axis` (-1, the default, appends it). Position `j`
    along that dimension is `on_value` where the index equals `j` and
    `off_value` elsewhere, so an index outside `[0, depth)` gives a row of
    `off_value` (as MindSpore and TensorFlow do). The result is f32.

    Example:

    ```mlir
    %y = ms.one_hot %labels depth 10 : tensor<64xi32>
    %z = ms.one_hot %labels depth 10 axis 0 on_value 9.000000e-01 off_value 1.000000e-02 : tensor<64xi64>
    ```
  }];
  let arguments = (ins MS_IndexTensor:$indices, I64Attr:$depth,
                   DefaultValuedAttr<I64Attr, "-1">:$axis,
                   DefaultValuedAttr<F32Attr, "1.0">:$on_value,
                   DefaultValuedAttr<F32Attr, "0.0">:$off_value);
  let results = (outs MS_Tensor:$output);
  // Keywords, not attr-dict: result inference reads depth and axis while
  // the custom form is parsed.
  let assemblyFormat = [{
    $indices `depth` $depth (`axis` $axis^)? (`on_value` $on_value^)?
    (`off_value` $off_value^)? attr-dict `:` type($indices)
  }];
  let extraClassDeclaration = [{
    /// The axis of the new dimension, in [0, rank of the result).
    int64_t getNormalizedAxis() {
      int64_t axis = static_cast<int64_t>(getAxis());
      return axis < 0 ? axis + getType().getRank() : axis;
    }
  }];
}

// Index of the extreme value along an axis.
class MS_ArgReduceOp<string mnemonic, string what>
    : MS_Op<mnemonic, [Pure, MS_DtypeNeutral, InferTypeOpAdaptor,
                       DeclareOpInterfaceMethods<MS_RowIndependenceOpInterface>]> {
  let summary = "index of the " # what # " along an axis (ops.Arg" # what # ")";
  let description = !strconcat("The index of the ", what, [{ of `input`
    along `axis` (negative counts from the end); with `keep_dims` that axis
    stays as size 1, otherwise it is removed. Ties give the first index, and
    a NaN counts as the extreme value (numpy's rule). `output_type` is the
    index type, i32 (the `ops.Arg`}], what, [{ primitive's default) or i64
    (what `ops.arg}], what, [{` and `Tensor.arg}], what, [{` return).

    Example:

    ```mlir
    %i = ms.}], mnemonic, [{ %logits axis 1 output_type i64 : tensor<64x10xf32>
    %j = ms.}], mnemonic, [{ %x axis -1 keep_dims output_type i32 : tensor<4x5xi32>
    ```
  }]);
  let arguments = (ins MS_NumericTensor:$input,
                   DefaultValuedAttr<I64Attr, "-1">:$axis,
                   UnitAttr:$keep_dims,
                   TypeAttrOf<AnySignlessInteger>:$output_type);
  let results = (outs MS_IndexTensor:$output);
  let assemblyFormat = [{
    $input (`axis` $axis^)? (`keep_dims` $keep_dims^)? `output_type`
    $output_type attr-dict `:` type($input)
  }];
  let extraClassDeclaration = [{
    /// `axis` normalized to [0, rank).
    int64_t getNormalizedAxis() {
      int64_t axis = static_cast<int64_t>(getAxis());
      int64_t rank = getInput().getType().getRank();
      return axis < 0 ? axis + rank : axis;
    }
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::ms::inferArgReduceType(
          getOperationName(), loc, adaptor.getInput().getType(),
          adaptor.getAxisAttr() ? static_cast<int64_t>(adaptor.getAxis()) : -1,
          adaptor.getKeepDims(), adaptor.getOutputTypeAttr(), types);
    }
    std::string $cppClass::whyRowsMix(::llvm::function_ref<bool(::mlir::Value)>) {
      return ::ms::whyRowsMixAlongAxis(getNormalizedAxis());
    }
  }];
}

def MS_ArgmaxOp : MS_ArgReduceOp<"argmax", "max">;
def MS_ArgminOp : MS_ArgReduceOp<"argmin", "min">;

#endif // MS_DIALECT_MS_IR_MSINDEXINGOPS_TD
