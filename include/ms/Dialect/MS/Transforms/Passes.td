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


#endif // MS_DIALECT_MS_TRANSFORMS_PASSES_TD
