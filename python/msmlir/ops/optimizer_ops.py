"""The optimizer Primitives (MindSpore's ``ops.ApplyMomentum`` and the
others custom optimizers call) and the Parameter updates ``Assign``,
``AssignAdd`` and ``AssignSub``. Each updates its Parameters through
``ops.assign``, so inside a compiled step the update is part of the graph,
and returns what MindSpore's returns. The formulas are MindSpore's
documented ones; nn's optimizers are built on them.
"""

from .._tensor import Tensor
from .array_func import select
from .math_composed import sign
from .math_func import abs, cast, maximum, pow, sqrt, square
from .reduction_func import reduce_sum
from .parameter_func import assign
from .primitive import Primitive

__all__ = ["Assign", "AssignAdd", "AssignSub", "ApplyMomentum", "SGD",
           "ApplyRMSProp", "ApplyCenteredRMSProp", "ApplyAdagrad",
           "ApplyAdagradV2", "ApplyAdadelta", "ApplyAdaMax", "ApplyFtrl",
           "ApplyProximalAdagrad", "ApplyGradientDescent", "Adam",
           "AdamWeightDecay", "LARSUpdate", "assign_add",
           "assign_sub", "squared_sum"]


def assign_add(variable, value):
    """variable += value (ops.assign_add); returns the Parameter."""
    return assign(variable, _like(variable, variable + value))


def assign_sub(variable, value):
    """variable -= value (ops.assign_sub); returns the Parameter."""
    return assign(variable, _like(variable, variable - value))


def _like(variable, value):
    """`value` in the Parameter's dtype (MindSpore's implicit conversion)."""
    if isinstance(value, Tensor) and value.dtype != variable.dtype:
        return cast(value, variable.dtype)
    return value


class Assign(Primitive):
    """Assign()(variable, value): variable = value; returns variable."""

    def __call__(self, variable, value):
        return assign(variable, _like(variable, value))


class AssignAdd(Primitive):
    def __call__(self, variable, value):
        return assign_add(variable, value)


class AssignSub(Primitive):
    def __call__(self, variable, value):
        return assign_sub(variable, value)


class ApplyMomentum(Primitive):
    """accum = accum * momentum + grad * gradient_scale; variable -=
    lr * accum, or with use_nesterov variable -= lr * grad + lr * momentum
    * accum. (MindSpore's CPU kernel ignores use_nesterov and
    gradient_scale; this follows the documented formula.)"""

    def __init__(self, use_nesterov=False, use_locking=False,
                 gradient_scale=1.0):
        self.use_nesterov = use_nesterov
        self.use_locking = use_locking
        self.gradient_scale = float(gradient_scale)

    def __call__(self, variable, accumulation, learning_rate, gradient,
                 momentum):
        if self.gradient_scale != 1.0:
            gradient = gradient * self.gradient_scale
        accum = accumulation * momentum + gradient
        assign(accumulation, accum)
        if self.use_nesterov:
            new = variable - (gradient * learning_rate +
                              accum * momentum * learning_rate)
        else:
            new = variable - learning_rate * accum
        return assign(variable, new)


class SGD(Primitive):
    """Stochastic gradient descent with momentum (torch.optim.SGD's rule):
    g += weight_decay * p; accum = g on the first step (stat = 1), else
    momentum * accum + (1 - dampening) * g; p -= lr * (g + momentum *
    accum) with nesterov, else lr * accum."""

    def __init__(self, dampening=0.0, weight_decay=0.0, nesterov=False):
        if nesterov and dampening != 0:
            raise ValueError("For 'SGD', the 'dampening' must be 0 when "
                             f"'nesterov' is True, but got {dampening}.")
        self.dampening = float(dampening)
        self.weight_decay = float(weight_decay)
        self.nesterov = nesterov

    def __call__(self, parameters, gradient, learning_rate, accum, momentum,
                 stat):
        if self.weight_decay > 0:
            gradient = gradient + parameters * self.weight_decay
        if isinstance(momentum, (int, float)) and momentum <= 0:
            return assign(parameters, parameters - learning_rate * gradient)
        later = accum * momentum + gradient * (1.0 - self.dampening)
        new_accum = gradient * stat + later * (1.0 - stat)
        assign(accum, new_accum)
        assign(stat, stat * 0.0)
        step = gradient + new_accum * momentum if self.nesterov else \
            new_accum
        return assign(parameters, parameters - learning_rate * step)


