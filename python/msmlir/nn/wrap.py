"""nn.WithLossCell and nn.TrainOneStepCell (MindSpore's training wrappers).

TrainOneStepCell runs forward, backward and the optimizer update. In
GRAPH_MODE the whole step is captured into one graph: value_and_grad
inlines the gradient function, and the optimizer's ops.assign updates
become results bound to the Parameters, so the step is one native function.
"""

from .. import dtype as mstype
from .. import ops
from .._autograd import value_and_grad
from .._parallel_context import data_parallel, get_auto_parallel_context
from .._runtime import STATE
from .cell import Cell
from ._micro_batches import split_into_micro_batches, tree_sum
from .grad_reducer import DistributedGradReducer
from .optim.optimizer import Optimizer

__all__ = ["WithLossCell", "WithEvalCell", "TrainOneStepCell"]


class WithLossCell(Cell):
    """loss_fn(backbone(data), label). auto_prefix=False: the backbone's
    Parameters keep their names."""

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        if not isinstance(backbone, Cell):
            raise TypeError("WithLossCell: backbone must be a Cell, got "
                            f"{type(backbone).__name__}")
        if not callable(loss_fn):
            raise TypeError("WithLossCell: loss_fn must be callable")
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data, label):
        return self._loss_fn(self._backbone(data), label)

    @property
    def backbone_network(self):
        return self._backbone


class TrainOneStepCell(Cell):
    """One training step of `network` (a Cell returning the loss) with
    `optimizer`: returns the loss, and updates the optimizer's Parameters.
    `sens` scales the gradients (MindSpore's sensitivity). Under
    ParallelMode.DATA_PARALLEL the gradients are all-reduced across ranks
    (averaged with gradients_mean=True) before the update, by an
    nn.DistributedGradReducer made here, as MindSpore's does.

    Made while set_deterministic(True, micro_batch_size=m) is in effect, the
    step computes its gradients on micro-batches of m rows and adds them in
    a fixed tree (see _micro_batches.py): N ranks then train to the bits of
    one process on the whole batch. The returned loss is the micro-batch
    losses' mean. BatchNorm normalizes each micro-batch, as under gradient
    accumulation."""

    def __init__(self, network, optimizer, sens=1.0):
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise TypeError("TrainOneStepCell: network must be a Cell, got "
                            f"{type(network).__name__}")
        if not isinstance(optimizer, Optimizer):
            raise TypeError("TrainOneStepCell: optimizer must be an nn "
                            f"optimizer, got {type(optimizer).__name__}")
        self.network = network
        self.network.set_grad()
        self.optimizer = optimizer
        self.__dict__["weights"] = optimizer.parameters
        self.sens = float(sens)
        self.__dict__["grad_fn"] = value_and_grad(self.network, None,
                                                  self.weights)
        self.__dict__["micro_batch_size"] = STATE.micro_batch_size
        self.__dict__["reducer_flag"] = data_parallel()
        if self.reducer_flag:
            self.grad_reducer = DistributedGradReducer(
                self.weights, get_auto_parallel_context("gradients_mean"))

    def construct(self, *inputs):
        if self.micro_batch_size is None:
            loss, grads = self.grad_fn(*inputs)
        else:
            loss, grads = self._micro_batched_grads(inputs)
        if self.sens != 1.0:
            grads = tuple(g * self.sens for g in grads)
        if self.reducer_flag:
            grads = self.grad_reducer(grads)
        self.optimizer(grads)
        return loss

    def _micro_batched_grads(self, inputs):
        pieces = split_into_micro_batches(inputs, self.micro_batch_size,
                                          "TrainOneStepCell")
        loss, grads = tree_sum(self.grad_fn(*piece) for piece in pieces)
        scale = 1.0 / len(pieces)
        return loss * scale, tuple(g * scale for g in grads)


class WithEvalCell(Cell):
    """(loss_fn(network(data), label), outputs, label): what Model.eval
    feeds its metrics (add_cast_fp32 casts the outputs and label to float32
    first, for low-precision networks)."""

    def __init__(self, network, loss_fn, add_cast_fp32=False):
        super().__init__(auto_prefix=False)
        self._network = network
        self._loss_fn = loss_fn
        self.add_cast_fp32 = bool(add_cast_fp32)

    def construct(self, data, label):
        outputs = self._network(data)
        if self.add_cast_fp32:
            outputs = ops.cast(outputs, mstype.float32)
            label = ops.cast(label, mstype.float32)
        return self._loss_fn(outputs, label), outputs, label
