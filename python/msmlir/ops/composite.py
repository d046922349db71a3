"""``mindspore.ops.composite`` (imported as ``C``): GradOperation and the
composites of ops/meta_ops.py.

GradOperation differentiates through ms.grad, so this module sits in the
transforms layer (python/tests/test_import_layers.py), above the ops it is
named after: ``ops.GradOperation`` is therefore not an attribute of
``msmlir.ops``; import it as MindSpore scripts do,
``from mindspore.ops import composite as C``.
"""

from .._autograd import grad
from .._tensor import Tensor
from .meta_ops import HyperMap, Map, MultitypeFuncGraph
from .reduction_func import reduce_sum

__all__ = ["GradOperation", "HyperMap", "Map", "MultitypeFuncGraph"]


def _weighted_sum(out, sens):
    """sum(out * sens) over every output: its gradient is the
    vector-Jacobian product with `sens` (MindSpore's sensitivity)."""
    if isinstance(out, Tensor):
        out, sens = (out,), (sens,)
    if not isinstance(sens, (tuple, list)) or len(sens) != len(out):
        raise ValueError("For 'GradOperation', the sens must have the "
                         "structure of the network's outputs.")
    total = None
    for o, s in zip(out, sens):
        term = reduce_sum(o * s)
        total = term if total is None else total + term
    return total


class GradOperation:
    """GradOperation(get_all=False, get_by_list=False, sens_param=False):
    ``GradOperation(...)(fn, weights)`` is a function of fn's arguments
    (and, with sens_param, a last argument: the output's sensitivity)
    that returns the gradient of the first input, of every input
    (get_all), of the weights (get_by_list; a tuple) or both."""

    def __init__(self, get_all=False, get_by_list=False, sens_param=False):
        for name, value in (("get_all", get_all),
                            ("get_by_list", get_by_list),
                            ("sens_param", sens_param)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'GradOperation', the '{name}' should "
                                f"be bool, but got {type(value)}")
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param
        # One grad function per (fn, weights, argument count): each keeps
        # its compiled graphs and differentiated tapes.
        self._cache = {}

    def __call__(self, fn, weights=None):
        if self.get_by_list and weights is None:
            raise TypeError("For 'GradOperation', 'weights' must be given "
                            "when 'get_by_list' is True.")
        return _GradOf(self, fn, weights if self.get_by_list else None)

    def _grad_fn(self, fn, weights, n_args):
        key = (id(fn), id(weights), n_args)
        entry = self._cache.get(key)
        if entry is None or entry[0] is not fn:
            target = fn
            if self.sens_param:
                def target(*args):
                    return _weighted_sum(fn(*args[:-1]), args[-1])
            positions = None
            if self.get_all:
                positions = tuple(range(n_args))
            elif not self.get_by_list:
                positions = 0
            entry = (fn, grad(target, positions, weights))
            self._cache[key] = entry
        return entry[1]


class _GradOf:
    def __init__(self, op, fn, weights):
        self.op = op
        self.fn = fn
        self.weights = weights

    def __call__(self, *args, **kwargs):
        if "sens" in kwargs and self.op.sens_param:
            args = args + (kwargs.pop("sens"),)
        n = len(args) - (1 if self.op.sens_param else 0)
        return self.op._grad_fn(self.fn, self.weights, n)(*args, **kwargs)
