"""mindspore.vjp and mindspore.vmap, built on ms.grad and on Python
loops: vjp differentiates sum(outputs * cotangents); vmap calls the
function once per slice of the mapped axis and stacks the results."""

from ._autograd import grad
from ._tensor import Tensor
from .ops import functional as F

__all__ = ["vjp", "vmap"]


def _weighted(out, sens):
    outs = out if isinstance(out, tuple) else (out,)
    senses = sens if isinstance(sens, tuple) else (sens,)
    total = None
    for o, s in zip(outs, senses):
        term = F.reduce_sum(o * s)
        total = term if total is None else total + term
    return total


def vjp(fn, *inputs, weights=None, has_aux=False):
    """(fn(*inputs), vjp_fn): vjp_fn(cotangent) is the vector-Jacobian
    product, the gradients of sum(outputs * cotangent) with respect to
    the inputs (a tuple when there are several)."""
    outputs = fn(*inputs)
    aux = None
    if has_aux:
        outputs, aux = outputs[0], outputs[1:]
    n = len(inputs)
    positions = 0 if n == 1 else tuple(range(n))

    def target(*args):
        out = fn(*args[:n])
        return _weighted(out[0] if has_aux else out, args[n:])
    grad_fn = grad(target, positions, weights)

    def vjp_fn(*cotangents):
        return grad_fn(*inputs, *cotangents)
    if has_aux:
        return outputs, vjp_fn, aux
    return outputs, vjp_fn


def _axes(in_axes, count):
    if isinstance(in_axes, (tuple, list)):
        if len(in_axes) != count:
            raise ValueError("For 'vmap', the length of 'in_axes' must equal "
                             f"the number of arguments {count}, but got "
                             f"{len(in_axes)}.")
        return tuple(in_axes)
    return (in_axes,) * count


def vmap(fn, in_axes=0, out_axes=0):
    """fn mapped over an axis of its Tensor arguments (None: not mapped):
    one call per index, results stacked along out_axes."""
    def mapped(*args):
        axes = _axes(in_axes, len(args))
        sizes = {a.shape[ax] for a, ax in zip(args, axes)
                 if ax is not None and isinstance(a, Tensor)}
        if len(sizes) != 1:
            raise ValueError("For 'vmap', the mapped axes must have one size, "
                             f"but got {sorted(sizes)}.")
        size = sizes.pop()
        results = [fn(*[F.unbind(a, ax)[i] if ax is not None and
                        isinstance(a, Tensor) else a
                        for a, ax in zip(args, axes)])
                   for i in range(size)]
        if isinstance(results[0], tuple):
            return tuple(F.stack([r[k] for r in results], out_axes)
                         for k in range(len(results[0])))
        return F.stack(results, out_axes)
    return mapped
