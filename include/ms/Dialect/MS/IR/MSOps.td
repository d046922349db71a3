//===- MSOps.td - The ms dialect ops -----------------------*- tablegen -*-===//
//
// Every op is Pure, verifies its operands and infers its result type. Shape
// rules live in lib/Dialect/MS/IR/MSShapeInference.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MS_DIALECT_MS_IR_MSOPS_TD
#define MS_DIALECT_MS_IR_MSOPS_TD

include "ms/Dialect/MS/IR/MSBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Op families
//===----------------------------------------------------------------------===//

// Elementwise op of one tensor; the result has the input's type.
// `type` is the dtype group it takes (MSBase.td): floats unless it says so.
class MS_UnaryOp<string mnemonic, string formula, list<Trait> traits = [],
                 Type type = MS_FloatTensor>
    : MS_Op<mnemonic, traits # [Pure, MS_Elementwise, InferTypeOpAdaptor]> {
  let summary = "elementwise " # formula;
  let description = !strconcat("Computes `", formula, [{` elementwise. The
    result has the type of the input.

    Example:

    ```mlir
    %y = ms.}], mnemonic, [{ %x : tensor<64x512xf32>
    ```
  }]);
  let arguments = (ins type:$input);
  let results = (outs type:$output);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::ms::inferUnaryType(getOperationName(), loc,
                                  adaptor.getInput().getType(), types);
    }
  }];
}

// Elementwise op of two tensors with numpy broadcasting; `type` as for
// MS_UnaryOp.
class MS_BinaryOp<string mnemonic, string formula, list<Trait> traits = [],
                  Type type = MS_FloatTensor>
    : MS_Op<mnemonic, traits # [Pure, MS_Elementwise, InferTypeOpAdaptor]> {
  let summary = "elementwise " # formula # " with numpy broadcasting";
  let description = !strconcat("Computes `", formula, [{` elementwise.
    The operands broadcast like numpy: shapes are aligned on the right, and
    a dimension of size 1 stretches to match the other operand.

    Example:

    ```mlir
    %z = ms.}], mnemonic, [{ %x, %y : tensor<64x10xf32>, tensor<10xf32>
    ```
  }]);
  let arguments = (ins type:$lhs, type:$rhs);
  let results = (outs type:$output);
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

// Reduction over `axes`; an empty list reduces every axis.
class MS_ReduceOp<string mnemonic, string what, Type type = MS_FloatTensor>
    : MS_Op<mnemonic, [Pure, InferTypeOpAdaptor,
                       DeclareOpInterfaceMethods<MS_RowIndependenceOpInterface>]> {
  let summary = "reduces a tensor to its " # what # " over axes";
  let description = !strconcat("Computes the ", what, [{ over the listed
    axes (negative axes count from the end; an empty list means every axis),
    as `ops.Reduce`/`Tensor.sum` do in MindSpore. With `keep_dims` the
    reduced axes stay as size 1.

    Example:

    ```mlir
    %s = ms.}], mnemonic, [{ %x axes [1] keep_dims : tensor<64x10xf32>
    ```
  }]);
  let arguments = (ins type:$input, DenseI64ArrayAttr:$axes,
                   UnitAttr:$keep_dims);
  let results = (outs type:$output);
  let assemblyFormat =
      "$input `axes` $axes (`keep_dims` $keep_dims^)? attr-dict `:` type($input)";
  let extraClassDeclaration = [{
    /// The reduced axes, normalized to [0, rank) and sorted.
    ::llvm::SmallVector<int64_t> getNormalizedAxes();
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::ms::inferReduceType(getOperationName(), loc,
                                   adaptor.getInput().getType(),
                                   adaptor.getAxesAttr(),
                                   adaptor.getKeepDims(), types);
    }
    ::llvm::SmallVector<int64_t> $cppClass::getNormalizedAxes() {
      return ::ms::normalizeReduceAxes(getAxes(),
                                       getInput().getType().getRank());
    }
    std::string $cppClass::whyRowsMix(::llvm::function_ref<bool(::mlir::Value)>) {
      return ::ms::whyRowsMixOverAxes(getNormalizedAxes());
    }
  }];
}

