"""nn.Cell and nn.SequentialCell (MindSpore's building blocks).

A Cell's *path* ("dense_relu_sequential.0") comes from the attribute names
it is reachable by, and is kept up to date when a Cell is assigned as an
attribute of another; parameter names are the owning Cell's path plus the
attribute name ("dense_relu_sequential.0.weight"). Graph capture puts the
path into every op's location, and errors raised inside a Cell name it.
"""

from collections import OrderedDict

from .. import _trace
from .._graph import user_location
from .._runtime import (STATE, GRAPH_MODE, MSError, GraphSyntaxError,
                        structure_changed)
from .._autograph import convert as _convert
from .._jit import (Compiled, JitConfig, JitFunction, check_signature_spec,
                    read_cell_attributes)
from .._autograd import ParameterTuple
from .._tensor import AttributeSlot, Parameter, Tensor

__all__ = ["Cell", "SequentialCell", "CellList"]


def _join(prefix, name):
    return f"{prefix}.{name}" if prefix else name


# Errors that get the Cell's path prefixed (AttributeError: a Parameter or
# sub-Cell that construct reads was deleted).
_ANNOTATED = (MSError, ValueError, TypeError, AttributeError)


def _annotate(error, cell):
    """Prefixes an exception's message with the Cell that raised it (once:
    the innermost Cell wins)."""
    if getattr(error, "_ms_cell", None) is not None:
        return
    try:
        message = error.args[0] if error.args else ""
        error.args = (f"{cell.cell_description()}: {message}",) + \
            tuple(error.args[1:])
        error._ms_cell = cell.cell_description()
    except (AttributeError, TypeError):
        pass


def _retyped_tensor(old, new):
    """True when a plain Tensor attribute becomes a Tensor of another dtype
    or shape (or stops being a Tensor)."""
    if old.__class__ is not Tensor:
        return False
    return (new.__class__ is not Tensor or old._t.dtype != new._t.dtype or
            old._t.shape != new._t.shape)


