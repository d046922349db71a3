"""The OpInfo table: one entry per op, as PyTorch's OpInfo does.

Each entry names an msmlir callable, a numpy reference computed in float64
(written here from the op's definition, not from msmlir), and a function
that yields sample inputs over shapes and edge values. test_opinfo.py
drives every entry through:

- the reference check (floats to 1e-5 relative, integers and bools exactly);
- PyNative-versus-GRAPH bit parity at jit_level O0, O1 and O2.

Adding an op means adding one OpInfo here (docs/adding-an-op.md).
"""

import math
from dataclasses import dataclass, field

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from msmlir import dtype as mstype, nn, ops


@dataclass
class Sample:
    """Positional tensor inputs (numpy arrays) and keyword attributes.
    `dtypes` gives each input's ms dtype (None: the array's own dtype);
    bfloat16 inputs are float32 arrays of values bfloat16 holds exactly."""
    inputs: tuple
    attrs: dict = field(default_factory=dict)
    name: str = ""
    dtypes: tuple = None

    def tensors(self):
        from msmlir import Tensor
        dts = self.dtypes or (None,) * len(self.inputs)
        return [Tensor(a, dtype=dt) for a, dt in zip(self.inputs, dts)]


# Dtype groups an entry declares (issue 16): the float-only ops take
# FLOATS, arithmetic NUMBERS, data movement and comparisons ALL.
FLOATS = (mstype.float32, mstype.float16, mstype.bfloat16, mstype.float64)
INTS = (mstype.int8, mstype.int16, mstype.int32, mstype.int64, mstype.uint8)
NUMBERS = FLOATS + INTS
ALL = NUMBERS + (mstype.bool_,)


@dataclass
class OpInfo:
    name: str
    op: object            # op(*tensors, **attrs) -> Tensor
    ref: object           # ref(*float64 arrays, **attrs) -> numpy array
    samples: object       # samples() -> list of Sample
    rtol: float = 1e-5
    exact: bool = False   # integer / bool results compare exactly
    # The dtypes the op takes. float32 runs every sample; each other dtype
    # runs the first sample with its float32 inputs converted (see
    # convert_sample: integer edge values, NaN and infinities).
    dtypes: tuple = (mstype.float32,)
    # dtype -> reason, for dtypes the compiler cannot run yet.
    xfail: dict = field(default_factory=dict)
    special: bool = False  # float samples get NaN and +-inf too

    def sample_list(self):
        out = []
        for i, s in enumerate(self.samples()):
            out.append((s.name or f"s{i}", s))
        return out

    def dtype_samples(self):
        """(id, sample, dtype) for every declared dtype but float32."""
        out = []
        samples = self.sample_list()
        for dt in self.dtypes:
            if dt is mstype.float32 or not samples:
                continue
            name, s = samples[0]
            out.append((f"{dt}-{name}", convert_sample(s, dt, self.special),
                        dt))
        return out


def _bf16_values(a):
    """float32 values rounded to bfloat16 (by torch: an independent
    rounding from msmlir's)."""
    import torch
    a = np.asarray(a, np.float32)
    # ascontiguousarray makes a 0-d array 1-d: keep the shape.
    return torch.from_numpy(np.ascontiguousarray(a)).to(
        torch.bfloat16).to(torch.float32).numpy().reshape(a.shape)


def _int_values(a, dt, edges):
    info = np.iinfo(dt.np)
    v = np.clip(np.round(a.astype(np.float64) * 20), info.min, info.max)
    v = v.astype(dt.np).reshape(-1)
    if edges:
        # 0, -1 (255 for uint8) and the extremes: wraparound in sums,
        # products and negation.
        e = np.array([0, -1, info.min, info.max, 1, info.max - 1]).astype(
            dt.np)[:v.size]
        v[:e.size] = e
    return v.reshape(a.shape)


def convert_sample(sample, dt, special=False):
    """`sample` with its float32 inputs in dtype `dt` (index and mask
    inputs stay). Integers: the float values times 20, rounded, with the
    integer edges in the first input; bools: x > 0; floats: the values
    rounded to `dt`, with NaN and +-inf in the first input when
    `special`."""
    inputs, dtypes = [], []
    first = True
    for a in sample.inputs:
        if a.dtype != np.float32:
            inputs.append(a)
            dtypes.append(None)
            continue
        if dt.is_float:
            v = a.copy()
            if special and first and v.size >= 4:
                flat = v.reshape(-1)
                flat[-3:] = [np.nan, np.inf, -np.inf]
            v = (_bf16_values(v) if dt is mstype.bfloat16 else
                 v.astype(dt.np))
        elif dt is mstype.bool_:
            v = a > 0
        else:
            v = _int_values(a, dt, first)
        inputs.append(v)
        dtypes.append(dt)
        first = False
    return Sample(tuple(inputs), sample.attrs, sample.name, tuple(dtypes))


def _rng(seed):
    return np.random.default_rng(seed)


def _uniform(shape, low=-1.0, high=1.0, seed=0):
    return _rng(seed).uniform(low, high, size=shape).astype(np.float32)


def _with_edges(a, edges):
    """`a` with its first elements replaced by edge values."""
    flat = a.reshape(-1).copy()
    edges = np.asarray(edges, dtype=np.float32)[:flat.size]
    flat[:edges.size] = edges
    return flat.reshape(a.shape)


def _unary_samples(low, high, edges):
    def samples():
        return [
            Sample((_with_edges(_uniform((7,), low, high, 1), edges),),
                   name="edges"),
            Sample((_uniform((3, 5), low, high, 2),), name="2d"),
            Sample((_uniform((2, 3, 17), low, high, 3),), name="3d"),
        ]
    return samples