// Softmax-like op along one axis; the result has the input's type.
class MS_AxisOp<string mnemonic, string formula>
    : MS_Op<mnemonic, [Pure, InferTypeOpAdaptor,
                       DeclareOpInterfaceMethods<MS_RowIndependenceOpInterface>]> {
  let summary = "computes " # formula # " along an axis";
  let description = !strconcat("Computes `", formula, [{` along `axis`
    (negative counts from the end; MindSpore's default is -1).

    Example:

    ```mlir
    %p = ms.}], mnemonic, [{ %logits axis -1 : tensor<64x10xf32>
    ```
  }]);
  let arguments = (ins MS_FloatTensor:$input,
                   DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs MS_FloatTensor:$output);
  let assemblyFormat = "$input `axis` $axis attr-dict `:` type($input)";
  let extraClassDeclaration = [{
    /// `axis` normalized to [0, rank).
    int64_t getNormalizedAxis() {
      // I64Attr reads back as uint64_t; the axis is signed.
      int64_t axis = static_cast<int64_t>(getAxis());
      int64_t rank = getInput().getType().getRank();
      return axis < 0 ? axis + rank : axis;
    }
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::ms::inferAxisOpType(getOperationName(), loc,
                                   adaptor.getInput().getType(),
                                   adaptor.getAxis(), types);
    }
    std::string $cppClass::whyRowsMix(::llvm::function_ref<bool(::mlir::Value)>) {
      return ::ms::whyRowsMixAlongAxis(getNormalizedAxis());
    }
  }];
}

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

def MS_DenseOp : MS_Op<"dense", [Pure, InferTypeOpAdaptor,
    DeclareOpInterfaceMethods<MS_RowIndependenceOpInterface>]> {
  let summary = "fully connected layer: x @ weight^T + bias (nn.Dense)";
  let description = [{
    MindSpore's `nn.Dense`: `output = input @ weight^T + bias`, with
    `input` of shape `[..., in]`, `weight` of shape `[out, in]` and the
    optional `bias` of shape `[out]`. The result has shape `[..., out]`.
    The products along `in` are accumulated in order, each step one fused
    multiply-add, and the bias is added last; every jit_level keeps that
    order so results are identical bit for bit.

    Example:

    ```mlir
    %y = ms.dense %x, %w, %b : tensor<64x784xf32>, tensor<512x784xf32>, tensor<512xf32>
    %z = ms.dense %x, %w : tensor<64x784xf32>, tensor<512x784xf32>
    ```
  }];
  let arguments = (ins MS_NumericTensor:$input, MS_NumericTensor:$weight,
                       Optional<MS_NumericTensor>:$bias);
  let results = (outs MS_NumericTensor:$output);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? attr-dict `:` type($input) `,` type($weight)
    (`,` type($bias)^)?
  }];
}

def MS_MatmulOp : MS_Op<"matmul", [Pure, InferTypeOpAdaptor,
    DeclareOpInterfaceMethods<MS_RowIndependenceOpInterface>]> {
  let summary = "matrix product with optional transposes and batch broadcasting";
  let description = [{
    `ops.matmul`: the product of the last two dimensions of each operand,
    after transposing them when `transpose_a` / `transpose_b` is set. The
    leading (batch) dimensions broadcast like numpy. Both operands have rank
    2 or more.

    Example:

    ```mlir
    %c = ms.matmul %a, %b : tensor<64x784xf32>, tensor<784x512xf32>
    %d = ms.matmul %a, %w transpose_b : tensor<64x784xf32>, tensor<512x784xf32>
    %e = ms.matmul %p, %q : tensor<8x4x3xf32>, tensor<3x5xf32>
    ```
  }];
  let arguments = (ins MS_NumericTensor:$lhs, MS_NumericTensor:$rhs,
                       UnitAttr:$transpose_a, UnitAttr:$transpose_b);
  let results = (outs MS_NumericTensor:$output);
  let assemblyFormat = [{
    $lhs `,` $rhs (`transpose_a` $transpose_a^)? (`transpose_b` $transpose_b^)?
    attr-dict `:` type($lhs) `,` type($rhs)
  }];
}

def MS_Conv2DOp : MS_Op<"conv2d", [Pure, MS_RowIndependent,
    InferTypeOpAdaptor]> {
  let summary = "2-D convolution, NCHW (nn.Conv2d)";
  let description = [{
    MindSpore's `nn.Conv2d` on `input [N, C, H, W]` with `weight
    [O, C / group, kh, kw]` and the optional `bias [O]`. `pad_mode` is
    `"same"` (MindSpore's default: output `ceil(H / stride)`, padding split
    with the extra row at the bottom/right), `"valid"` (no padding) or
    `"pad"` (explicit `padding = [top, bottom, left, right]`). `stride` and
    `dilation` are `[h, w]`; `group` splits channels into groups. Products
    accumulate in (channel, kh, kw) order, one FMA each, in every mode.

    Example:

    ```mlir
    %y = ms.conv2d %x, %w pad_mode "valid" : tensor<1x1x32x32xf32>, tensor<6x1x5x5xf32>
    %z = ms.conv2d %x, %w, %b pad_mode "pad" padding [1, 1, 2, 2] stride [2, 2] group 2 : tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>
    ```
  }];
  let arguments = (ins MS_FloatTensor:$input, MS_FloatTensor:$weight,
                   Optional<MS_FloatTensor>:$bias,
                   DefaultValuedAttr<StrAttr, "\"same\"">:$pad_mode,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$stride,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilation,
                   DefaultValuedAttr<I64Attr, "1">:$group);
  let results = (outs MS_FloatTensor:$output);
  // Keywords rather than attr-dict: the parser infers the result type from
  // these, and only keyword attributes are visible to it then.
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? (`pad_mode` $pad_mode^)?
    (`padding` $padding^)? (`stride` $stride^)? (`dilation` $dilation^)?
    (`group` $group^)? attr-dict `:` type($input) `,` type($weight)
    (`,` type($bias)^)?
  }];
}

def MS_BatchNormOp : MS_Op<"batch_norm", [Pure, InferTypeOpAdaptor,
    DeclareOpInterfaceMethods<MS_RowIndependenceOpInterface>]> {
  let summary = "batch normalization at inference (nn.BatchNorm2d, eval)";
  let description = [{
    `(x - moving_mean) / sqrt(moving_variance + epsilon) * gamma + beta`
    per channel (dimension 1 of `input [N, C, ...]`); the four parameters
    have shape `[C]`. Computed in exactly that order in every mode.

    Example:

    ```mlir
    %y = ms.batch_norm %x, %gamma, %beta, %mean, %var epsilon 1.000000e-05 : tensor<8x6x28x28xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
    ```
  }];
  let arguments = (ins MS_FloatTensor:$input, MS_FloatTensor:$gamma, MS_FloatTensor:$beta,
                   MS_FloatTensor:$moving_mean, MS_FloatTensor:$moving_variance,
                   DefaultValuedAttr<F32Attr, "1e-5">:$epsilon);
  let results = (outs MS_FloatTensor:$output);
  let assemblyFormat = [{
    $input `,` $gamma `,` $beta `,` $moving_mean `,` $moving_variance
    (`epsilon` $epsilon^)? attr-dict `:` type($input) `,` type($gamma) `,`
    type($beta) `,` type($moving_mean) `,` type($moving_variance)
  }];
}

// Row independent: the shape rule keeps ? out of the normalized dims, so a
// ? batch is never among them.
def MS_LayerNormOp : MS_Op<"layer_norm", [Pure, MS_RowIndependent,
    InferTypeOpAdaptor]> {
  let summary = "layer normalization (nn.LayerNorm)";
  let description = [{
    MindSpore's LayerNorm: the mean and the (population) variance are taken
    over the dimensions from `begin_norm_axis` to the last; `gamma` and `beta`
    have the shape of the dimensions from `begin_params_axis` to the last and
    broadcast against the trailing dimensions. The result is
    `(x - mean) / sqrt(variance + epsilon) * gamma + beta`, where the mean is
    the in-order sum divided by the count and the variance the in-order sum of
    `(x - mean)^2` divided by the count, in every mode. Both axes may be
    negative (counted from the end); the defaults are MindSpore's (-1, -1,
    1e-7).

    Example:

    ```mlir
    %y = ms.layer_norm %x, %gamma, %beta begin_norm_axis 1 begin_params_axis 1 epsilon 1.000000e-05 : tensor<8x16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>
    ```
  }];
  let arguments = (ins MS_FloatTensor:$input, MS_FloatTensor:$gamma, MS_FloatTensor:$beta,
                   DefaultValuedAttr<I64Attr, "-1">:$begin_norm_axis,
                   DefaultValuedAttr<I64Attr, "-1">:$begin_params_axis,
                   DefaultValuedAttr<F32Attr, "1e-7">:$epsilon);
  let results = (outs MS_FloatTensor:$output);
  // Keywords, not attr-dict: result inference reads the axes while the
  // custom form is parsed, before an attr-dict would be attached.
  let assemblyFormat = [{
    $input `,` $gamma `,` $beta (`begin_norm_axis` $begin_norm_axis^)?
    (`begin_params_axis` $begin_params_axis^)? (`epsilon` $epsilon^)?
    attr-dict `:` type($input) `,` type($gamma) `,` type($beta)
  }];
  let extraClassDeclaration = [{
    /// The axes in [0, rank).
    int64_t getNormAxis() {
      return normalizeAxis(getBeginNormAxis(), getInput().getType());
    }
    int64_t getParamsAxis() {
      return normalizeAxis(getBeginParamsAxis(), getInput().getType());
    }
    static int64_t normalizeAxis(uint64_t axis, ::mlir::Type input) {
      int64_t a = static_cast<int64_t>(axis);
      return a < 0 ? a + ::llvm::cast<::mlir::RankedTensorType>(input).getRank()
                   : a;
    }
  }];
}

// 2-D pooling over NCHW windows.
class MS_PoolOp<string mnemonic, string what> : MS_Op<mnemonic,
    [Pure, MS_RowIndependent, InferTypeOpAdaptor]> {
  let summary = "2-D " # what # " pooling, NCHW";
  let description = !strconcat("MindSpore's 2-D ", what, [{ pooling on
    `input [N, C, H, W]` with `kernel_size [kh, kw]` and `stride [sh, sw]`
    (both default `[1, 1]`). `pad_mode` is `"valid"` (MindSpore's default)
    or `"same"` (output `ceil(H / stride)`, the odd row of padding at the
    bottom/right); padded positions never count: max ignores them and avg
    divides by the number of real elements in the window.

    Example:

    ```mlir
    %y = ms.}], mnemonic, [{ %x kernel_size [2, 2] stride [2, 2] : tensor<1x6x28x28xf32>
    ```
  }]);
  let arguments = (ins MS_FloatTensor:$input,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$kernel_size,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$stride,
                   DefaultValuedAttr<StrAttr, "\"valid\"">:$pad_mode);
  let results = (outs MS_FloatTensor:$output);
  let assemblyFormat = [{
    $input (`kernel_size` $kernel_size^)? (`stride` $stride^)?
    (`pad_mode` $pad_mode^)? attr-dict `:` type($input)
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      ::llvm::SmallVector<int64_t> ones(2, 1);
      return ::ms::inferPoolType(
          getOperationName(), loc, adaptor.getInput().getType(),
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

def MS_MaxPool2DOp : MS_PoolOp<"max_pool2d", "max">;
def MS_AvgPool2DOp : MS_PoolOp<"avg_pool2d", "average">;

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

def MS_AddOp : MS_BinaryOp<"add", "lhs + rhs", [Commutative], MS_NumericTensor>;
def MS_SubOp : MS_BinaryOp<"sub", "lhs - rhs", [], MS_NumericTensor>;
def MS_MulOp : MS_BinaryOp<"mul", "lhs * rhs", [Commutative], MS_NumericTensor>;
def MS_DivOp : MS_BinaryOp<"div", "lhs / rhs">;
def MS_MaximumOp : MS_BinaryOp<"maximum", "max(lhs, rhs)", [Commutative],
                                 MS_NumericTensor>;
def MS_MinimumOp : MS_BinaryOp<"minimum", "min(lhs, rhs)", [Commutative],
                                 MS_NumericTensor>;

def MS_ReluOp : MS_UnaryOp<"relu", "max(x, 0)", [], MS_NumericTensor> {
  let hasFolder = 1;
}
def MS_SigmoidOp : MS_UnaryOp<"sigmoid", "1 / (1 + exp(-x))">;
def MS_TanhOp : MS_UnaryOp<"tanh", "tanh(x)">;
def MS_ExpOp : MS_UnaryOp<"exp", "exp(x)">;
def MS_LogOp : MS_UnaryOp<"log", "log(x)">;
def MS_SqrtOp : MS_UnaryOp<"sqrt", "sqrt(x)">;
def MS_NegOp : MS_UnaryOp<"neg", "-x", [], MS_NumericTensor> {
  let hasFolder = 1;
}
def MS_AbsOp : MS_UnaryOp<"abs", "|x|", [], MS_NumericTensor> {
  let hasFolder = 1;
}
def MS_FloorOp : MS_UnaryOp<"floor", "floor(x)">;

def MS_GeluOp : MS_Op<"gelu", [Pure, MS_Elementwise, InferTypeOpAdaptor]> {
  let summary = "elementwise GELU (nn.GELU)";
  let description = [{
    Gaussian error linear unit. With `approximate = true` (MindSpore's
    default) it is `0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))`;
    otherwise the exact `0.5 x (1 + erf(x / sqrt(2)))`.

    Example:

    ```mlir
    %y = ms.gelu %x : tensor<64x512xf32>
    %z = ms.gelu %x {approximate = false} : tensor<64x512xf32>
    ```
  }];
  let arguments = (ins MS_FloatTensor:$input,
                   DefaultValuedAttr<BoolAttr, "true">:$approximate);
  let results = (outs MS_FloatTensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def MS_DropoutOp : MS_Op<"dropout", [Pure, InferTypeOpAdaptor,
    DeclareOpInterfaceMethods<MS_RowIndependenceOpInterface>]> {
  let summary = "dropout (nn.Dropout); the identity at inference";
  let description = [{
    `nn.Dropout(p=...)`. At inference (no `training` flag) it is the
    identity and folds away.

    With `training`, each element is kept with probability `1 - p` and
    scaled by `1 / (1 - p)` (from the f32 `p`, rounded to f32), as
    MindSpore does; the others become 0. The
    mask comes from a counter-based RNG, Philox4x32-10, whose key is the
    seed and whose counter is (element index, offset): `rng_state` is a
    `tensor<2xi64>` holding `[seed, offset]`. Every element's mask is
    therefore a pure function of (seed, offset, row-major element index):
    the same in every mode, jit_level and thread count. Element `i` is kept
    when the first 32-bit word of Philox(key = seed, counter = (i, offset))
    is at least `p * 2^32`; the front end advances the offset by one per
    call.

    Example:

    ```mlir
    %y = ms.dropout %x {p = 5.000000e-01 : f32} : tensor<64x512xf32>
    %z = ms.dropout %x, %state {p = 5.000000e-01 : f32, training} : tensor<64x512xf32>, tensor<2xi64>
    ```
  }];
  let arguments = (ins MS_FloatTensor:$input,
                   Optional<RankedTensorOf<[I64]>>:$rng_state,
                   DefaultValuedAttr<F32Attr, "0.5">:$p,
                   UnitAttr:$training);
  let results = (outs MS_FloatTensor:$output);
  let assemblyFormat = [{
    $input (`,` $rng_state^)? attr-dict `:` type($input)
    (`,` type($rng_state)^)?
  }];
  let hasFolder = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

def MS_FlattenOp : MS_Op<"flatten", [Pure, MS_RowIndependent, MS_DtypeNeutral,
    InferTypeOpAdaptor]> {
  let summary = "flattens every dimension but the first (nn.Flatten)";
  let description = [{
    Collapses `[N, d1, ..., dk]` into `[N, d1 * ... * dk]`, as `nn.Flatten`
    does. The input has rank 2 or more.

    Example:

    ```mlir
    %y = ms.flatten %x : tensor<64x1x28x28xf32>
    ```
  }];
  let arguments = (ins MS_AllTensor:$input);
  let results = (outs MS_AllTensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasFolder = 1;
}

def MS_ReshapeOp : MS_Op<"reshape", [Pure, MS_DtypeNeutral, InferTypeOpAdaptor,
    DeclareOpInterfaceMethods<MS_RowIndependenceOpInterface>]> {
  let summary = "reshapes a tensor (ops.reshape)";
  let description = [{
    Gives the elements of `input`, in row-major order, the shape `shape`.
    At most one entry may be -1; it is computed from the element count.

    Example:

    ```mlir
    %y = ms.reshape %x to [64, -1] : tensor<64x1x28x28xf32>
    ```
  }];
  let arguments = (ins MS_AllTensor:$input, DenseI64ArrayAttr:$shape);
  let results = (outs MS_AllTensor:$output);
  let assemblyFormat = "$input `to` $shape attr-dict `:` type($input)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def MS_TransposeOp : MS_Op<"transpose", [Pure, MS_DtypeNeutral,
    InferTypeOpAdaptor, DeclareOpInterfaceMethods<MS_RowIndependenceOpInterface>]> {
  let summary = "permutes the dimensions of a tensor (ops.transpose)";
  let description = [{
    Result dimension `i` is input dimension `perm[i]`.

    Example:

    ```mlir
    %y = ms.transpose %x perm [1, 0] : tensor<64x10xf32>
    ```
  }];
  let arguments = (ins MS_AllTensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs MS_AllTensor:$output);
  let assemblyFormat = "$input `perm` $perm attr-dict `:` type($input)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def MS_ConcatOp : MS_Op<"concat", [Pure, MS_DtypeNeutral, InferTypeOpAdaptor,
    DeclareOpInterfaceMethods<MS_RowIndependenceOpInterface>]> {
  let summary = "concatenates tensors along an axis (ops.concat)";
  let description = [{
    Joins the inputs along `axis` (negative counts from the end). They agree
    in rank, element type and every other dimension.

    Example:

    ```mlir
    %y = ms.concat %a, %b axis 1 : tensor<4x3xf32>, tensor<4x5xf32>
    ```
  }];
  let arguments = (ins Variadic<MS_AllTensor>:$inputs,
                   DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs MS_AllTensor:$output);
  let assemblyFormat = "$inputs `axis` $axis attr-dict `:` type($inputs)";
  let extraClassDeclaration = [{
    /// `axis` normalized to [0, rank).
    int64_t getNormalizedAxis() {
      int64_t rank = ::llvm::cast<::mlir::RankedTensorType>(
          getType()).getRank();
      int64_t axis = static_cast<int64_t>(getAxis());
      return axis < 0 ? axis + rank : axis;
    }
  }];
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Normalization and reductions
//===----------------------------------------------------------------------===//

def MS_SoftmaxOp : MS_AxisOp<"softmax", "exp(x - max(x)) / sum(exp(x - max(x)))">;
def MS_LogSoftmaxOp : MS_AxisOp<"log_softmax", "x - max(x) - log(sum(exp(x - max(x))))">;

def MS_ReduceSumOp : MS_ReduceOp<"reduce_sum", "sum", MS_NumericTensor>;
def MS_ReduceMeanOp : MS_ReduceOp<"reduce_mean", "mean">;
def MS_ReduceMaxOp : MS_ReduceOp<"reduce_max", "maximum", MS_NumericTensor>;

include "ms/Dialect/MS/IR/MSDataMovementOps.td"
// Ops that gradients are built from (ms-autodiff).
include "ms/Dialect/MS/IR/MSGradOps.td"
include "ms/Dialect/MS/IR/MSIndexingOps.td"
include "ms/Dialect/MS/IR/MSLogicalOps.td"
include "ms/Dialect/MS/IR/MSArithOps.td"
include "ms/Dialect/MS/IR/MSScanSortOps.td"
include "ms/Dialect/MS/IR/MSResizeOps.td"
include "ms/Dialect/MS/IR/MSCommOps.td"

#endif // MS_DIALECT_MS_IR_MSOPS_TD
