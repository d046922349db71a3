//===- MSResizeOps.td - interpolate ------------------------*- tablegen -*-===//
//
// Spatial resizing of NCHW images. The shape rule is in
// lib/Dialect/MS/IR/MSResizeOps.cpp, the lowering in
// lib/Conversion/MSToLinalg/Resize.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MS_DIALECT_MS_IR_MSRESIZEOPS_TD
#define MS_DIALECT_MS_IR_MSRESIZEOPS_TD

def MS_InterpolateOp : MS_Op<"interpolate", [Pure, InferTypeOpAdaptor]> {
  let summary = "resizes NCHW images, nearest or bilinear (ops.interpolate)";
  let description = [{
    `ops.interpolate` / `nn.Upsample` on `input [N, C, H, W]`: the result
    is `[N, C, size[0], size[1]]`, with torch's and MindSpore's formulas.
    Each axis maps an output index `o` to a source coordinate with a ratio
    `r`: `in / out`, or `scales[i]` when given (`1 / scale_factor`, what
    the front end passes when the size came from a scale factor).

    - `"nearest"`: source `min(floor(o * r), in - 1)` (torch's `nearest`).
    - `"bilinear"`: with `align_corners`, `r = (in - 1) / (out - 1)` and
      the source is `o * r`; otherwise the source is `max((o + 0.5) * r -
      0.5, 0)`. The two neighbours along each axis are weighted by the
      fractional part.

    Source indices and weights depend only on the static sizes; they are
    computed once at compile time (in float32, or float64 for f64 input,
    as torch computes them) and read by one linalg.generic. The gradient
    rule builds its weight matrices from the same tables.

    Example:

    ```mlir
    %y = ms.interpolate %x size [8, 12] mode "bilinear" align_corners : tensor<1x3x4x6xf32>
    %z = ms.interpolate %x size [8, 12] mode "nearest" scales [5.000000e-01, 5.000000e-01] : tensor<1x3x4x6xf32>
    ```
  }];
  let arguments = (ins MS_FloatTensor:$input, DenseI64ArrayAttr:$size,
                   DefaultValuedAttr<StrAttr, "\"nearest\"">:$mode,
                   UnitAttr:$align_corners,
                   OptionalAttr<DenseF64ArrayAttr>:$scales);
  let results = (outs MS_FloatTensor:$output);
  let assemblyFormat = [{
    $input `size` $size (`mode` $mode^)? (`align_corners` $align_corners^)?
    (`scales` $scales^)? attr-dict `:` type($input)
  }];
}

#endif // MS_DIALECT_MS_IR_MSRESIZEOPS_TD
