"""Argument checks with MindSpore's messages (its ``_checkparam``
validator), shared by the optimizers, learning-rate schedules, callbacks
and metrics: "For 'SGD', the 'momentum' must be float and must >= 0, but got
'-1.0' with type 'float'."."""

import numbers

__all__ = ["check_int", "check_positive_int", "check_non_negative_int",
           "check_positive_float", "check_non_negative_float", "check_bool",
           "check_float_range", "check_is_float", "check_value_type"]


def _subject(arg_name, prim_name):
    arg = f"'{arg_name}'" if arg_name else "input value"
    return f"For '{prim_name}', the {arg}" if prim_name else f"The {arg}"


def _check_number(value, kind, relation, arg_name, prim_name):
    """`value` must be an instance of `kind` (bools are not numbers) and
    satisfy `relation`, a (text, predicate) pair such as ('> 0', ...)."""
    subject = _subject(arg_name, prim_name)
    type_name = "int" if kind is numbers.Integral else "float"
    wrong_type = isinstance(value, bool) or not isinstance(value, kind)
    if kind is not numbers.Integral and isinstance(value, numbers.Integral):
        wrong_type = True  # MindSpore's float checks refuse ints too
    if wrong_type:
        if relation is not None and isinstance(value, bool):
            raise TypeError(f"{subject} must be {type_name} and must "
                            f"{relation[0]}, but got '{value}' with type "
                            f"'{type(value).__name__}'.")
        raise TypeError(f"{subject} must be {type_name}, but got "
                        f"'{type(value).__name__}'")
    if relation is not None and not relation[1](value):
        raise ValueError(f"{subject} must be {type_name} and must "
                         f"{relation[0]}, but got '{value}' with type "
                         f"'{type(value).__name__}'.")
    return value


_POSITIVE = ("> 0", lambda v: v > 0)
_NON_NEGATIVE = (">= 0", lambda v: v >= 0)


def check_int(value, arg_name=None, prim_name=None):
    return _check_number(value, numbers.Integral, None, arg_name, prim_name)


def check_positive_int(value, arg_name=None, prim_name=None):
    return _check_number(value, numbers.Integral, _POSITIVE, arg_name,
                         prim_name)


def check_non_negative_int(value, arg_name=None, prim_name=None):
    return _check_number(value, numbers.Integral, _NON_NEGATIVE, arg_name,
                         prim_name)


def check_is_float(value, arg_name=None, prim_name=None):
    return _check_number(value, numbers.Real, None, arg_name, prim_name)


def check_positive_float(value, arg_name=None, prim_name=None):
    return _check_number(value, numbers.Real, _POSITIVE, arg_name, prim_name)


def check_non_negative_float(value, arg_name=None, prim_name=None):
    return _check_number(value, numbers.Real, _NON_NEGATIVE, arg_name,
                         prim_name)


def check_float_range(value, low, high, arg_name=None, prim_name=None,
                      inclusive=(False, False)):
    """low < value < high (each end included where `inclusive` says)."""
    check_is_float(value, arg_name, prim_name)
    left = "[" if inclusive[0] else "("
    right = "]" if inclusive[1] else ")"
    above = value >= low if inclusive[0] else value > low
    below = value <= high if inclusive[1] else value < high
    if not (above and below):
        raise ValueError(f"{_subject(arg_name, prim_name)} should be in range "
                         f"of {left}{low}, {high}{right}, but got {value} "
                         f"with type '{type(value).__name__}'.")
    return value


def check_bool(value, arg_name=None, prim_name=None):
    if not isinstance(value, bool):
        raise TypeError(f"{_subject(arg_name, prim_name)} must be bool, but "
                        f"got '{type(value).__name__}'.")
    return value


def check_value_type(arg_name, value, valid_types, prim_name=None):
    """`value` is one of `valid_types` (a type or a tuple of types)."""
    if not isinstance(valid_types, tuple):
        valid_types = (valid_types,)
    bad_bool = isinstance(value, bool) and bool not in valid_types
    if bad_bool or not isinstance(value, valid_types):
        names = [t.__name__ for t in valid_types]
        what = names[0] if len(names) == 1 else f"one of {names}"
        raise TypeError(f"{_subject(arg_name, prim_name)} must be {what}, "
                        f"but got '{type(value).__name__}'.")
    return value
