"""Learning-rate lists (MindSpore's ``mindspore.nn.dynamic_lr``): each
function returns a Python list with one rate per step, which an optimizer
reads at element ``global_step`` inside the train step.

For step i, current_epoch = floor(i / step_per_epoch).
"""

import math

from .._checkparam import (check_bool, check_non_negative_float,
                           check_positive_float, check_positive_int)

__all__ = ["piecewise_constant_lr", "exponential_decay_lr",
           "natural_exp_decay_lr", "inverse_decay_lr", "cosine_decay_lr",
           "polynomial_decay_lr", "warmup_lr"]


def piecewise_constant_lr(milestone, learning_rates):
    """learning_rates[k] for the steps from milestone[k-1] to
    milestone[k]: [2, 5, 10], [0.1, 0.05, 0.01] gives 2, 3 and 5 steps."""
    name = "piecewise_constant_lr"
    for arg, value in (("milestone", milestone),
                       ("learning_rates", learning_rates)):
        if not isinstance(value, (list, tuple)):
            raise TypeError(f"For '{name}', the argument '{arg}' must be a "
                            f"list or tuple, but got {type(value)}.")
    if len(milestone) != len(learning_rates):
        raise ValueError(f"For '{name}', the size of 'milestone' must be "
                         "same with the size of 'learning_rates', but got "
                         f"'milestone' size: {len(milestone)}, "
                         f"'learning_rates' size: {len(learning_rates)}.")
    out = []
    last = 0
    for i, (m, lr) in enumerate(zip(milestone, learning_rates)):
        check_positive_int(m, "milestone", name)
        if not isinstance(lr, float):
            raise TypeError(f"For '{name}', the element of 'learning_rates' "
                            f"must be float, but got {type(lr)}.")
        if m < last:
            raise ValueError(f"For '{name}', the value of milestone[{i}] "
                             f"must be greater than milestone[{i - 1}], but "
                             f"got milestone[{i}]: {m}, milestone[{i - 1}]: "
                             f"{last}.")
        out += [lr] * (m - last)
        last = m
    return out


def _decay_list(learning_rate, decay_rate, total_step, step_per_epoch,
                decay_epoch, is_stair, factor):
    """[learning_rate * factor(current_epoch)] for each step, after
    MindSpore's checks of the decay functions' arguments."""
    check_positive_float(learning_rate, "learning_rate")
    check_positive_float(decay_rate, "decay_rate")
    check_positive_int(total_step, "total_step")
    check_positive_int(step_per_epoch, "step_per_epoch")
    check_positive_int(decay_epoch, "decay_epoch")
    check_bool(is_stair, "is_stair")
    return [learning_rate * factor(e)
            for e in _epochs(total_step, step_per_epoch)]


def _epochs(total_step, step_per_epoch):
    return [math.floor(i / step_per_epoch) for i in range(total_step)]


def exponential_decay_lr(learning_rate, decay_rate, total_step,
                         step_per_epoch, decay_epoch, is_stair=False):
    """lr * decay_rate^(current_epoch / decay_epoch) (floored with
    is_stair)."""
    def factor(epoch):
        p = epoch / decay_epoch
        return decay_rate ** (math.floor(p) if is_stair else p)
    return _decay_list(learning_rate, decay_rate, total_step,
                       step_per_epoch, decay_epoch, is_stair, factor)


def natural_exp_decay_lr(learning_rate, decay_rate, total_step,
                         step_per_epoch, decay_epoch, is_stair=False):
    """lr * e^(-decay_rate * current_epoch); with is_stair current_epoch
    is rounded down to a multiple of decay_epoch."""
    def factor(epoch):
        if is_stair:
            epoch = math.floor(epoch / decay_epoch) * decay_epoch
        return math.e ** (-decay_rate * epoch)
    return _decay_list(learning_rate, decay_rate, total_step,
                       step_per_epoch, decay_epoch, is_stair, factor)


def inverse_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch,
                     decay_epoch, is_stair=False):
    """lr / (1 + decay_rate * current_epoch / decay_epoch) (floored with
    is_stair)."""
    def factor(epoch):
        p = epoch / decay_epoch
        return 1 / (1 + decay_rate * (math.floor(p) if is_stair else p))
    return _decay_list(learning_rate, decay_rate, total_step,
                       step_per_epoch, decay_epoch, is_stair, factor)


def _check_float(value, arg, name, positive):
    if not isinstance(value, float):
        raise TypeError(f"For '{name}', the argument '{arg}' must be type of "
                        f"float, but got '{arg}' type: {type(value)}.")
    (check_positive_float if positive else check_non_negative_float)(
        value, arg, name)


def cosine_decay_lr(min_lr, max_lr, total_step, step_per_epoch,
                    decay_epoch):
    """min_lr + (max_lr - min_lr) / 2 * (1 + cos(pi * t / decay_epoch)),
    t = min(current_epoch, decay_epoch)."""
    _check_float(min_lr, "min_lr", "cosine_decay_lr", False)
    check_positive_float(max_lr, "max_lr")
    if min_lr >= max_lr:
        raise ValueError("For 'cosine_decay_lr', the 'max_lr' should be "
                         "greater than the 'min_lr', but got 'max_lr' value: "
                         f"{max_lr}, 'min_lr' value: {min_lr}.")
    check_positive_int(total_step, "total_step")
    check_positive_int(step_per_epoch, "step_per_epoch")
    check_positive_int(decay_epoch, "decay_epoch")
    delta = 0.5 * (max_lr - min_lr)
    return [min_lr + delta * (1 + math.cos(math.pi * min(e, decay_epoch) /
                                           decay_epoch))
            for e in _epochs(total_step, step_per_epoch)]


def polynomial_decay_lr(learning_rate, end_learning_rate, total_step,
                        step_per_epoch, decay_epoch, power,
                        update_decay_epoch=False):
    """(lr - end_lr) * (1 - t / D)^power + end_lr with t =
    min(current_epoch, decay_epoch), D = decay_epoch; with
    update_decay_epoch, t = current_epoch and D = decay_epoch *
    max(ceil(t / decay_epoch), 1)."""
    check_positive_float(learning_rate, "learning_rate")
    _check_float(end_learning_rate, "end_learning_rate",
                 "polynomial_decay_lr", False)
    check_positive_float(power, "power")
    check_positive_int(total_step, "total_step")
    check_positive_int(step_per_epoch, "step_per_epoch")
    check_positive_int(decay_epoch, "decay_epoch")
    check_bool(update_decay_epoch, "update_decay_epoch")
    out = []
    for epoch in _epochs(total_step, step_per_epoch):
        if update_decay_epoch:
            t = epoch
            d = decay_epoch * max(math.ceil(epoch / decay_epoch), 1)
        else:
            t = min(epoch, decay_epoch)
            d = decay_epoch
        out.append((learning_rate - end_learning_rate) *
                   (1 - t / d) ** power + end_learning_rate)
    return out


def warmup_lr(learning_rate, total_step, step_per_epoch, warmup_epoch):
    """lr * min(current_epoch, warmup_epoch) / warmup_epoch."""
    _check_float(learning_rate, "learning_rate", "warmup_lr", False)
    check_positive_int(warmup_epoch, "warmup_epoch")
    check_positive_int(total_step, "total_step")
    check_positive_int(step_per_epoch, "step_per_epoch")
    return [learning_rate * min(e, warmup_epoch) / warmup_epoch
            for e in _epochs(total_step, step_per_epoch)]
