"""The Primitive base class (MindSpore's ``mindspore.ops.primitive``):
operator classes are instantiated with attributes and called with
tensors."""

__all__ = ["Primitive"]


class Primitive:
    """Base of the operator classes: instantiate with attributes, call with
    tensors."""

    def __repr__(self):
        return f"Prim[{type(self).__name__}]"