class Cell:
    """Base class of all network cells. Subclasses define ``construct``;
    calling the cell runs it in the context's mode (PyNative by default;
    GRAPH_MODE compiles it once per input signature)."""

    # What the capture layer below nn (jit, its syntax checks) looks for to
    # treat an object as a Cell without importing nn.
    __ms_cell__ = True

    def __init__(self, auto_prefix=True, flags=None):
        d = self.__dict__
        d["_params"] = OrderedDict()
        d["_cells"] = OrderedDict()
        d["_scope"] = ""
        d["_jit_config"] = None
        d["_graph_runner"] = None
        d["training"] = False
        d["_auto_prefix"] = auto_prefix
        d["_flags"] = dict(flags or {})

    # -- attributes ----------------------------------------------------------
    def _check_init(self):
        if "_params" not in self.__dict__:
            raise MSError(f"{type(self).__name__}.__init__ must call "
                          "super().__init__() before assigning attributes")

    def _replacing(self, name, value):
        """Called before attribute `name` becomes `value`: when it replaces
        or removes a Parameter or sub-Cell, or gives a Tensor attribute
        another type, graphs compiled earlier may read the old one, so they
        re-check before their next call. (A Tensor attribute of the same
        type needs nothing: graphs read it at every call.)"""
        d = self.__dict__
        if "_params" not in d:
            return
        old = d["_params"].get(name)
        if old is None:
            old = d["_cells"].get(name)
        if old is not None and old is not value:
            structure_changed()
        elif _retyped_tensor(d.get(name), value):
            structure_changed()

    def _assign_in_graph(self, name, value):
        """`self.<name> = value` while construct is captured, `value` a
        Tensor of the graph: the graph returns it, and the attribute holds
        it after each call, as in PyNative."""
        if name in self._params:
            filename, line = user_location()
            raise GraphSyntaxError(
                f"{filename}:{line}: construct assigns a Tensor to "
                f"Parameter {self._params[name].name}; update a Parameter "
                f"with ops.assign(self.{name}, value)")
        STATE.graph.write_attribute(AttributeSlot(self, name),
                                    self.__dict__.get(name), value)

    def __setattr__(self, name, value):
        if STATE.graph is not None and isinstance(value, Tensor) and \
                value.is_symbolic:
            self._assign_in_graph(name, value)
            object.__setattr__(self, name, value)
            return
        self._replacing(name, value)
        if isinstance(value, Parameter):
            self._check_init()
            self._cells.pop(name, None)
            self._params[name] = value
            if value._base_name is None or value._base_name == "Parameter" \
                    or value._base_name == name:
                value._base_name = name
            value._name = _join(self._scope, value._base_name)
            object.__setattr__(self, name, value)
        elif isinstance(value, ParameterTuple):
            # Its Parameters belong to this Cell under their own names
            # ("moment1.fc1.weight"), as in MindSpore.
            self._check_init()
            for param in value:
                self._params[param.name] = param
            object.__setattr__(self, name, value)
        elif isinstance(value, Cell):
            self._check_init()
            self._params.pop(name, None)
            self._cells[name] = value
            value._set_scope(self._child_scope(name))
            object.__setattr__(self, name, value)
        else:
            if "_params" in self.__dict__:
                # Anything else (None included) stops the attribute from
                # being a Parameter or sub-Cell.
                self._params.pop(name, None)
                self._cells.pop(name, None)
            object.__setattr__(self, name, value)

    def __delattr__(self, name):
        self._replacing(name, None)
        self._params.pop(name, None)
        self._cells.pop(name, None)
        object.__delattr__(self, name)

    def _child_scope(self, name):
        """The path of sub-Cell `name`. A Cell made with auto_prefix=False
        (WithLossCell, TrainOneStepCell, optimizers) adds no path segment,
        so the network it wraps keeps its Parameter names."""
        if not self.__dict__.get("_auto_prefix", True):
            return self._scope
        return _join(self._scope, name)

    def _set_scope(self, scope):
        self.__dict__["_scope"] = scope
        for attr, param in self._params.items():
            param._name = _join(scope, param._base_name or attr)
        for attr, cell in self._cells.items():
            cell._set_scope(self._child_scope(attr))

    def insert_child_to_cell(self, child_name, child_cell):
        setattr(self, child_name, child_cell)

    def insert_param_to_cell(self, param_name, param, check_name=True):
        setattr(self, param_name, param)

    # -- identity ------------------------------------------------------------
    @property
    def cls_name(self):
        return type(self).__name__

    @property
    def cell_path(self):
        """This Cell's path from the root ("" for the root)."""
        return self._scope

    def cell_description(self):
        """"dense_relu_sequential.0 (Dense)", or the class for a root."""
        if self._scope:
            return f"{self._scope} ({type(self).__name__})"
        return type(self).__name__

    def extend_repr(self):
        return ""

    def __repr__(self):
        extra = self.extend_repr()
        if not self.__dict__.get("_cells"):
            return f"{type(self).__name__}<{extra}>"
        lines = [f"{type(self).__name__}<{extra}"]
        for name, cell in self._cells.items():
            sub = repr(cell).replace("\n", "\n  ")
            lines.append(f"  ({name}): {sub}")
        lines.append("  >")
        return "\n".join(lines)

    # -- traversal -------------------------------------------------------------
    def cells_and_names(self, cells=None, name_prefix=""):
        """Yields (path, cell) for this cell and every sub-cell, once each."""
        seen = set() if cells is None else cells
        if id(self) in seen:
            return
        seen.add(id(self))
        yield name_prefix, self
        for name, cell in self._cells.items():
            if cell is not None:
                yield from cell.cells_and_names(seen,
                                                _join(name_prefix, name))

    def name_cells(self):
        return OrderedDict(self._cells)

    def cells(self):
        return list(self._cells.values())

    def parameters_and_names(self, name_prefix="", expand=True):
        """Yields (attribute path, Parameter) for every parameter, once
        each, as MindSpore does: the path is how the parameter is reached
        ("_backbone.fc1.weight" through a WithLossCell), which may differ
        from Parameter.name ("fc1.weight"); checkpoints use the name."""
        seen = set()
        cells = (self.cells_and_names(name_prefix=name_prefix) if expand
                 else [(name_prefix, self)])
        for cell_name, cell in cells:
            for attr, param in cell._params.items():
                if param is not None and id(param) not in seen:
                    seen.add(id(param))
                    yield _join(cell_name, attr), param

    def get_parameters(self, expand=True):
        for _, param in self.parameters_and_names(expand=expand):
            yield param

    def trainable_params(self, recurse=True):
        return [p for p in self.get_parameters(recurse) if p.requires_grad]

    def untrainable_params(self, recurse=True):
        return [p for p in self.get_parameters(recurse)
                if not p.requires_grad]

    def parameters_dict(self, recurse=True):
        """{Parameter.name: Parameter}, the checkpoint's keys."""
        return OrderedDict((p.name, p) for p in self.get_parameters(recurse))

    # -- modes ---------------------------------------------------------------
    def set_train(self, mode=True):
        """Sets training mode on this cell and its sub-cells: Dropout draws
        masks and the batch norms use (and update) batch statistics."""
        for _, cell in self.cells_and_names():
            cell.__dict__["training"] = bool(mode)
        return self

    def set_grad(self, requires_grad=True):
        """MindSpore marks Cells that are differentiated; ms needs no mark
        (gradients are taken by grad/value_and_grad), so this only records
        the flag."""
        self.__dict__["requires_grad"] = bool(requires_grad)
        return self

    def set_jit_config(self, jit_config):
        """The JitConfig (or a dict of its arguments) used when this Cell
        runs in GRAPH_MODE or through a jitted construct."""
        if isinstance(jit_config, dict):
            try:
                jit_config = JitConfig(**jit_config)
            except (ValueError, TypeError) as e:
                raise type(e)(f"{self.cell_description()}: set_jit_config: "
                              f"{e}") from None
        if not isinstance(jit_config, JitConfig):
            raise TypeError(f"{self.cell_description()}: set_jit_config "
                            "needs a JitConfig")
        self.__dict__["_jit_config"] = jit_config

    def get_jit_config(self):
        return self._jit_config

    def set_inputs(self, *inputs):
        """Describes the inputs of construct for graph mode (MindSpore's
        Cell.set_inputs): Tensors whose None dims may take any size, e.g.
        ``Tensor(shape=[None, 1, 28, 28], dtype=ms.float32)``. The graph is
        then compiled once with ? dims and serves every size; a call whose
        inputs do not match raises TypeError naming the argument."""
        self.__dict__["_input_signature"] = check_signature_spec(
            inputs, self.cell_description() + ": set_inputs")
        self.__dict__["_inputs"] = tuple(inputs)
        return self

    def get_inputs(self):
        """The inputs given to set_inputs, or None."""
        inputs = self.__dict__.get("_inputs")
        return list(inputs) if inputs is not None else None

    @property
    def compile_count(self):
        """Graphs compiled for this Cell in GRAPH_MODE (or by a jitted
        construct)."""
        n = 0
        runner = self.__dict__.get("_graph_runner")
        if runner is not None:
            n += runner.compile_count
        for key, value in self.__dict__.items():
            if key.startswith("_ms_jit_") and isinstance(value, Compiled):
                n += value.compile_count
        return n

    # -- calling ---------------------------------------------------------------
    def construct(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} has no construct")

    def __call__(self, *args, **kwargs):
        st = STATE
        graph = st.graph
        if graph is not None:
            # Being captured: inline, with this Cell's path on the ops, and
            # its Tensor attributes read by the graph at each call.
            read_cell_attributes(graph, self)
            graph.cell_paths.append(self._scope)
            try:
                # Its control flow converted (see _autograph.py).
                return _convert(self.construct)(*args, **kwargs)
            except _ANNOTATED as e:
                _annotate(e, self)
                raise
            finally:
                graph.cell_paths.pop()
        if st.mode == GRAPH_MODE and not st.eager and not isinstance(
                type(self).__dict__.get("construct"), JitFunction):
            runner = self.__dict__["_graph_runner"]
            if runner is None:
                runner = Compiled(self.construct, None,
                                  f"{type(self).__name__}.construct", self)
                self.__dict__["_graph_runner"] = runner
            try:
                return runner(*args, **kwargs)
            except _ANNOTATED as e:
                _annotate(e, self)
                raise
        try:
            recorder = _trace.RECORDER
            if recorder is None:
                return self.construct(*args, **kwargs)
            return recorder.run_cell(self._scope or type(self).__name__,
                                     self.construct, args, kwargs)
        except _ANNOTATED as e:
            _annotate(e, self)
            raise


