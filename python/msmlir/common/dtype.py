"""``mindspore.common.dtype`` (``mstype``): msmlir.dtype's names."""

from ..dtype import *  # noqa: F401,F403
from ..dtype import __all__  # noqa: F401
