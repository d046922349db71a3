//===- MSGradOps.td - Ops that gradients are built from ----*- tablegen -*-===//
//
// The backward halves that cannot be composed from forward ms ops, with
// MindSpore's names (ReluGrad, GeLUGrad, Conv2DBackpropInput, MaxPoolGrad,
// ...), plus `stop_gradient` (`slice`, which concat's
// gradient uses, is in MSDataMovementOps.td). Every kernel reduces in a fixed
// order, so PyNative and Graph agree bit for bit. Shape rules live in
// lib/Dialect/MS/IR/MSGradOps.cpp; gradient rules in
// lib/Dialect/MS/IR/Gradients/.
//
//===----------------------------------------------------------------------===//

#ifndef MS_DIALECT_MS_IR_MSGRADOPS_TD
#define MS_DIALECT_MS_IR_MSGRADOPS_TD

include "ms/Dialect/MS/IR/MSBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def MS_StopGradientOp : MS_Op<"stop_gradient", [Pure, MS_Elementwise,
    MS_DtypeNeutral, InferTypeOpAdaptor]> {
  let summary = "identity that blocks gradients (ops.stop_gradient)";
  let description = [{
    Returns its input; `ms-autodiff` propagates no cotangent through it.
    It folds away, so it costs nothing once gradients have been built (the
    pipelines canonicalize after autodiff).

    Example:

    ```mlir
    %y = ms.stop_gradient %x : tensor<64x10xf32>
    ```
  }];
  let arguments = (ins MS_AllTensor:$input);
  let results = (outs MS_AllTensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasFolder = 1;
}

def MS_ReluGradOp : MS_Op<"relu_grad", [Pure, MS_Elementwise, InferTypeOpAdaptor]> {
  let summary = "gradient of relu: dy where y > 0, else 0 (ReluGrad)";
  let description = [{
    `dy * (y > 0)` elementwise, selecting rather than multiplying (so an
    infinite or NaN `dy` where `y <= 0` still gives 0). `y` is relu's output
    (or any tensor whose positive elements mark where the gradient flows);
    both operands have the same type.

    Example:

    ```mlir
    %dx = ms.relu_grad %dy, %y : tensor<64x10xf32>, tensor<64x10xf32>
    ```
  }];
  let arguments = (ins MS_FloatTensor:$dy, MS_FloatTensor:$y);
  let results = (outs MS_FloatTensor:$output);
  let assemblyFormat = "$dy `,` $y attr-dict `:` type($dy) `,` type($y)";
}

def MS_GeluGradOp : MS_Op<"gelu_grad", [Pure, MS_Elementwise, InferTypeOpAdaptor]> {
  let summary = "gradient of gelu with respect to its input (GeLUGrad)";
  let description = [{
    `dy * gelu'(x)` elementwise, for the same `approximate` as the forward
    op: with tanh, `0.5 (1 + t) + 0.5 x (1 - t^2) sqrt(2/pi) (1 + 3 * 0.044715
    x^2)` where `t = tanh(sqrt(2/pi) (x + 0.044715 x^3))`; exactly,
    `0.5 (1 + erf(x / sqrt(2))) + x exp(-x^2 / 2) / sqrt(2 pi)`.

    Example:

    ```mlir
    %dx = ms.gelu_grad %dy, %x : tensor<64x512xf32>, tensor<64x512xf32>
    ```
  }];
  let arguments = (ins MS_FloatTensor:$dy, MS_FloatTensor:$x,
                   DefaultValuedAttr<BoolAttr, "true">:$approximate);
  let results = (outs MS_FloatTensor:$output);
  let assemblyFormat = "$dy `,` $x attr-dict `:` type($dy) `,` type($x)";
}

// An op over the windows of a 2-D pool of x (the forward op's
// kernel_size, stride and pad_mode) with a second float operand named
// `second` (read with `getter`); `infer` is its shape rule
// (MSGradShapeInference.h).
class MS_PoolWindowsOp<string mnemonic, string second, string getter,
                       string infer>
    : MS_Op<mnemonic, [Pure, InferTypeOpAdaptor]> {
  let arguments = !con(
      (ins MS_FloatTensor:$x), !dag(ins, [MS_FloatTensor], [second]),
      (ins DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$kernel_size,
           DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$stride,
           DefaultValuedAttr<StrAttr, "\"valid\"">:$pad_mode));
  let results = (outs MS_FloatTensor:$output);
  let assemblyFormat = "$x `,` $" # second # [{
    (`kernel_size` $kernel_size^)? (`stride` $stride^)?
    (`pad_mode` $pad_mode^)? attr-dict `:` type($x) `,` type($}] # second
    # ")";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      ::llvm::SmallVector<int64_t> ones(2, 1);
      return ::ms::}] # infer # [{(
          getOperationName(), loc, adaptor.getX().getType(),
          adaptor.}] # getter # [{().getType(),
          adaptor.getKernelSizeAttr() ? adaptor.getKernelSize()
                                      : ::llvm::ArrayRef<int64_t>(ones),
          adaptor.getStrideAttr() ? adaptor.getStride()
                                  : ::llvm::ArrayRef<int64_t>(ones),
          adaptor.getPadModeAttr() ? adaptor.getPadMode()
                                   : ::llvm::StringRef("valid"),
          types);
    }
  }];
}

