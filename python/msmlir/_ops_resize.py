"""ops.interpolate and nn.Upsample: one ``ms.interpolate`` op
(MSResizeOps.td) on 4-D NCHW input, modes 'nearest' and 'bilinear', with
torch's and MindSpore's formulas."""

import math
import numbers

from ._tensor import Tensor, unary, op

_MODES = ("nearest", "bilinear")


def _pair(value, name, what, kind):
    if isinstance(value, (list, tuple)):
        values = list(value)
    else:
        values = [value, value]
    if len(values) != 2 or not all(isinstance(v, kind) and
                                   not isinstance(v, bool) for v in values):
        raise TypeError(f"{what}: {name} must be a {kind.__name__} or two "
                        f"of them for the H and W dims, got {value!r}")
    return values


def _output_size(x, size, scale_factor, what):
    if (size is None) == (scale_factor is None):
        raise ValueError(f"{what}: give exactly one of size and scale_factor")
    if size is not None:
        out = [int(v) for v in _pair(size, "size", what, numbers.Integral)]
        if min(out) <= 0:
            raise ValueError(f"{what}: size must be positive, got {size!r}")
        return out, None
    scales = [float(v) for v in _pair(scale_factor, "scale_factor", what,
                                      numbers.Real)]
    if min(scales) <= 0:
        raise ValueError(f"{what}: scale_factor must be positive, got "
                         f"{scale_factor!r}")
    out = [int(math.floor(d * s)) for d, s in zip(x.shape[2:], scales)]
    if min(out) <= 0:
        raise ValueError(f"{what}: scale_factor {scale_factor!r} makes an "
                         f"empty output from input shape {list(x.shape)}")
    return out, scales


def interpolate(input, size=None, scale_factor=None, mode="nearest",
                align_corners=None, recompute_scale_factor=None):
    """ops.interpolate on 4-D NCHW input: mode 'nearest' (torch's) or
    'bilinear' (align_corners False by default). With scale_factor (and
    recompute_scale_factor not set) the source coordinates use
    1 / scale_factor, as torch does; otherwise in_size / out_size."""
    what = "ops.interpolate"
    if not isinstance(input, Tensor):
        raise TypeError(f"{what}: expected a Tensor, got "
                        f"{type(input).__name__}")
    if input.ndim != 4:
        raise ValueError(f"{what}: input must be 4-D NCHW, got shape "
                         f"{list(input.shape)}")
    if mode not in _MODES:
        raise ValueError(f"{what}: mode must be one of {_MODES} (4-D "
                         f"input), got {mode!r}")
    if mode == "nearest" and align_corners is not None:
        raise ValueError(f"{what}: align_corners can only be set with mode "
                         "'bilinear'")
    out, scales = _output_size(input, size, scale_factor, what)
    attrs = [f"size = array<i64: {out[0]}, {out[1]}>", f'mode = "{mode}"']
    if align_corners:
        attrs.append("align_corners")
    elif scales is not None and not recompute_scale_factor:
        ratios = ", ".join(repr(1.0 / s) for s in scales)
        attrs.append(f"scales = array<f64: {ratios}>")
    return unary(op("ms.interpolate", "{" + ", ".join(attrs) + "}", what),
                 input)
