"""Functional ops and primitives (MindSpore's ``mindspore.ops``).

Each function maps to one ``ms`` dialect op or a composition of them (see
docs/generated/Dialects/MSDialect.md). In PyNative mode it runs at once as
a cached kernel; inside a jitted function it is recorded into the graph.
The modules follow the dialect's op families:

    math_func       elementwise arithmetic, comparisons, logic, cast
    array_func      shapes, data movement, indexing ops, creation
    reduction_func  sums, means, maxima, variance, argmax/argmin
    linalg_func     matmul, dense
    nn_func         convolution, normalization, softmax, activations,
                    dropout, interpolate
    sort_func       cumsum, sort, topk, max/min with indices
    loss_func       the losses
    comm_func       collectives
    grad_func, parameter_func   stop_gradient, assign
    functional      all of the above (``ops.functional``, ``F``)
    operations      the Primitive classes (``ops.operations``, ``P``)
    indexing        Tensor[...] and item assignment
    tensor_methods  the Tensor methods that are ops

Importing this package installs those Tensor methods (the one place they
join Tensor: _tensor.install_methods).
"""

from .. import _tensor
from . import functional, operations, tensor_methods
from .functional import *  # noqa: F401,F403
from .operations import *  # noqa: F401,F403

__all__ = functional.__all__ + operations.__all__

_tensor.install_methods(tensor_methods.TensorMethods)
