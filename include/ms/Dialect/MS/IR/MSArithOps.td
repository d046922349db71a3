//===- MSArithOps.td - pow, floor_div, floor_mod, fmod -----*- tablegen -*-===//
//
// Broadcasting binary ops on numbers of every MindSpore numeric dtype, with
// integer semantics where the dtype is an integer. Shape rules are the
// elementwise ones (inferBroadcastType); lowerings are in
// lib/Conversion/MSToLinalg/Arith.cpp, gradient rules in
// lib/Dialect/MS/IR/Gradients/Arith.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MS_DIALECT_MS_IR_MSARITHOPS_TD
#define MS_DIALECT_MS_IR_MSARITHOPS_TD

// Elementwise op of two numeric tensors of one element type, broadcasting.
class MS_NumericBinaryOp<string mnemonic, string summaryText,
                         string semantics>
    : MS_Op<mnemonic, [Pure, MS_Elementwise, InferTypeOpAdaptor]> {
  let summary = summaryText # " with numpy broadcasting";
  let description = !strconcat(semantics, [{

    Both operands have the same element type (any MindSpore numeric dtype)
    and broadcast like numpy.

    Example:

    ```mlir
    %z = ms.}], mnemonic, [{ %x, %y : tensor<64x10xf32>, tensor<10xf32>
    %w = ms.}], mnemonic, [{ %i, %j : tensor<4xi32>, tensor<i32>
    ```
  }]);
  let arguments = (ins MS_NumericTensor:$lhs, MS_NumericTensor:$rhs);
  let results = (outs MS_NumericTensor:$output);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::ms::inferBroadcastType(getOperationName(), loc,
                                      adaptor.getLhs().getType(),
                                      adaptor.getRhs().getType(), types);
    }
  }];
}

def MS_PowOp : MS_NumericBinaryOp<"pow", "lhs raised to the power rhs (ops.pow)", [{
    `ops.pow(input, exponent)`: `lhs ** rhs` elementwise. Floats use the C
    library's `pow` (so `0 ** 0 = 1`, a negative base to a non-integer power
    is NaN). Integers are exact, by repeated squaring with wrap-around on
    overflow as numpy's integer power; a negative exponent gives the
    truncated quotient `1 / lhs ** -rhs` (1 for a base of 1, +-1 for -1,
    and 0 otherwise, as torch does) where numpy would raise.
}]>;

def MS_FloorDivOp : MS_NumericBinaryOp<"floor_div",
    "division rounded toward minus infinity (ops.floor_divide, //)", [{
    `ops.floor_divide(input, other)`: `floor(lhs / rhs)`, Python's `//`.
    Floats follow numpy's `floor_divide`: `(lhs - fmod(lhs, rhs)) / rhs`
    corrected to the floor, so the result is the exact floor of the true
    quotient; division by zero gives `lhs / rhs` (an infinity or NaN).
    Signed integers round toward minus infinity; unsigned ones truncate.
    Integer division by zero gives 0 and `INT_MIN // -1` wraps to `INT_MIN`
    (numpy's results, without its warning); neither traps.
}]>;

def MS_FloorModOp : MS_NumericBinaryOp<"floor_mod",
    "remainder with the sign of the divisor (ops.remainder, %)", [{
    `ops.remainder(input, other)` (MindSpore's `FloorMod`): `lhs - floor(lhs
    / rhs) * rhs`, Python's `%`: the result has the sign of `rhs` (or is a
    zero of that sign). Floats follow numpy's `remainder` (from `fmod`, so
    it is exact); `x % 0` is NaN. Integers: `x % 0` is 0, as numpy gives.
}]>;

def MS_FmodOp : MS_NumericBinaryOp<"fmod",
    "remainder with the sign of the dividend (ops.fmod)", [{
    `ops.fmod(input, other)`: C's `fmod`, `lhs - trunc(lhs / rhs) * rhs`;
    the result has the sign of `lhs`. Floats: `x fmod 0` is NaN. Integers:
    `x fmod 0` is 0 (numpy's result), `INT_MIN fmod -1` is 0.
}]>;

#endif // MS_DIALECT_MS_IR_MSARITHOPS_TD
