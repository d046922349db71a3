"""Learning-rate schedule Cells (MindSpore's
``mindspore.nn.learning_rate_schedule``): ``schedule(global_step)`` maps
an int step Tensor to a float32 Tensor of the same shape with ms ops, so an
optimizer given one evaluates it on its ``global_step`` Parameter inside
the compiled train step.

With s = float(global_step) and p = s / decay_steps (floor(p) when
is_stair):
    ExponentialDecayLR   lr * decay_rate^p
    NaturalExpDecayLR    lr * exp(-decay_rate * p)
    InverseDecayLR       lr / (1 + decay_rate * p)
    CosineDecayLR        min_lr + (max_lr - min_lr) / 2 *
                         (1 + cos(pi * min(s, decay_steps) / decay_steps))
    PolynomialDecayLR    (lr - end_lr) * (1 - t / D)^power + end_lr
    WarmUpLR             lr * min(s, warmup_steps) / warmup_steps
"""

import math

from .. import dtype as mstype
from .. import ops
from .._checkparam import (check_bool, check_non_negative_float,
                           check_positive_float, check_positive_int)
from .cell import Cell

__all__ = ["LearningRateSchedule", "ExponentialDecayLR",
           "NaturalExpDecayLR", "InverseDecayLR", "CosineDecayLR",
           "PolynomialDecayLR", "WarmUpLR"]


def _step(global_step):
    return ops.cast(global_step, mstype.float32)


# sin's Taylor coefficients, w^1 to w^13.
_SIN_TERMS = tuple((-1.0) ** k / math.factorial(2 * k + 1) for k in range(7))


def _sin_half_pi(w):
    """sin(w) for w in [0, pi/2] by its Taylor polynomial to w^13 (error
    below 1e-9, under float32's rounding): the ms dialect has no sin or
    cos op."""
    w2 = w * w
    poly = _SIN_TERMS[-1]
    for c in reversed(_SIN_TERMS[:-1]):
        poly = poly * w2 + c
    return w * poly


class LearningRateSchedule(Cell):
    """Base class: construct(global_step) returns the learning rate."""

    def construct(self, global_step):
        raise NotImplementedError


class _DecayLR(LearningRateSchedule):
    """The learning_rate, decay_rate, decay_steps, is_stair schedules."""

    def __init__(self, learning_rate, decay_rate, decay_steps,
                 is_stair=False):
        super().__init__()
        name = type(self).__name__
        check_positive_float(learning_rate, "learning_rate", name)
        check_positive_float(decay_rate, "decay_rate", name)
        check_positive_int(decay_steps, "decay_steps", name)
        check_bool(is_stair, "is_stair", name)
        self.learning_rate = learning_rate
        self.decay_rate = decay_rate
        self.decay_steps = decay_steps
        self.is_stair = is_stair

    def _p(self, global_step):
        if self.is_stair:
            # Integer division of the step: exact, as floor of the ratio.
            return _step(ops.floor_divide(global_step, self.decay_steps))
        return _step(global_step) / float(self.decay_steps)


class ExponentialDecayLR(_DecayLR):
    def construct(self, global_step):
        return self.learning_rate * ops.pow(self.decay_rate,
                                            self._p(global_step))


class NaturalExpDecayLR(_DecayLR):
    """lr * exp(-decay_rate * p), p = s / decay_steps as MindSpore
    documents it (its code leaves out the division without is_stair and
    multiplies floor(p) by decay_steps with it)."""

    def construct(self, global_step):
        return self.learning_rate * ops.exp(self._p(global_step) *
                                            -self.decay_rate)


class InverseDecayLR(_DecayLR):
    def construct(self, global_step):
        return self.learning_rate / (self._p(global_step) * self.decay_rate
                                     + 1.0)


class CosineDecayLR(LearningRateSchedule):
    def __init__(self, min_lr, max_lr, decay_steps):
        super().__init__()
        name = "CosineDecayLR"
        if not isinstance(min_lr, float):
            raise TypeError("For 'CosineDecayLR', the argument 'min_lr' must "
                            f"be type of float, but got 'min_lr' type: "
                            f"{type(min_lr)}.")
        check_non_negative_float(min_lr, "min_lr", name)
        check_positive_float(max_lr, "max_lr", name)
        check_positive_int(decay_steps, "decay_steps", name)
        if min_lr >= max_lr:
            raise ValueError("For 'CosineDecayLR', the 'max_lr' should be "
                             "greater than the 'min_lr', but got 'max_lr' "
                             f"value: {max_lr}, 'min_lr' value: {min_lr}.")
        self.min_lr = min_lr
        self.max_lr = max_lr
        self.decay_steps = decay_steps

    def construct(self, global_step):
        # 1 + cos(pi t / D) = 2 sin^2(pi (D - t) / (2 D)): D - t is an exact
        # integer, so the result keeps float32's relative accuracy even
        # where the rate approaches min_lr.
        left = ops.maximum(self.decay_steps - global_step, 0)
        w = _step(left) * (math.pi / (2.0 * self.decay_steps))
        s = _sin_half_pi(w)
        return self.min_lr + (self.max_lr - self.min_lr) * (s * s)


class PolynomialDecayLR(LearningRateSchedule):
    def __init__(self, learning_rate, end_learning_rate, decay_steps, power,
                 update_decay_steps=False):
        super().__init__()
        name = "PolynomialDecayLR"
        check_positive_float(learning_rate, "learning_rate", name)
        if not isinstance(end_learning_rate, float):
            raise TypeError("For 'PolynomialDecayLR', the argument "
                            "'end_learning_rate' must be type of float, but "
                            "got 'end_learning_rate' type: "
                            f"{type(end_learning_rate)}.")
        check_non_negative_float(end_learning_rate, "end_learning_rate",
                                 name)
        check_positive_int(decay_steps, "decay_steps", name)
        check_bool(update_decay_steps, "update_decay_steps", name)
        check_positive_float(power, "power", name)
        self.learning_rate = learning_rate
        self.end_learning_rate = end_learning_rate
        self.decay_steps = decay_steps
        self.power = power
        self.update_decay_steps = update_decay_steps

    def construct(self, global_step):
        steps = self.decay_steps
        if self.update_decay_steps:
            # D = decay_steps * max(ceil(s / decay_steps), 1), in integers.
            cycles = ops.maximum(ops.floor_divide(global_step + (steps - 1),
                                                  steps), 1)
            t = _step(global_step)
            d = _step(cycles * steps)
        else:
            t = _step(ops.minimum(global_step, steps))
            d = float(steps)
        base = 1.0 - t / d
        return (self.learning_rate - self.end_learning_rate) * \
            ops.pow(base, self.power) + self.end_learning_rate


class WarmUpLR(LearningRateSchedule):
    def __init__(self, learning_rate, warmup_steps):
        super().__init__()
        if not isinstance(learning_rate, float):
            raise TypeError("For 'WarmUpLR', the argument 'learning_rate' "
                            "must be type of float, but got 'learning_rate' "
                            f"type: {type(learning_rate)}.")
        check_non_negative_float(learning_rate, "learning_rate", "WarmUpLR")
        check_positive_int(warmup_steps, "warmup_steps", "WarmUpLR")
        self.learning_rate = learning_rate
        self.warmup_steps = warmup_steps

    def construct(self, global_step):
        t = _step(ops.minimum(global_step, self.warmup_steps))
        return self.learning_rate * (t / float(self.warmup_steps))