// The gradient of a 2-D pool with respect to its input.
class MS_PoolGradOp<string mnemonic, string what, string rule>
    : MS_PoolWindowsOp<mnemonic, "dy", "getDy", "inferPoolGradType"> {
  let summary = "gradient of " # what # " with respect to its input";
  let description = !strconcat("The input gradient of `ms.", what,
    "` with the same `kernel_size`, `stride` and `pad_mode`, from the ",
    "forward input `x [N, C, H, W]` and the output gradient `dy`. ", rule, [{
    Each input element sums its contributions in window order (output row,
    then column), so every mode gives the same bits.

    Example:

    ```mlir
    %dx = ms.}], mnemonic, [{ %x, %dy kernel_size [2, 2] stride [2, 2] : tensor<1x6x28x28xf32>, tensor<1x6x14x14xf32>
    ```
  }]);
}

def MS_MaxPool2DGradOp : MS_PoolGradOp<"max_pool2d_grad", "max_pool2d",
  [{Each window's gradient goes to its maximum element; on ties, to the first
    in window order (row-major within the window), as MindSpore's MaxPoolGrad
    does. Padded positions never receive gradient.}]>;
def MS_AvgPool2DGradOp : MS_PoolGradOp<"avg_pool2d_grad", "avg_pool2d",
  [{Each window's gradient is divided by the number of real (unpadded)
    elements in the window and added to each of them. `x` only gives the
    shape.}]>;

def MS_MaxPool2DGradGradOp
    : MS_PoolWindowsOp<"max_pool2d_grad_grad", "grad", "getGrad",
                       "inferPoolGradGradType"> {
  let summary = "each window's value of grad at x's first maximum "
                "(MaxPoolGradGrad)";
  let description = [{
    The gradient of `ms.max_pool2d_grad` with respect to its `dy`: for each
    window of `x` (the same `kernel_size`, `stride` and `pad_mode` as
    `ms.max_pool2d`), the element of `grad` (x's type) at the window's
    first maximum in row-major window order, which is where
    `ms.max_pool2d_grad` sends that window's gradient (a window with no
    element above -inf: its first position). The result has the pooled
    type of `x`. Padded positions are never picked over real ones.

    Example:

    ```mlir
    %ddy = ms.max_pool2d_grad_grad %x, %ddx kernel_size [2, 2] stride [2, 2] : tensor<1x6x28x28xf32>, tensor<1x6x28x28xf32>
    ```
  }];
}

