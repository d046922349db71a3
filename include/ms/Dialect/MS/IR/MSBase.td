//===- MSBase.td - The ms dialect definition ---------------*- tablegen -*-===//
//
// The `ms` dialect models MindSpore Cell-level ops on ranked tensors.
//
//===----------------------------------------------------------------------===//

#ifndef MS_DIALECT_MS_IR_MSBASE_TD
#define MS_DIALECT_MS_IR_MSBASE_TD

include "mlir/IR/OpBase.td"

def MS_Dialect : Dialect {
  let name = "ms";
  let cppNamespace = "::ms";
  let summary = "Cell-level neural-network ops with MindSpore semantics";
  let description = [{
    The `ms` dialect holds the ops that MindSpore-style Cells are built from
    (`nn.Dense`, `nn.ReLU`, `nn.Flatten`, ...), on ranked tensors, with
    MindSpore's layouts and semantics: a dense weight is `[out, in]`,
    elementwise ops broadcast like numpy, `flatten` keeps dimension 0.

    Ops take MindSpore's dtypes in three groups: data movement every dtype
    (f16, bf16, f32, f64, bool as i1, i8, i16, i32, i64, uint8 as ui8),
    numeric ops every number (integers wrap, ui8 is unsigned), the other
    ops floats. f16 and bf16 ops compute in f32 and round once
    (`ms-widen-half-precision`).

    A network is a `func.func` (entry `@construct` by default). Its inputs
    come first; its parameters are further arguments tagged with
    `{ms.param = "<cell path>.weight"}`, so one compiled graph serves any
    checkpoint. Every op infers its result type, so frontends never compute
    shapes by hand.

    ```mlir
    func.func @construct(%x: tensor<64x784xf32>,
        %w: tensor<10x784xf32> {ms.param = "fc.weight"},
        %b: tensor<10xf32> {ms.param = "fc.bias"}) -> tensor<64x10xf32> {
      %0 = ms.dense %x, %w, %b : tensor<64x784xf32>, tensor<10x784xf32>, tensor<10xf32>
      %1 = ms.relu %0 : tensor<64x10xf32>
      return %1 : tensor<64x10xf32>
    }
    ```
  }];
}

// Every operand and result of an ms op has rank at most ms::kMaxRank (8,
// MindSpore's bound for most of its ops). Beyond it the error comes at
// once; a rank-2000 tensor would otherwise take minutes to compile.
def MS_BoundedRank : NativeOpTrait<"BoundedRank"> {
  let cppNamespace = "::ms::OpTrait";
}

class MS_Op<string mnemonic, list<Trait> traits = []>
    : Op<MS_Dialect, mnemonic, !listconcat([MS_BoundedRank], traits)>;

//===----------------------------------------------------------------------===//
// Op properties that passes ask about
//===----------------------------------------------------------------------===//
// Passes query these (op->hasTrait<ms::OpTrait::...>(), the interface)
// instead of listing ops, so a new op states its properties where it is
// defined. C++ side: ms/Dialect/MS/IR/MSOpProperties.h.

// Whatever its attributes, row i of dim 0 of each result depends only on
// row i of the operands that have that batch dim (the others are read
// whole): conv2d, pools, flatten. ms-split-dynamic-batch runs such ops on
// tiles of a ? batch.
def MS_RowIndependent : NativeOpTrait<"RowIndependent"> {
  let cppNamespace = "::ms::OpTrait";
}

// Element i of each result is a function of element i of each operand
// alone, after numpy broadcasting (add, relu, compare, cast, select). An
// elementwise op is row independent without saying so (ms::isRowIndependent).
def MS_Elementwise : NativeOpTrait<"Elementwise"> {
  let cppNamespace = "::ms::OpTrait";
}

// Exact in every precision: the op moves, picks, compares or converts
// values and computes none, so ms-widen-half-precision leaves its f16 and
// bf16 operands as they are (reshape, gather, select, equal, argmax, cast).
def MS_DtypeNeutral : NativeOpTrait<"DtypeNeutral"> {
  let cppNamespace = "::ms::OpTrait";
}

def MS_RowIndependenceOpInterface : OpInterface<"RowIndependenceOpInterface"> {
  let cppNamespace = "::ms";
  let description = [{
    An op whose rows of a batch (dim 0) stay apart or not depending on its
    attributes and on which operands have the batch: dense (a batched
    weight mixes rows), matmul, reshape, transpose, concat, the ops along
    an axis, reductions, batch_norm, dropout. Ops that keep rows apart
    whatever their attributes have the MS_RowIndependent trait instead.
  }];
  let methods = [
    InterfaceMethod<[{
        Why this op would mix rows of dim 0 of the operands for which
        `isBatched` holds (a phrase for an error message, such as "it
        reduces over the batch"); empty when it keeps every row apart.
      }],
      "std::string", "whyRowsMix",
      (ins "::llvm::function_ref<bool(::mlir::Value)>":$isBatched)>
  ];
}

// f32 only: what ops that make f32 from non-float input (one_hot) produce.
def MS_Tensor : RankedTensorOf<[F32]>;

// What the indexing, comparison and cast ops accept: bool is i1 in the IR
// (stored one byte per element; MSToLinalg widens i1 tensors to i8).
def MS_BoolTensor : RankedTensorOf<[I1]>;
def MS_IndexTensor : RankedTensorOf<[I32, I64]>;
// Older, narrower groups; the ops use the dtype groups below.
def MS_AnyTensor : RankedTensorOf<[F32, F16, I32, I64, I1]>;
def MS_NumberTensor : RankedTensorOf<[F32, F16, I32, I64]>;

// The dtype groups of MindSpore's dtype list (issue 16), as ops widen to
// them. uint8 is ui8 in the IR (signedness matters for div, max, compare
// and casts); MSToLinalg maps it to signless i8 after choosing the op.
// Float ops: what transcendental, normalization, conv and pool ops take.
def MS_FloatTensor : RankedTensorOf<[F16, BF16, F32, F64]> {
  let summary = "ranked tensor of floats (f16, bf16, f32 or f64)";
}
// Numbers: what add/sub/mul, max/min, neg/abs, sums and matmul take.
def MS_NumericTensor
    : RankedTensorOf<[F16, BF16, F32, F64, I8, I16, I32, I64, UI8]> {
  let summary =
      "ranked tensor of numbers (f16, bf16, f32, f64, i8, i16, i32, i64 or ui8)";
}
// Any element: what data movement (reshape, transpose, concat, slice,
// pad, gather, select, cast) moves without looking at values.
def MS_AllTensor
    : RankedTensorOf<[F16, BF16, F32, F64, I8, I16, I32, I64, UI8, I1]> {
  let summary = "ranked tensor of f16, bf16, f32, f64, i1, i8, i16, i32, i64 "
                "or ui8";
}

#endif // MS_DIALECT_MS_IR_MSBASE_TD
