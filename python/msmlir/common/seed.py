"""``mindspore.common.seed``."""

from .._context import set_seed, get_seed

__all__ = ["set_seed", "get_seed"]