_BROADCASTS = [((3, 4), (3, 4)), ((3, 4), (4,)), ((2, 1, 4), (3, 1)),
               ((5,), ())]


def _binary_samples(rhs_low=-1.0, rhs_high=1.0):
    def samples():
        return [Sample((_uniform(a, seed=i), _uniform(b, rhs_low, rhs_high,
                                                      seed=10 + i)),
                       name="x".join(map(str, a)) + "_" +
                       ("x".join(map(str, b)) or "scalar"))
                for i, (a, b) in enumerate(_BROADCASTS)]
    return samples


_erf = np.vectorize(math.erf)


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _conv2d_ref(x, w, b=None, stride=1, pad_mode="valid", padding=0,
                dilation=1, groups=1):
    """Direct convolution: for each output pixel, the sum over channels and
    the kernel window, after zero padding ('pad' mode, symmetric)."""
    if pad_mode == "pad":
        x = np.pad(x, ((0, 0), (0, 0), (padding, padding), (padding, padding)))
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    ekh, ekw = (kh - 1) * dilation + 1, (kw - 1) * dilation + 1
    oh, ow = (h - ekh) // stride + 1, (wd - ekw) // stride + 1
    out = np.zeros((n, o, oh, ow))
    og = o // groups
    for g in range(groups):
        xs = x[:, g * cg:(g + 1) * cg]
        for i in range(oh):
            for j in range(ow):
                patch = xs[:, :, i * stride:i * stride + ekh:dilation,
                           j * stride:j * stride + ekw:dilation]
                out[:, g * og:(g + 1) * og, i, j] = np.einsum(
                    "nchw,ochw->no", patch, w[g * og:(g + 1) * og])
    if b is not None:
        out += b.reshape(1, -1, 1, 1)
    return out


def _pool_ref(x, kernel_size, stride, reduce):
    windows = sliding_window_view(x, (kernel_size, kernel_size), axis=(2, 3))
    windows = windows[:, :, ::stride, ::stride]
    return reduce(windows, axis=(-2, -1))


def _batch_norm_ref(x, mean, var, gamma, beta, eps=1e-5):
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return ((x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps)
            * gamma.reshape(shape) + beta.reshape(shape))


def _layer_norm_ref(x, gamma, beta, eps=1e-5):
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def _reduce_samples():
    x = _uniform((3, 4, 5), seed=4)
    return [Sample((x,), {"axis": axis, "keep_dims": keep},
                   name=f"axis{axis}_keep{int(keep)}".replace(" ", ""))
            for axis in [(), 1, (0, 2), -1] for keep in (False, True)]


def _np_axis(axis):
    return None if axis == () else axis


def _pool_samples():
    x = _uniform((2, 3, 8, 8), seed=5)
    return [Sample((x,), {"kernel_size": 2, "stride": 2}, name="k2s2"),
            Sample((x,), {"kernel_size": 3, "stride": 1}, name="k3s1")]


def _max_pool(x, kernel_size, stride):
    return nn.MaxPool2d(kernel_size, stride)(x)


def _avg_pool(x, kernel_size, stride):
    return nn.AvgPool2d(kernel_size, stride)(x)


def _conv_samples():
    x = _uniform((2, 4, 9, 9), seed=6)
    return [
        Sample((x, _uniform((6, 4, 3, 3), seed=7)), name="valid"),
        Sample((x, _uniform((6, 4, 3, 3), seed=8), _uniform((6,), seed=9)),
               {"stride": 2, "pad_mode": "pad", "padding": 1}, name="pad_s2"),
        Sample((x, _uniform((4, 2, 3, 3), seed=10)),
               {"groups": 2, "dilation": 2}, name="grouped_dilated"),
    ]


def _norm_params(c, seed):
    return (_uniform((c,), -0.5, 0.5, seed), _uniform((c,), 0.5, 1.5, seed + 1),
            _uniform((c,), 0.5, 1.5, seed + 2), _uniform((c,), -0.5, 0.5,
                                                         seed + 3))