// Shared by the two convolution gradients: conv2d's geometry attributes.
class MS_ConvGradOp<string mnemonic, string summaryText, string shapeName,
                    string otherName, string exampleText>
    : MS_Op<mnemonic, [Pure, InferTypeOpAdaptor]> {
  let summary = summaryText;
  let arguments = (ins MS_FloatTensor:$dy, MS_FloatTensor:$other,
                   DenseI64ArrayAttr:$shape,
                   DefaultValuedAttr<StrAttr, "\"same\"">:$pad_mode,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$stride,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilation,
                   DefaultValuedAttr<I64Attr, "1">:$group);
  let results = (outs MS_FloatTensor:$output);
  let assemblyFormat = [{
    $dy `,` $other `shape` $shape (`pad_mode` $pad_mode^)?
    (`padding` $padding^)? (`stride` $stride^)? (`dilation` $dilation^)?
    (`group` $group^)? attr-dict `:` type($dy) `,` type($other)
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      ::llvm::SmallVector<int64_t> zeros(4, 0), ones(2, 1);
      return ::ms::inferConvGradType(
          getOperationName(), loc, /*filterGrad=*/}] # !if(!eq(shapeName, "filter"), "true", "false") # [{,
          adaptor.getDy().getType(), adaptor.getOther().getType(),
          adaptor.getShape(),
          adaptor.getPadModeAttr() ? adaptor.getPadMode() : ::llvm::StringRef("same"),
          adaptor.getPaddingAttr() ? adaptor.getPadding() : ::llvm::ArrayRef<int64_t>(zeros),
          adaptor.getStrideAttr() ? adaptor.getStride() : ::llvm::ArrayRef<int64_t>(ones),
          adaptor.getDilationAttr() ? adaptor.getDilation() : ::llvm::ArrayRef<int64_t>(ones),
          adaptor.getGroupAttr() ? static_cast<int64_t>(adaptor.getGroup()) : 1,
          types);
    }
  }];
  let description = !strconcat([{
    The gradient of `ms.conv2d` with respect to its }], shapeName, [{, whose
    shape is `shape`, from the output gradient `dy [N, O, OH, OW]` and the
    forward }], otherName, [{. The geometry attributes are the forward
    conv2d's. Sums run in a fixed order in every mode.

    Example:

    ```mlir
    }], exampleText, [{
    ```
  }]);
}

def MS_Conv2DBackpropInputOp : MS_ConvGradOp<"conv2d_backprop_input",
  "gradient of conv2d with respect to its input (Conv2DBackpropInput)",
  "input", "weight `[O, C / group, kh, kw]`",
  [{%dx = ms.conv2d_backprop_input %dy, %w shape [1, 1, 32, 32] pad_mode "valid" : tensor<1x6x28x28xf32>, tensor<6x1x5x5xf32>}]>;

def MS_Conv2DBackpropFilterOp : MS_ConvGradOp<"conv2d_backprop_filter",
  "gradient of conv2d with respect to its weight (Conv2DBackpropFilter)",
  "filter", "input `[N, C, H, W]`",
  [{%dw = ms.conv2d_backprop_filter %dy, %x shape [6, 1, 5, 5] pad_mode "valid" : tensor<1x6x28x28xf32>, tensor<1x1x32x32xf32>}]>;

// The gradient of gather_elements (MSScanSortOps.td).
def MS_GatherElementsGradOp : MS_Op<"gather_elements_grad",
                                    [Pure, InferTypeOpAdaptor]> {
  let summary = "gradient of gather_elements: dy summed into the indexed "
                "positions";
  let description = [{
    `output[p, j, q]` is the sum of `dy[p, t, q]` over the `t` (in order)
    with `indices[p, t, q] == j`, along `axis`; the result has `dy`'s shape
    with `size` on that axis (the gathered input's). Indices outside
    `[0, size)` contribute nothing, as they read nothing forward.

    Example:

    ```mlir
    %dx = ms.gather_elements_grad %dy, %i axis 1 size 5 : tensor<4x2xf32>, tensor<4x2xi32>
    ```
  }];
  let arguments = (ins MS_NumericTensor:$dy, MS_IndexTensor:$indices,
                   I64Attr:$axis, I64Attr:$size);
  let results = (outs MS_NumericTensor:$output);
  let assemblyFormat = [{
    $dy `,` $indices `axis` $axis `size` $size attr-dict `:` type($dy) `,`
    type($indices)
  }];
  let extraClassDeclaration = [{
    /// `axis` normalized to [0, rank).
    int64_t getNormalizedAxis() {
      int64_t axis = static_cast<int64_t>(getAxis());
      return axis < 0 ? axis + getDy().getType().getRank() : axis;
    }
  }];
}

#endif // MS_DIALECT_MS_IR_MSGRADOPS_TD