class ApplyRMSProp(Primitive):
    """ms = decay * ms + (1 - decay) * g^2; mom = momentum * mom + lr * g /
    sqrt(ms + epsilon); var -= mom."""

    def __init__(self, use_locking=False):
        self.use_locking = use_locking

    def __call__(self, var, mean_square, moment, learning_rate, grad, decay,
                 momentum, epsilon):
        ms = mean_square * decay + square(grad) * (1.0 - decay)
        assign(mean_square, ms)
        mom = moment * momentum + learning_rate * grad / sqrt(ms + epsilon)
        assign(moment, mom)
        return assign(var, var - mom)


class ApplyCenteredRMSProp(Primitive):
    """Centered RMSProp: mg = decay * mg + (1 - decay) * g; the square's
    mean less mg^2 replaces ms under the root: mom = momentum * mom + lr *
    g / sqrt(ms - mg^2 + epsilon); var -= mom."""

    def __init__(self, use_locking=False):
        self.use_locking = use_locking

    def __call__(self, var, mean_gradient, mean_square, moment, grad,
                 learning_rate, decay, momentum, epsilon):
        mg = mean_gradient * decay + grad * (1.0 - decay)
        ms = mean_square * decay + square(grad) * (1.0 - decay)
        assign(mean_gradient, mg)
        assign(mean_square, ms)
        denom = sqrt(ms - square(mg) + epsilon)
        mom = moment * momentum + learning_rate * grad / denom
        assign(moment, mom)
        return assign(var, var - mom)


class ApplyAdagrad(Primitive):
    """accum += g^2 (if update_slots); var -= lr * g / sqrt(accum)."""

    def __init__(self, update_slots=True):
        self.update_slots = update_slots

    def __call__(self, var, accum, lr, grad):
        new_accum = accum + square(grad) if self.update_slots else accum
        assign(accum, new_accum)
        assign(var, var - lr * grad / sqrt(new_accum))
        return var, accum


class ApplyAdagradV2(Primitive):
    """ApplyAdagrad with epsilon outside the root: var -= lr * g /
    (sqrt(accum) + epsilon)."""

    def __init__(self, epsilon, update_slots=True):
        self.epsilon = float(epsilon)
        self.update_slots = update_slots

    def __call__(self, var, accum, lr, grad):
        new_accum = accum + square(grad) if self.update_slots else accum
        assign(accum, new_accum)
        assign(var, var - lr * grad / (sqrt(new_accum) + self.epsilon))
        return var, accum


class ApplyAdadelta(Primitive):
    """accum = rho * accum + (1 - rho) * g^2; update = sqrt(accum_update +
    eps) / sqrt(accum + eps) * g; accum_update = rho * accum_update + (1 -
    rho) * update^2; var -= lr * update (torch.optim.Adadelta's rule)."""

    def __call__(self, var, accum, accum_update, lr, rho, epsilon, grad):
        new_accum = accum * rho + square(grad) * (1.0 - rho)
        update = sqrt(accum_update + epsilon) / sqrt(new_accum + epsilon) \
            * grad
        assign(accum, new_accum)
        assign(accum_update, accum_update * rho +
               square(update) * (1.0 - rho))
        assign(var, var - lr * update)
        return var, accum, accum_update


class ApplyAdaMax(Primitive):
    """m = beta1 * m + (1 - beta1) * g; v = max(beta2 * v, |g|); var -=
    lr / (1 - beta1_power) * m / (v + epsilon)."""

    def __call__(self, var, m, v, beta1_power, lr, beta1, beta2, epsilon,
                 grad):
        new_m = m * beta1 + grad * (1.0 - beta1)
        new_v = maximum(v * beta2, abs(grad))
        assign(m, new_m)
        assign(v, new_v)
        assign(var, var - lr / (1.0 - beta1_power) * new_m /
               (new_v + epsilon))
        return var, m, v


class ApplyFtrl(Primitive):
    """FTRL-proximal: a' = a + g^2; linear += g - (a'^-p - a^-p) / lr * w;
    w = (sign(linear) * l1 - linear) / (a'^-p / lr + 2 l2) where |linear| >
    l1, else 0 (p = lr_power). MindSpore's CPU kernel uses +l1 for every
    nonzero linear; this is the documented sign."""

    def __init__(self, use_locking=False):
        self.use_locking = use_locking

    def __call__(self, var, accum, linear, grad, lr, l1, l2, lr_power):
        new_accum = accum + square(grad)
        old_pow = _power(accum, -lr_power)
        new_pow = _power(new_accum, -lr_power)
        new_linear = linear + grad - (new_pow - old_pow) / lr * var
        shrunk = (sign(new_linear) * l1 - new_linear) / \
            (new_pow / lr + 2.0 * l2)
        assign(accum, new_accum)
        assign(linear, new_linear)
        return assign(var, select(abs(new_linear) > l1, shrunk,
                                  shrunk * 0.0))