class SequentialCell(Cell):
    """Runs its cells in order: SequentialCell(a, b, c) or
    SequentialCell([a, b, c]) or SequentialCell(OrderedDict(...))."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], (list, tuple)):
            cells = list(args[0])
            names = [str(i) for i in range(len(cells))]
        elif len(args) == 1 and isinstance(args[0], (dict, OrderedDict)):
            names = list(args[0].keys())
            cells = list(args[0].values())
        else:
            cells = list(args)
            names = [str(i) for i in range(len(cells))]
        for name, cell in zip(names, cells):
            if not isinstance(cell, Cell):
                raise TypeError("SequentialCell takes Cells, got "
                                f"{type(cell).__name__}")
            setattr(self, name, cell)

    def __getitem__(self, index):
        cells = list(self._cells.values())
        if isinstance(index, slice):
            return SequentialCell(cells[index])
        return cells[index]

    def __len__(self):
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells.values())

    def append(self, cell):
        setattr(self, str(len(self._cells)), cell)
        return self

    def construct(self, input_data):
        for cell in self._cells.values():
            input_data = cell(input_data)
        return input_data


class CellList(Cell):
    """A list of Cells (not callable itself)."""

    def __init__(self, args=None):
        super().__init__()
        for cell in args or []:
            self.append(cell)

    def append(self, cell):
        setattr(self, str(len(self._cells)), cell)

    def __getitem__(self, index):
        return list(self._cells.values())[index]

    def __len__(self):
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells.values())


class CellDict(Cell):
    """An ordered dict of Cells keyed by str (MindSpore's nn.CellDict), not
    callable itself. Built from a dict, or an iterable of (key, cell)
    pairs; its cells are sub-Cells named by their keys, so their parameters
    are found and named as attributes would be."""

    def __init__(self, *args, **kwargs):
        super().__init__()
        if len(args) > 1:
            raise TypeError(f"nn.CellDict takes at most one positional "
                            f"argument, got {len(args)}")
        if args:
            self.update(args[0])
        if kwargs:
            self.update(kwargs)

    @staticmethod
    def _check(key, cell):
        if not isinstance(key, str):
            raise TypeError(f"nn.CellDict: keys must be str, got "
                            f"{type(key).__name__}")
        if not isinstance(cell, Cell):
            raise TypeError(f"nn.CellDict: value for {key!r} must be a "
                            f"Cell, got {type(cell).__name__}")

    def __getitem__(self, key):
        return self._cells[key]

    def __setitem__(self, key, cell):
        self._check(key, cell)
        setattr(self, key, cell)

    def __delitem__(self, key):
        if key not in self._cells:
            raise KeyError(key)
        delattr(self, key)

    def __len__(self):
        return len(self._cells)

    def __iter__(self):
        return iter(list(self._cells))

    def __contains__(self, key):
        return key in self._cells

    def keys(self):
        return list(self._cells.keys())

    def values(self):
        return list(self._cells.values())

    def items(self):
        return list(self._cells.items())

    def clear(self):
        for key in list(self._cells):
            del self[key]

    def pop(self, key):
        cell = self[key]
        del self[key]
        return cell

    def update(self, cells):
        pairs = cells.items() if isinstance(cells, dict) else cells
        for pair in pairs:
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise TypeError("nn.CellDict.update: expected a dict or "
                                "(key, cell) pairs")
            self[pair[0]] = pair[1]

    def construct(self, *inputs):
        raise TypeError("nn.CellDict is not callable; call its cells, e.g. "
                        "cells['name'](x)")
