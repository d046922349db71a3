//===- MSLogicalOps.td - comparisons, logic, select, cast --*- tablegen -*-===//
//
// Ops on and producing bool tensors (i1 in the IR), and the dtype cast.
// Shape rules are in lib/Dialect/MS/IR/MSIndexingOps.cpp, lowerings in
// lib/Conversion/MSToLinalg/Logical.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MS_DIALECT_MS_IR_MSLOGICALOPS_TD
#define MS_DIALECT_MS_IR_MSLOGICALOPS_TD

// Elementwise comparison with numpy broadcasting; the result is bool.
class MS_CompareOp<string mnemonic, string formula, list<Trait> traits = []>
    : MS_Op<mnemonic, traits # [Pure, MS_Elementwise, MS_DtypeNeutral,
                                InferTypeOpAdaptor]> {
  let summary = "elementwise " # formula # " with numpy broadcasting, as bool";
  let description = !strconcat("Computes `", formula, [{` elementwise, as an
    i1 (bool) tensor. The operands have the same element type and broadcast
    like numpy. Floats compare ordered (a NaN compares false), except
    `not_equal`, which is true for a NaN as in numpy.

    Example:

    ```mlir
    %m = ms.}], mnemonic, [{ %x, %y : tensor<64xi32>, tensor<64xi32>
    ```
  }]);
  let arguments = (ins MS_AllTensor:$lhs, MS_AllTensor:$rhs);
  let results = (outs MS_BoolTensor:$output);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *ctx, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::ms::inferCompareType(getOperationName(), loc,
                                    adaptor.getLhs().getType(),
                                    adaptor.getRhs().getType(),
                                    /*boolOperands=*/false, types);
    }
  }];
}

def MS_EqualOp : MS_CompareOp<"equal", "lhs == rhs", [Commutative]>;
def MS_NotEqualOp : MS_CompareOp<"not_equal", "lhs != rhs", [Commutative]>;
def MS_GreaterOp : MS_CompareOp<"greater", "lhs > rhs">;
def MS_GreaterEqualOp : MS_CompareOp<"greater_equal", "lhs >= rhs">;
def MS_LessOp : MS_CompareOp<"less", "lhs < rhs">;
def MS_LessEqualOp : MS_CompareOp<"less_equal", "lhs <= rhs">;

// Elementwise logic of two bool tensors with numpy broadcasting.
class MS_LogicalBinaryOp<string mnemonic, string formula>
    : MS_Op<mnemonic, [Pure, Commutative, MS_Elementwise, InferTypeOpAdaptor]> {
  let summary = "elementwise " # formula # " of bool tensors";
  let description = !strconcat("Computes `", formula, [{` elementwise on
    bool (i1) tensors that broadcast like numpy, as `ops.}], mnemonic, [{`
    does.

    Example:

    ```mlir
    %m = ms.}], mnemonic, [{ %a, %b : tensor<64xi1>, tensor<1xi1>
    ```
  }]);
  let arguments = (ins MS_BoolTensor:$lhs, MS_BoolTensor:$rhs);
  let results = (outs MS_BoolTensor:$output);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *ctx, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::ms::inferCompareType(getOperationName(), loc,
                                    adaptor.getLhs().getType(),
                                    adaptor.getRhs().getType(),
                                    /*boolOperands=*/true, types);
    }
  }];
}

def MS_LogicalAndOp : MS_LogicalBinaryOp<"logical_and", "lhs and rhs">;
def MS_LogicalOrOp : MS_LogicalBinaryOp<"logical_or", "lhs or rhs">;

def MS_LogicalNotOp : MS_Op<"logical_not", [Pure, MS_Elementwise,
    SameOperandsAndResultType]> {
  let summary = "elementwise not of a bool tensor (ops.logical_not)";
  let description = [{
    Example:

    ```mlir
    %n = ms.logical_not %m : tensor<64xi1>
    ```
  }];
  let arguments = (ins MS_BoolTensor:$input);
  let results = (outs MS_BoolTensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def MS_SelectOp : MS_Op<"select", [Pure, MS_Elementwise, MS_DtypeNeutral,
    InferTypeOpAdaptor]> {
  let summary = "picks from two tensors by a bool mask (ops.where, ops.select)";
  let description = [{
    `ops.where(condition, x, y)`: `x` where `condition` is true, `y`
    elsewhere. The three operands broadcast together like numpy; `x` and `y`
    have the same element type, which the result has.

    Example:

    ```mlir
    %z = ms.select %mask, %x, %y : tensor<64x10xi1>, tensor<64x10xf32>, tensor<f32>
    ```
  }];
  let arguments = (ins MS_BoolTensor:$condition, MS_AllTensor:$true_value,
                   MS_AllTensor:$false_value);
  let results = (outs MS_AllTensor:$output);
  let assemblyFormat = [{
    $condition `,` $true_value `,` $false_value attr-dict `:`
    type($condition) `,` type($true_value) `,` type($false_value)
  }];
}

def MS_CastOp : MS_Op<"cast", [Pure, MS_Elementwise, MS_DtypeNeutral,
    InferTypeOpAdaptor]> {
  let summary = "converts the element type (ops.cast, Tensor.astype)";
  let description = [{
    Converts each element to `to`. Float to integer truncates toward zero
    (numpy's and MindSpore's rule for in-range values); integer to integer
    sign-extends or truncates; to bool is `x != 0`; from bool gives 0 or 1.

    Example:

    ```mlir
    %y = ms.cast %x to i32 : tensor<64x10xf32>
    %b = ms.cast %i to i1 : tensor<4xi64>
    ```
  }];
  let arguments = (ins MS_AllTensor:$input, TypeAttr:$to);
  let results = (outs MS_AllTensor:$output);
  let assemblyFormat = "$input `to` $to attr-dict `:` type($input)";
  let hasFolder = 1;
}

#endif // MS_DIALECT_MS_IR_MSLOGICALOPS_TD