def _power(x, p):
    """x^p; the usual lr_power of -0.5 is a square root."""
    return sqrt(x) if p == 0.5 else pow(x, p)


class ApplyProximalAdagrad(Primitive):
    """accum += g^2; lr_t = lr / sqrt(accum); prox = var - lr_t * g; var =
    sign(prox) * max(|prox| - lr_t * l1, 0) / (1 + lr_t * l2)."""

    def __init__(self, use_locking=False):
        self.use_locking = use_locking

    def __call__(self, var, accum, lr, l1, l2, grad):
        new_accum = accum + square(grad)
        assign(accum, new_accum)
        lr_t = lr / sqrt(new_accum)
        prox = var - lr_t * grad
        if l1 > 0:
            prox = sign(prox) * maximum(abs(prox) - lr_t * l1, 0.0)
        assign(var, prox / (lr_t * l2 + 1.0))
        return var, accum


class ApplyGradientDescent(Primitive):
    """var -= alpha * delta."""

    def __call__(self, var, alpha, delta):
        return assign(var, var - alpha * delta)


class Adam(Primitive):
    """m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2; var -= lr *
    sqrt(1 - b2^t) / (1 - b1^t) * m / (sqrt(v) + eps) (with use_nesterov,
    (b1 m + (1 - b1) g) replaces m); returns (var, m, v)."""

    def __init__(self, use_locking=False, use_nesterov=False):
        self.use_locking = use_locking
        self.use_nesterov = use_nesterov

    def __call__(self, var, m, v, beta1_power, beta2_power, lr, beta1,
                 beta2, epsilon, gradient):
        lr_t = lr * sqrt(1.0 - beta2_power) / (1.0 - beta1_power)
        new_m = m * beta1 + gradient * (1.0 - beta1)
        new_v = v * beta2 + gradient * gradient * (1.0 - beta2)
        assign(m, new_m)
        assign(v, new_v)
        step = new_m * beta1 + gradient * (1.0 - beta1) \
            if self.use_nesterov else new_m
        assign(var, var - lr_t * step / (sqrt(new_v) + epsilon))
        return var, m, v


class AdamWeightDecay(Primitive):
    """m and v as Adam's, no bias correction: var -= lr * (m / (sqrt(v) +
    eps) + decay * var)."""

    def __init__(self, use_locking=False):
        self.use_locking = use_locking

    def __call__(self, var, m, v, lr, beta1, beta2, epsilon, decay,
                 gradient):
        new_m = m * beta1 + gradient * (1.0 - beta1)
        new_v = v * beta2 + gradient * gradient * (1.0 - beta2)
        assign(m, new_m)
        assign(v, new_v)
        step = new_m / (sqrt(new_v) + epsilon)
        if not isinstance(decay, (int, float)) or decay != 0:
            step = step + var * decay
        assign(var, var - lr * step)
        return var, m, v


class LARSUpdate(Primitive):
    """The LARS gradient: trust = hyperpara * |w| / (|g| + weight_decay *
    |w| + epsilon) where both norms are > 0 (else 1); returns trust * (g +
    weight_decay * w). norm_weight and norm_gradient are the squared sums
    (reduce_sum of w^2, g^2)."""

    def __init__(self, epsilon=1e-05, hyperpara=0.001, use_clip=False):
        if use_clip:
            # MindSpore documents no formula for the clipped ratio.
            raise NotImplementedError("LARSUpdate: use_clip=True is not "
                                      "supported by msmlir")
        self.epsilon = float(epsilon)
        self.hyperpara = float(hyperpara)
        self.use_clip = use_clip

    def __call__(self, weight, gradient, norm_weight, norm_gradient,
                 weight_decay, learning_rate):
        w_norm = sqrt(norm_weight)
        g_norm = sqrt(norm_gradient)
        trust = self.hyperpara * w_norm / (g_norm + w_norm * weight_decay +
                                           self.epsilon)
        positive = (w_norm > 0) & (g_norm > 0)
        trust = select(positive, trust, trust * 0.0 + 1.0)
        return (gradient + weight * weight_decay) * trust


def squared_sum(x):
    """The sum of x^2 (LARSUpdate's norm inputs)."""
    return reduce_sum(square(x))
