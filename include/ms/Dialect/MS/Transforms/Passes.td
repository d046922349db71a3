//===- Passes.td - ms transformation passes ----------------*- tablegen -*-===//

#ifndef MS_DIALECT_MS_TRANSFORMS_PASSES_TD
#define MS_DIALECT_MS_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def MSCheckTensorSizes : Pass<"ms-check-tensor-sizes"> {
  let summary = "Reject tensors too large for the machine's memory";
  let description = [{
    Checks every ranked tensor that an op produces, after the lowering to
    linalg has made the intermediates visible (a pool's padded copy, a
    conv's im2col windows): its byte size, in checked arithmetic, must fit
    in `max-bytes`, by default the machine's physical memory. A tensor past
    that can never be allocated; compiled code would get a null buffer and
    crash. The error is located at the op, which carries the ms op's
    location (the Cell path and the Python file:line).
  }];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"0",
           "Largest tensor in bytes (0: the machine's physical memory)">
  ];
}

def MSAutodiff : Pass<"ms-autodiff", "::mlir::ModuleOp"> {
  let summary = "Add the reverse-mode gradient function of an ms function";
  let description = [{
    Differentiates the function `func` with respect to its arguments `wrt`
    (every float tensor argument when empty) and adds the result, named
    `grad-name` (`<func>_grad` when empty), to the module right after it:

    ```
    (args..., sens_0, ..., sens_{R-1}) -> (results..., grads...)
    ```

    `sens_i` is the cotangent of result `i` (ones for a scalar loss); the
    gradients follow the order of `wrt`. The forward ops are kept in the
    gradient function and the backward ops reuse their values. Each op's
    rule comes from its `GradientOpInterface` (docs/autodiff.md); an op
    without one is a located error, "ms-autodiff: 'ms.foo' has no gradient
    rule". Cotangents of a value with several uses are summed with `ms.add`
    in reverse program order, so the result is deterministic.

    ```
    ms-opt --ms-autodiff='func=construct wrt=1,2' net.mlir
    ```
  }];
  let options = [
    Option<"funcName", "func", "std::string", /*default=*/"\"construct\"",
           "The function to differentiate">,
    ListOption<"wrt", "wrt", "unsigned",
               "Argument indices to differentiate with respect to (empty: "
               "every float tensor argument)">,
    Option<"gradName", "grad-name", "std::string", /*default=*/"\"\"",
           "Name of the gradient function (empty: <func>_grad)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

#endif // MS_DIALECT_MS_TRANSFORMS_PASSES_TD