OP_DB = [
    # Elementwise, unary. Edge values: zeros of both signs, the ends of the
    # range where the function saturates or overflows in float32.
    OpInfo("relu", ops.relu, lambda x: np.maximum(x, 0),
           _unary_samples(-2, 2, [0.0, -0.0, 1e-30, -1e-30])),
    OpInfo("sigmoid", ops.sigmoid, lambda x: 1 / (1 + np.exp(-x)),
           _unary_samples(-6, 6, [0.0, -30.0, 30.0, -87.0, 88.0])),
    OpInfo("tanh", ops.tanh, np.tanh,
           _unary_samples(-3, 3, [0.0, -0.0, 1e-4, -10.0, 10.0])),
    OpInfo("exp", ops.exp, np.exp,
           _unary_samples(-3, 3, [0.0, -87.0, 88.0, 1e-7])),
    OpInfo("log", ops.log, np.log,
           _unary_samples(0.1, 5, [1.0, 1e-30, 3e38, 0.5])),
    OpInfo("sqrt", ops.sqrt, np.sqrt,
           _unary_samples(0.0, 4, [0.0, 1e-30, 3e38, 1.0])),
    OpInfo("neg", ops.neg, np.negative,
           _unary_samples(-2, 2, [0.0, -0.0, 3e38])),
    OpInfo("abs", ops.abs, np.abs, _unary_samples(-2, 2, [0.0, -0.0, -3e38])),
    OpInfo("floor", ops.floor, np.floor,
           _unary_samples(-4, 4, [0.0, -0.0, -0.5, 2.5, -3e38, 8388609.0])),
    OpInfo("square", ops.square, np.square,
           _unary_samples(-2, 2, [0.0, 1e-20, 1e19])),
    OpInfo("gelu", ops.gelu,
           lambda x: 0.5 * x * (1 + _erf(x / math.sqrt(2))),
           _unary_samples(-4, 4, [0.0, -10.0, 10.0])),
    OpInfo("gelu_tanh", lambda x: ops.gelu(x, approximate="tanh"),
           lambda x: 0.5 * x * (1 + np.tanh(
               math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3))),
           _unary_samples(-4, 4, [0.0, -10.0, 10.0])),
    # Elementwise, binary, with numpy broadcasting.
    OpInfo("add", ops.add, np.add, _binary_samples()),
    OpInfo("sub", ops.sub, np.subtract, _binary_samples()),
    OpInfo("mul", ops.mul, np.multiply, _binary_samples()),
    OpInfo("div", ops.div, np.divide, _binary_samples(0.5, 1.5)),
    OpInfo("maximum", ops.maximum, np.maximum, _binary_samples()),
    OpInfo("minimum", ops.minimum, np.minimum, _binary_samples()),
    # Linear.
    OpInfo("matmul", ops.matmul, np.matmul, lambda: [
        Sample((_uniform((4, 3), seed=1), _uniform((3, 5), seed=2)), name="2d"),
        Sample((_uniform((2, 4, 3), seed=3), _uniform((2, 3, 5), seed=4)),
               name="batched"),
        Sample((_uniform((2, 4, 3), seed=5), _uniform((3, 5), seed=6)),
               name="broadcast"),
        Sample((_uniform((3,), seed=7), _uniform((3, 2), seed=8)),
               name="vector")]),
    OpInfo("dense", ops.dense,
           lambda x, w, b=None: x @ w.T + (0 if b is None else b), lambda: [
               Sample((_uniform((8, 6), seed=1), _uniform((4, 6), seed=2),
                       _uniform((4,), seed=3)), name="bias"),
               Sample((_uniform((2, 3, 6), seed=4), _uniform((4, 6), seed=5)),
                      name="3d_nobias")]),
    OpInfo("conv2d", ops.conv2d, _conv2d_ref, _conv_samples),
    # Pooling.
    OpInfo("max_pool2d", _max_pool,
           lambda x, **a: _pool_ref(x, reduce=np.max, **a), _pool_samples),
    OpInfo("avg_pool2d", _avg_pool,
           lambda x, **a: _pool_ref(x, reduce=np.mean, **a), _pool_samples),
    # Normalization.
    OpInfo("batch_norm",
           lambda x, m, v, g, b: ops.batch_norm(x, m, v, g, b),
           _batch_norm_ref, lambda: [
               Sample((_uniform((4, 3, 5, 5), seed=11),) + _norm_params(3, 12),
                      name="nchw"),
               Sample((_uniform((6, 3), seed=13),) + _norm_params(3, 14),
                      name="nc")]),
    OpInfo("layer_norm",
           lambda x, g, b: ops.layer_norm(x, g.shape, g, b),
           _layer_norm_ref, lambda: [
               Sample((_uniform((4, 10), seed=15), _uniform((10,), seed=16),
                       _uniform((10,), seed=17)), name="last"),
               Sample((_uniform((2, 3, 4), seed=18),
                       _uniform((3, 4), seed=19), _uniform((3, 4), seed=20)),
                      name="last2")]),
    # Reductions and softmax.
    OpInfo("reduce_sum", lambda x, axis, keep_dims:
           ops.reduce_sum(x, axis, keep_dims),
           lambda x, axis, keep_dims: x.sum(axis=_np_axis(axis),
                                            keepdims=keep_dims),
           _reduce_samples),
    OpInfo("reduce_mean", lambda x, axis, keep_dims:
           ops.reduce_mean(x, axis, keep_dims),
           lambda x, axis, keep_dims: x.mean(axis=_np_axis(axis),
                                             keepdims=keep_dims),
           _reduce_samples),
    OpInfo("reduce_max", lambda x, axis, keep_dims:
           ops.reduce_max(x, axis, keep_dims),
           lambda x, axis, keep_dims: x.max(axis=_np_axis(axis),
                                            keepdims=keep_dims),
           _reduce_samples),
    OpInfo("softmax", ops.softmax, _softmax, lambda: [
        Sample((_uniform((4, 6), -5, 5, seed=21),), {"axis": a},
               name=f"axis{a}") for a in (0, 1, -1)]),
    OpInfo("log_softmax", ops.log_softmax,
           lambda x, axis: np.log(_softmax(x, axis)), lambda: [
               Sample((_uniform((4, 6), -5, 5, seed=22),), {"axis": a},
                      name=f"axis{a}") for a in (0, 1, -1)]),
    # Data movement (exact: no arithmetic).
    OpInfo("reshape", lambda x, shape: ops.reshape(x, shape),
           lambda x, shape: x.reshape(shape), lambda: [
               Sample((_uniform((2, 3, 4), seed=23),), {"shape": (4, -1)}),
               Sample((_uniform((2, 3, 4), seed=24),), {"shape": (24,)})],
           exact=True),
    OpInfo("transpose", lambda x, perm: ops.transpose(x, perm),
           lambda x, perm: x.transpose(perm), lambda: [
               Sample((_uniform((2, 3, 4), seed=25),), {"perm": (2, 0, 1)}),
               Sample((_uniform((5, 7), seed=26),), {"perm": (1, 0)})],
           exact=True),
    OpInfo("flatten", ops.flatten, lambda x: x.reshape(x.shape[0], -1),
           lambda: [Sample((_uniform((2, 3, 4), seed=27),))], exact=True),
    OpInfo("concat", lambda *xs, axis: ops.concat(xs, axis),
           lambda *xs, axis: np.concatenate(xs, axis), lambda: [
               Sample((_uniform((2, 1), seed=28), _uniform((2, 3), seed=29)),
                      {"axis": 1}, name="axis1"),
               Sample((_uniform((1, 3), seed=30), _uniform((2, 3), seed=31),
                       _uniform((3, 3), seed=32)), {"axis": 0},
                      name="axis0"),
               # One ms.concat of five: the op is variadic (gradient
               # buckets join every parameter's gradient in one).
               Sample(tuple(_uniform((n,), seed=33 + n) for n in
                            (4, 1, 3, 2, 5)), {"axis": 0}, name="five")],
           exact=True),
]

# Slicing, padding, broadcasting and gathering (MSDataMovementOps.td), and
# the functions composed from them and from the elementwise ops.
def _int_sample(*arrays, attrs=None, name=""):
    return Sample(arrays, attrs or {}, name)


def _getitem(x, index):
    return x[index]


def _getitem_i(x, i, j):
    return x[i, :, j]


def _setitem(x, v, index):
    """x[index] = v on a copy (the Tensor is rebound, as in MindSpore)."""
    y = x + 0.0
    y[index] = v
    return y


def _np_setitem(x, v, index):
    y = np.array(x)
    y[index] = v
    return y


OP_DB += [
    OpInfo("slice", lambda x, begin, end, strides:
           ops.strided_slice(x, begin, end, strides),
           lambda x, begin, end, strides: x[tuple(
               slice(b, e, s) for b, e, s in zip(begin, end, strides))],
           lambda: [
               Sample((_uniform((4, 8), seed=40),),
                      {"begin": (0, 1), "end": (4, 8), "strides": (1, 2)}),
               Sample((_uniform((3, 5, 6), seed=41),),
                      {"begin": (1, -4, 0), "end": (3, 5, 100),
                       "strides": (1, 3, 4)}, name="negative_clamped")],
           exact=True),
    OpInfo("getitem", _getitem, lambda x, index: x[index], lambda: [
        Sample((_uniform((2, 3, 4), seed=42),), {"index": 1}, name="int"),
        Sample((_uniform((2, 3, 4), seed=43),),
               {"index": (slice(None), slice(1, 3), slice(None, None, 2))},
               name="slices"),
        Sample((_uniform((2, 3, 4), seed=44),),
               {"index": (Ellipsis, -1)}, name="ellipsis"),
        Sample((_uniform((2, 3, 4), seed=45),), {"index": (None, 1)},
               name="newaxis"),
        Sample((_uniform((5, 3), seed=46),), {"index": [4, 0, -1]},
               name="int_list")],
           exact=True),
    OpInfo("slice_update", _setitem, _np_setitem, lambda: [
        Sample((_uniform((4, 8), seed=140), _uniform((4, 4), seed=141)),
               {"index": (slice(None), slice(1, None, 2))}, name="strided"),
        Sample((_uniform((5, 3), seed=142), _uniform((2, 3), seed=143)),
               {"index": slice(4, 0, -2)}, name="negative_step"),
        Sample((_uniform((2, 3, 4), seed=144), _uniform((), seed=145)),
               {"index": (1, Ellipsis, slice(1, 3))}, name="scalar"),
        Sample((_uniform((2, 3, 4), seed=146), _uniform((3, 1), seed=147)),
               {"index": (Ellipsis, None, 1)}, name="newaxis_broadcast")],
           exact=True),
    OpInfo("scatter_update", _setitem, _np_setitem, lambda: [
        Sample((_uniform((5, 3), seed=148), _uniform((3, 3), seed=149)),
               {"index": [4, 0, -3]}, name="rows"),
        Sample((_uniform((3, 5, 4), seed=150), _uniform((3, 2, 4), seed=151)),
               {"index": (slice(None), [1, 3])}, name="middle"),
        Sample((_uniform((3, 5, 4), seed=152), _uniform((2, 5), seed=153)),
               {"index": ([0, 2], slice(None), [1, 3])}, name="split"),
        Sample((_uniform((3, 4), seed=154), _uniform((), seed=155)),
               {"index": np.array([[True, False, True, False],
                                   [False, False, False, True],
                                   [True, True, False, False]])},
               name="known_mask")],
           exact=True),
    OpInfo("scatter_update", lambda x, v, i, j: _setitem(x, v, (i, j)),
           lambda x, v, i, j: _np_setitem(x, v, (i.astype(np.int64),
                                                 j.astype(np.int64))),
           lambda: [
               Sample((_uniform((3, 4, 2), seed=156),
                       _uniform((2, 2), seed=157), np.array([2, 0]),
                       np.array([3, 1])), name="tensor_indices")],
           exact=True),
    OpInfo("select", lambda x, m: _setitem(x, 2.5, m),
           lambda x, m: _np_setitem(x, 2.5, m.astype(bool)), lambda: [
               Sample((_uniform((3, 4), seed=158),
                       _uniform((3, 4), seed=159) > 0), name="mask_tensor")],
           exact=True),
    OpInfo("gather", _getitem_i, lambda x, i, j: x[i.astype(np.int64),
                                                  :, j.astype(np.int64)],
           lambda: [
               Sample((_uniform((3, 4, 5), seed=160), np.array([[2], [0]]),
                       np.array([4, 1, 0])), name="getitem_tensors")],
           exact=True),
    OpInfo("getitem", _getitem, lambda x, index: x[index], lambda: [
        Sample((_uniform((4, 5), seed=161),), {"index": slice(None, None, -1)},
               name="reversed"),
        Sample((_uniform((3, 5, 4), seed=162),),
               {"index": (slice(None), [1, 3], 2)}, name="array_and_int"),
        Sample((_uniform((3, 5, 4), seed=163),),
               {"index": ([0, 2], slice(1, 4), [1, 3])}, name="split"),
        Sample((_uniform((3, 4), seed=164),),
               {"index": np.array([True, False, True])}, name="known_mask")],
           exact=True),
    OpInfo("broadcast_to", lambda x, shape: ops.broadcast_to(x, shape),
           lambda x, shape: np.broadcast_to(x, shape), lambda: [
               Sample((_uniform((4,), seed=47),), {"shape": (3, 4)}),
               Sample((_uniform((2, 1, 3), seed=48),), {"shape": (5, 2, 4, 3)},
                      name="inner")],
           exact=True),
    OpInfo("pad", lambda x, padding, value: ops.pad(x, padding, value=value),
           lambda x, padding, value: np.pad(
               x, [(0, 0)] * (x.ndim - len(padding) // 2) +
               [tuple(padding[i:i + 2]) for i in
                range(len(padding) - 2, -1, -2)], constant_values=value),
           lambda: [
               Sample((_uniform((2, 3, 4), seed=49),),
                      {"padding": (1, 2), "value": 0.0}, name="last"),
               Sample((_uniform((2, 3, 4), seed=50),),
                      {"padding": (0, 1, 2, 0), "value": -1.5},
                      name="last2")],
           exact=True),
    OpInfo("gather", lambda x, i, axis: ops.gather(x, i, axis),
           lambda x, i, axis: np.take(x, i.astype(np.int64), axis), lambda: [
               Sample((_uniform((10, 4), seed=51),
                       np.array([[3, 0], [9, 9], [1, 2]], np.int32)),
                      {"axis": 0}, name="rows"),
               Sample((_uniform((2, 5, 3), seed=52),
                       np.array([4, 1], np.int64)), {"axis": -2},
                      name="middle_i64")],
           exact=True),
    OpInfo("stack", lambda *xs, axis: ops.stack(xs, axis),
           lambda *xs, axis: np.stack(xs, axis), lambda: [
               Sample((_uniform((2, 3), seed=53), _uniform((2, 3), seed=54)),
                      {"axis": a}, name=f"axis{a}") for a in (0, 2, -1)],
           exact=True),
    OpInfo("tile", lambda x, dims: ops.tile(x, dims),
           lambda x, dims: np.tile(x, dims), lambda: [
               Sample((_uniform((2, 3), seed=55),), {"dims": (2, 1)}),
               Sample((_uniform((3,), seed=56),), {"dims": (2, 1, 2)},
                      name="more_dims")],
           exact=True),
    OpInfo("clamp", lambda x, lo, hi: ops.clamp(x, lo, hi),
           lambda x, lo, hi: np.clip(x, lo, hi), lambda: [
               Sample((_uniform((4, 5), -2, 2, seed=57),),
                      {"lo": -0.5, "hi": 0.75})],
           exact=True),
    OpInfo("rsqrt", ops.rsqrt, lambda x: 1 / np.sqrt(x),
           _unary_samples(0.01, 4, [1.0, 1e-30, 3e38])),
    OpInfo("var", lambda x, axis, ddof: ops.var(x, axis, ddof),
           lambda x, axis, ddof: x.var(axis=axis, ddof=ddof), lambda: [
               Sample((_uniform((4, 6), seed=58),), {"axis": 1, "ddof": 0}),
               Sample((_uniform((3, 4, 5), seed=59),),
                      {"axis": (0, 2), "ddof": 1}, name="unbiased")]),
    OpInfo("std", lambda x, axis: ops.std(x, axis),
           lambda x, axis: x.std(axis=axis), lambda: [
               Sample((_uniform((4, 6), seed=60),), {"axis": None})]),
    OpInfo("leaky_relu", ops.leaky_relu,
           lambda x: np.where(x >= 0, x, 0.2 * x),
           _unary_samples(-3, 3, [0.0, -0.0, -3e37])),
    OpInfo("silu", ops.silu, lambda x: x / (1 + np.exp(-x)),
           _unary_samples(-6, 6, [0.0, -20.0, 20.0])),
    OpInfo("elu", ops.elu, lambda x: np.where(x > 0, x, np.expm1(x)),
           _unary_samples(-4, 4, [0.0, -30.0, 30.0])),
    OpInfo("softplus", ops.softplus, lambda x: np.logaddexp(0, x),
           _unary_samples(-6, 6, [0.0, -15.0, 40.0])),
]


# Comparisons, logic, selection, casts and indexing (MSLogicalOps.td,
# MSIndexingOps.td): integer and bool results compare exactly.
def _cast_ref(x, dtype):
    """ms.cast's definition: to bool is x != 0; float to integer truncates
    toward zero, then wraps like an int64 would; integers wrap."""
    if dtype is mstype.bool_:
        return x != 0
    if dtype.is_float:
        return x.astype(np.float64)
    if x.dtype.kind == "f":
        x = np.trunc(x).astype(np.int64)
    return x.astype(dtype.np)


def _compare_samples():
    a = _uniform((3, 4), seed=70)
    b = _uniform((3, 4), seed=71)
    b[0] = a[0]  # ties
    return [Sample((a, b), name="same_shape"),
            Sample((a, _uniform((4,), seed=72)), name="broadcast")]


def _bool_samples():
    rng = _rng(73)
    return [Sample((rng.random((3, 4)) > 0.5, rng.random((3, 4)) > 0.5))]


def _compare(name, fn, ref):
    return OpInfo(name, fn, ref, _compare_samples, exact=True)


OP_DB += [
    _compare("equal", ops.equal, np.equal),
    _compare("not_equal", ops.not_equal, np.not_equal),
    _compare("greater", ops.greater, np.greater),
    _compare("greater_equal", ops.greater_equal, np.greater_equal),
    _compare("less", ops.less, np.less),
    _compare("less_equal", ops.less_equal, np.less_equal),
    OpInfo("logical_and", ops.logical_and, np.logical_and, _bool_samples,
           exact=True),
    OpInfo("logical_or", ops.logical_or, np.logical_or, _bool_samples,
           exact=True),
    OpInfo("logical_not", ops.logical_not, np.logical_not,
           lambda: [Sample((_bool_samples()[0].inputs[0],))], exact=True),
    OpInfo("select", ops.select, lambda c, x, y: np.where(c != 0, x, y),
           lambda: [Sample((_rng(74).random((3, 4)) > 0.5,
                            _uniform((3, 4), seed=75),
                            _uniform((3, 4), seed=76)))], exact=True),
    OpInfo("cast", lambda x, dtype: ops.cast(x, dtype), _cast_ref, lambda: [
               Sample((_uniform((3, 4), -50, 50, seed=77),),
                      {"dtype": ms_dtype}, name=str(ms_dtype))
               for ms_dtype in ALL],
           exact=True),
    OpInfo("one_hot", lambda i, depth: ops.one_hot(i, depth),
           lambda i, depth: np.eye(depth)[i.astype(np.int64)], lambda: [
               Sample((np.array([[0, 3], [2, 1]], np.int32),),
                      {"depth": 4})],
           exact=True),
    OpInfo("argmax", lambda x, axis: ops.argmax(x, axis),
           lambda x, axis: np.argmax(x, axis), lambda: [
               Sample((_with_edges(_uniform((4, 6), seed=78), [1, 1]),),
                      {"axis": 1}, name="ties")],
           exact=True),
    OpInfo("argmin", lambda x, axis: ops.argmin(x, axis),
           lambda x, axis: np.argmin(x, axis), lambda: [
               Sample((_uniform((4, 6), seed=79),), {"axis": 0})],
           exact=True),
]
OP_DB += [
    OpInfo("masked_fill", lambda x, m, value: ops.masked_fill(x, m, value),
           lambda x, m, value: np.where(m != 0, value, x), lambda: [
               Sample((_uniform((3, 4), seed=80),
                       _rng(81).random((4,)) > 0.5), {"value": -2.5},
                      name="broadcast_mask")],
           exact=True),
]


# pow, floor division and remainders (MSArithOps.td). floor_div, floor_mod
# and fmod are exact in every dtype (fmod is exact, and the floor quotient
# is an integer), so they compare exactly, infinities, NaNs and signed zeros
# included; integer samples have nonzero divisors (the float64 reference
# cannot say what an integer division by zero gives: test_arith_ops.py
# checks those against numpy's integer results).
def _divmod_samples():
    edges_x = [7.5, -7.5, 7.5, -7.5, 0.0, -0.0, 6.0, -6.0, np.inf, 5.0,
               1.0, -1.0]
    edges_y = [2.0, 2.0, -2.0, -2.0, 3.0, 3.0, -3.0, 3.0, 2.0, np.inf,
               0.0, -0.0]
    rng = _rng(90)
    ints = rng.integers(-20, 21, size=(3, 5)).astype(np.int32)
    divisors = rng.integers(1, 7, size=(5,)) * rng.choice([-1, 1], size=5)
    return [
        Sample((np.array(edges_x, np.float32), np.array(edges_y, np.float32)),
               name="edges"),
        Sample((_uniform((3, 4), -10, 10, seed=91),
                _uniform((4,), 0.5, 3, seed=92) * np.float32(-1) ** np.arange(
                    4, dtype=np.float32)), name="broadcast"),
        Sample((ints, divisors.astype(np.int32)), name="int32"),
        Sample((ints.astype(np.int64).T, np.array([-3], np.int64)),
               name="int64"),
    ]


def _pow_samples():
    base = _uniform((3, 4), 0.1, 3.0, seed=93)
    return [
        Sample((base, _uniform((3, 4), -2, 2, seed=94)), name="positive"),
        Sample((_uniform((6,), -3, 3, seed=95),
                np.array([0, 1, 2, 3, -1, -2], np.float32)),
               name="integral_exponents"),
        Sample((np.array([0.0, 0.0, 1.0, 2.0], np.float32),
                np.array([0.0, 2.0], np.float32)[[0, 1, 0, 1]]),
               name="zeros"),
        Sample((base, np.array(2.0, np.float32)), name="scalar_exponent"),
    ]


def _int_pow_samples():
    rng = _rng(96)
    return [
        Sample((rng.integers(-5, 6, size=(3, 4)).astype(np.int32),
                rng.integers(0, 7, size=(4,)).astype(np.int32)),
               name="int32"),
        Sample((rng.integers(-40, 41, size=(5,)).astype(np.int64),
                np.array(11, np.int64)), name="int64"),
    ]


def _quiet(fn):
    """`fn` without numpy's warnings for the edge values (x / 0, inf % y)."""
    def ref(*args, **kwargs):
        with np.errstate(all="ignore"):
            return fn(*args, **kwargs)
    return ref


def _int_pow_ref(a, b):
    return np.power(a.astype(np.int64), b.astype(np.int64))


OP_DB += [
    OpInfo("pow", ops.pow, np.power, _pow_samples),
    OpInfo("pow_int", ops.pow, _int_pow_ref, _int_pow_samples, exact=True),
    OpInfo("floor_div", ops.floor_divide, _quiet(np.floor_divide),
           _divmod_samples, exact=True),
    OpInfo("floor_mod", ops.remainder, _quiet(np.remainder),
           _divmod_samples, exact=True),
    OpInfo("fmod", ops.fmod, _quiet(np.fmod), _divmod_samples, exact=True),
]


# cumsum, argsort, gather_elements (MSScanSortOps.td) and the compositions
# sort, topk and max/min with indices. Orders are exact (ties keep index
# order; NaN sorts above every number, as torch); cumsum of float32 against
# float64 sums.
def _stable_order(x, axis, descending):
    """Stable sort positions along `axis`, NaN largest, from Python's
    sorted on keys (not numpy's argsort)."""
    def order(row):
        def key(i):
            v = row[i]
            if np.isnan(v):
                return (0,) if descending else (1,)
            return (1, -v) if descending else (0, v)
        return np.array(sorted(range(len(row)), key=key))
    return np.apply_along_axis(order, axis, x)


def _sort_samples():
    ties = np.array([[3, 1, 2, 1, 3, 0], [5, 5, 5, 4, 4, -1]], np.float32)
    edges = np.array([[2.0, np.nan, -0.0, 0.0, -np.inf, np.nan, 1.0, np.inf]],
                     np.float32)
    rng = _rng(100)
    return [
        Sample((ties,), {"axis": -1, "descending": False}, name="ties"),
        Sample((ties,), {"axis": 1, "descending": True}, name="ties_desc"),
        Sample((edges,), {"axis": -1, "descending": False}, name="nan_inf"),
        Sample((edges,), {"axis": -1, "descending": True},
               name="nan_inf_desc"),
        Sample((_uniform((5, 3, 4), seed=101),),
               {"axis": 0, "descending": False}, name="axis0"),
        Sample((rng.integers(-3, 4, size=(3, 7)).astype(np.int32),),
               {"axis": 1, "descending": True}, name="int32"),
        Sample((rng.integers(-3, 4, size=(4, 3)).astype(np.int64),),
               {"axis": 0, "descending": False}, name="int64"),
    ]


def _take(x, order, axis):
    return np.take_along_axis(x, order, axis)


def _topk_samples():
    ties = np.array([[3, 1, 2, 1, 3, 0], [5, 5, 5, 4, 4, -1]], np.float32)
    rng = _rng(102)
    return [
        Sample((ties,), {"k": 3, "dim": None, "largest": True}, name="ties"),
        Sample((ties,), {"k": 4, "dim": 1, "largest": False},
               name="smallest"),
        Sample((_uniform((6, 3), seed=103),),
               {"k": 2, "dim": 0, "largest": True}, name="dim0"),
        Sample((rng.integers(-9, 10, size=(2, 8)).astype(np.int32),),
               {"k": 8, "dim": -1, "largest": True}, name="int32_all"),
    ]


def _topk_order(x, k, dim, largest):
    axis = -1 if dim is None else dim
    return np.take(_stable_order(x, axis, largest), np.arange(k), axis)


def _extreme_samples():
    x = np.array([[1.0, 3.0, 3.0, -2.0], [np.nan, 0.0, np.nan, 5.0],
                  [-1.0, -1.0, -4.0, -4.0]], np.float32)
    rng = _rng(104)
    return [
        Sample((x,), {"axis": 1, "keepdims": False}, name="ties_nan"),
        Sample((x,), {"axis": 0, "keepdims": True}, name="axis0_keep"),
        Sample((rng.integers(-5, 6, size=(3, 5)).astype(np.int64),),
               {"axis": -1, "keepdims": False}, name="int64"),
    ]


def _np_extreme(fn, x, axis, keepdims):
    # numpy's argmax/argmin: first index, NaN counts as the extreme.
    i = fn(x, axis=axis, keepdims=True)
    values = np.take_along_axis(x, i, axis)
    return (values, i) if keepdims else (values.squeeze(axis),
                                         i.squeeze(axis))


def _cumsum_samples():
    rng = _rng(105)
    return [
        Sample((_uniform((4, 6), seed=106),), {"axis": 1}, name="axis1"),
        Sample((_uniform((5, 2, 3), seed=107),), {"axis": 0}, name="axis0"),
        Sample((_uniform((7,), seed=108),), {"axis": -1}, name="1d"),
        Sample((rng.integers(-50, 50, size=(3, 4)).astype(np.int32),),
               {"axis": 0}, name="int32"),
        Sample((rng.integers(-50, 50, size=(2, 9)).astype(np.int64),),
               {"axis": -1}, name="int64"),
    ]


def _gather_elements_samples():
    rng = _rng(109)
    return [
        Sample((_uniform((4, 5), seed=110),
                rng.integers(0, 5, size=(4, 3)).astype(np.int32)),
               {"dim": 1}, name="dim1"),
        Sample((rng.integers(-9, 9, size=(3, 2, 4)).astype(np.int64),
                rng.integers(0, 3, size=(5, 2, 4)).astype(np.int64)),
               {"dim": 0}, name="int64_dim0"),
    ]


def _np_gather_elements(x, index, dim):
    return np.take_along_axis(x, index.astype(np.int64), dim)


OP_DB += [
    OpInfo("cumsum", lambda x, axis: ops.cumsum(x, axis),
           lambda x, axis: np.cumsum(x, axis), _cumsum_samples),
    OpInfo("argsort", lambda x, axis, descending:
           ops.argsort(x, axis, descending), _stable_order, _sort_samples,
           exact=True),
    OpInfo("sort", lambda x, axis, descending:
           ops.sort(x, axis, descending)[0],
           lambda x, axis, descending: _take(
               x, _stable_order(x, axis, descending), axis),
           _sort_samples, exact=True),
    OpInfo("topk", lambda x, **a: ops.topk(x, **a)[0],
           lambda x, k, dim, largest: _take(
               x, _topk_order(x, k, dim, largest), -1 if dim is None else dim),
           _topk_samples, exact=True),
    OpInfo("topk_indices", lambda x, **a: ops.topk(x, **a)[1],
           _topk_order, _topk_samples, exact=True),
    OpInfo("gather_elements", lambda x, i, dim: ops.gather_elements(x, dim, i),
           _np_gather_elements, _gather_elements_samples, exact=True),
    OpInfo("max_values", lambda x, **a: ops.max(x, **a)[0],
           lambda x, **a: _np_extreme(np.argmax, x, **a)[0],
           _extreme_samples, exact=True),
    OpInfo("max_indices", lambda x, **a: ops.max(x, **a)[1],
           lambda x, **a: _np_extreme(np.argmax, x, **a)[1],
           _extreme_samples, exact=True),
    OpInfo("min_values", lambda x, **a: ops.min(x, **a)[0],
           lambda x, **a: _np_extreme(np.argmin, x, **a)[0],
           _extreme_samples, exact=True),
    OpInfo("min_indices", lambda x, **a: ops.min(x, **a)[1],
           lambda x, **a: _np_extreme(np.argmin, x, **a)[1],
           _extreme_samples, exact=True),
]


# interpolate (MSResizeOps.td): torch's nearest and bilinear formulas,
# written here in float64 numpy.
def _source_rows(n_in, n_out, mode, align_corners, scale_factor):
    if mode == "nearest":
        ratio = 1.0 / scale_factor if scale_factor else n_in / n_out
        i = np.minimum(np.floor(np.arange(n_out) * ratio).astype(np.int64),
                       n_in - 1)
        return i, i, np.zeros(n_out)
    if align_corners:
        ratio = (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
        real = np.arange(n_out) * ratio
    else:
        ratio = 1.0 / scale_factor if scale_factor else n_in / n_out
        real = np.maximum((np.arange(n_out) + 0.5) * ratio - 0.5, 0.0)
    i0 = np.minimum(np.floor(real).astype(np.int64), n_in - 1)
    i1 = np.where(i0 < n_in - 1, i0 + 1, i0)
    return i0, i1, np.clip(real - i0, 0.0, 1.0)


def _interpolate_ref(x, size=None, scale_factor=None, mode="nearest",
                     align_corners=None):
    if size is None:
        size = [int(np.floor(d * scale_factor)) for d in x.shape[2:]]
    h0, h1, lh = _source_rows(x.shape[2], size[0], mode, align_corners,
                              scale_factor)
    w0, w1, lw = _source_rows(x.shape[3], size[1], mode, align_corners,
                              scale_factor)
    lh = lh[:, None]

    def rows(h):
        top = x[:, :, h][:, :, :, w0]
        right = x[:, :, h][:, :, :, w1]
        return top * (1 - lw) + right * lw
    return rows(h0) * (1 - lh) + rows(h1) * lh


def _interpolate_samples():
    x = _uniform((2, 3, 5, 7), seed=111)
    return [
        Sample((x,), {"size": (9, 4), "mode": "nearest"}, name="nearest"),
        Sample((x,), {"scale_factor": 1.7, "mode": "nearest"},
               name="nearest_scale"),
        Sample((x,), {"size": (9, 13), "mode": "bilinear",
                      "align_corners": False}, name="bilinear"),
        Sample((x,), {"size": (4, 13), "mode": "bilinear",
                      "align_corners": True}, name="bilinear_align"),
        Sample((x,), {"scale_factor": 2.5, "mode": "bilinear",
                      "align_corners": False}, name="bilinear_scale"),
    ]


OP_DB += [
    OpInfo("interpolate", lambda x, **a: ops.interpolate(x, **a),
           _interpolate_ref, _interpolate_samples),
]
# The dtypes each entry takes (issue 16). float32 runs every sample; the
# others run the first sample converted by convert_sample. Integer and bool
# inputs of the float-valued ops (exp, div, mean, ...) compute in float32;
# the float-only ops (conv, pooling, norms, softmax) reject them
# (test_dtypes.py checks the TypeError).
_SPECIAL_UNARY = {"relu", "sigmoid", "tanh", "exp", "log", "sqrt", "neg",
                  "abs", "floor", "square", "rsqrt"}
_DTYPES = {
    **{n: NUMBERS for n in (
        "relu", "sigmoid", "tanh", "exp", "log", "sqrt", "neg", "abs",
        "square", "gelu", "gelu_tanh", "sub", "div", "matmul", "dense",
        "reduce_sum", "reduce_mean", "reduce_max", "clamp", "rsqrt",
        "leaky_relu", "silu", "elu", "softplus")},
    **{n: ALL for n in ("add", "mul", "maximum", "minimum", "argmax",
                        "argmin")},
    **{n: FLOATS for n in (
        "conv2d", "max_pool2d", "avg_pool2d", "batch_norm", "layer_norm",
        "softmax", "log_softmax", "var", "std", "floor")},
    **{n: ALL for n in (
        "reshape", "transpose", "flatten", "concat", "slice", "getitem",
        "broadcast_to", "pad", "gather", "stack", "tile", "equal",
        "not_equal", "greater", "greater_equal", "less", "less_equal",
        "select", "cast", "masked_fill", "slice_update", "scatter_update")},
    # pow's float samples have fractional and negative exponents (pow_int
    # has the integer ones); topk's ties sample is float-valued (converted
    # to integers, new ties order differently from torch's topk).
    **{n: FLOATS for n in ("pow", "topk", "topk_indices")},
    **{n: NUMBERS for n in (
        "pow_int", "floor_div", "floor_mod", "fmod", "cumsum",
        "argsort", "sort", "gather_elements",
        "max_values", "max_indices", "min_values", "min_indices")},
    "interpolate": FLOATS,
}
for _info in OP_DB:
    _info.dtypes = _DTYPES.get(_info.name, _info.dtypes)
    _info.special = _info.name in _SPECIAL_UNARY or _info.name in (
        "add", "sub", "mul", "div", "maximum", "minimum")

