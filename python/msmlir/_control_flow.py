"""Runtime helpers of converted control flow (see _autograph.py).

Each helper looks at its condition. A Python value, or a tensor with a
value (PyNative, or a constant while capturing), runs Python's own control
flow: the chosen branch, the loop iterations, unrolled at capture. A
symbolic tensor (or a Parameter, whose value may change between calls)
while capturing becomes ``scf.if`` / ``scf.while`` in the graph: each branch
or loop body runs once on symbolic values, with the ops it records going
into the op's region, and the variables it assigns become the op's results.
"""

import builtins
import linecache

from . import dtype as mstype
from . import ops
from ._graph import Sym, tensor_type, user_location, value_dependent
from ._runtime import STATE, GraphSyntaxError
from ._tensor import Tensor, Parameter, _onew


class Undefined:
    """The value of a variable not (yet) assigned on this path. Using it is
    an error naming the variable."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"<undefined variable {self.name!r}>"

    def __getattr__(self, attr):
        raise NameError(f"variable {self.name!r} is not defined on every "
                        "path to this use")

    def __bool__(self):
        raise NameError(f"variable {self.name!r} is not defined on every "
                        "path to this use")


def gather(scope, names):
    """The current values of `names` in `scope` (a locals() dict)."""
    return tuple(scope[n] if n in scope else Undefined(n) for n in names)


def _symbolic(value):
    """Whether `value` is a tensor whose value the graph must decide."""
    if not isinstance(value, Tensor):
        return False
    if value._t.__class__ is Sym:
        return True
    return STATE.graph is not None and isinstance(value, Parameter)


def _where():
    filename, line = user_location()
    source = linecache.getline(filename, line).strip() if line else ""
    return f"{filename}:{line}", source


def _error(message):
    where, source = _where()
    statement = f" `{source}`" if source else ""
    level = STATE.graph.syntax_level if STATE.graph is not None else "STRICT"
    raise GraphSyntaxError(f"{where}: in graph mode (jit_syntax_level="
                           f"{level}), the statement{statement} {message}")


def python_condition(value, kind):
    """The condition of an `if`/`while` the conversion left to Python (its
    body has a return that does not end it, a break or a continue): a
    symbolic tensor is an error (STRICT, COMPATIBLE) or runs the call in
    PyNative mode (LAX), as any other use of a tensor's value."""
    if _symbolic(value):
        value_dependent(
            f"is an `{kind}` on a tensor whose body leaves it with "
            "`return`, `break` or `continue`",
            f"Graph mode compiles a tensor-conditioned `{kind}` without "
            "them: assign the result to a variable and return it after the "
            "statement, or keep a flag variable instead of break/continue.")
    return value


#===---------------------------------------------------------------------===#
# Python semantics, or the graph
#===---------------------------------------------------------------------===#

def if_stmt(cond, true_fn, false_fn, names, inits, live):
    if not _symbolic(cond):
        return (true_fn if cond else false_fn)(*inits)
    return _graph_if(cond, true_fn, false_fn, names, inits, live, "if")


def if_exp(cond, true_fn, false_fn):
    if not _symbolic(cond):
        return true_fn() if cond else false_fn()
    return _graph_if(cond, lambda _: (true_fn(),), lambda _: (false_fn(),),
                     ("<value>",), (Undefined("<value>"),), {"<value>"},
                     "conditional expression")[0]


def while_stmt(cond_fn, body_fn, names, inits, live):
    values = tuple(inits)
    while True:
        cond = cond_fn(*values)
        if _symbolic(cond):
            # From here on the loop is the graph's (the iterations so far
            # ran on Python values, unrolled).
            return _graph_while(cond_fn, body_fn, names, values, live,
                                "while")
        if not cond:
            return values
        values = tuple(body_fn(*values))


def for_range(range_fn, args, body_fn, names, inits, live, brk=None):
    """`for names[0] in range_fn(*args)`; `brk` names the flag a converted
    `break` sets."""
    if range_fn is not builtins.range or not any(_symbolic(a)
                                                 for a in args):
        values = tuple(inits)
        flag = names.index(brk) if brk else None
        bounds = range_fn(*args)
        for i in bounds:
            values = tuple(body_fn(i, *values[1:]))
            if flag is None:
                continue
            if _symbolic(values[flag]):
                # A break on a tensor: the rest of the loop is the graph's.
                if range_fn is not builtins.range:
                    _error("breaks out of a loop over a Python iterable on "
                           "a tensor condition; loop over range().")
                rest = (i + bounds.step, bounds.stop, bounds.step)
                return _graph_for_range(rest, body_fn, names, values, live,
                                        brk)
            if values[flag]:
                break
        return values
    return _graph_for_range(args, body_fn, names, inits, live, brk)


def _bool_op(op, decides, operands):
    """`and`/`or` over thunks: Python's meaning on Python values; on a
    symbolic tensor, the graph's `op`. A value whose truth is `decides`
    (False for `and`, True for `or`) ends the chain and is the result."""
    value = operands[0]()
    for operand in operands[1:]:
        if _symbolic(value):
            other = operand()
            if isinstance(other, Tensor):
                value = _logical(op, value, other)
            elif bool(other) == decides:
                return other
            else:
                value = _as_bool(value)
        elif bool(value) == decides:
            return value
        else:
            value = operand()
    return value


def and_(*operands):
    return _bool_op("logical_and", False, operands)


def or_(*operands):
    return _bool_op("logical_or", True, operands)


def not_(value):
    if _symbolic(value):
        return ops.logical_not(_as_bool(value))
    return not value


def _as_bool(value):
    if value.dtype == mstype.bool_:
        return value
    return value != 0


def _logical(op, a, b):
    return getattr(ops, op)(_as_bool(a), _as_bool(b))


#===---------------------------------------------------------------------===#
# Graph construction
#===---------------------------------------------------------------------===#

def _describe(value):
    if isinstance(value, Tensor):
        return tensor_type(value._t.dtype, value._t.shape)
    if isinstance(value, Undefined):
        return "undefined"
    return f"the Python {type(value).__name__} {value!r}"


def _sym(graph, value):
    return graph.value_of(value, Parameter)


def _condition(graph, cond, kind):
    """The i1 of a 0-d or one-element tensor condition (Python truth: a
    number is true when nonzero)."""
    if cond._t.size != 1:
        _error(f"uses a tensor of shape {list(cond.shape)} as the condition "
               f"of `{kind}`; graph mode needs a single value: reduce it "
               "first (for example `(x > 0).all()` or `x.sum() > 0`).")
    cond = _as_bool(cond)
    sym = _sym(graph, cond)
    return graph.extract_element(sym)


def _scalar_tensor(value, like):
    """A Python number as a 0-d tensor: `like`'s dtype when given."""
    if like is not None:
        return Tensor(value, like.dtype)
    return Tensor(value)


def _merge(graph, kind, name, a, b, live, labels):
    """How one variable leaves an `if`: ('same', value), ('undefined',),
    ('result', tensor_a, tensor_b) (promoted to tensors as needed), or
    ('seq', type, [plans]) for tuples and lists of one length."""
    if a is b:
        return ("same", a)
    if (type(a) is type(b) and isinstance(a, (tuple, list)) and
            len(a) == len(b) and not hasattr(a, "_fields")):
        return ("seq", type(a), [
            _merge(graph, kind, f"{name}[{k}]", x, y, live, labels)
            for k, (x, y) in enumerate(zip(a, b))])
    ua, ub = isinstance(a, Undefined), isinstance(b, Undefined)
    if ua or ub:
        if name in live:
            which = labels[1] if ua else labels[0]
            _error(f"assigns `{name}` only in the {which} of the tensor-"
                   f"conditioned `{kind}`, and `{name}` is used after it; "
                   f"give `{name}` a value before the `{kind}` or in both "
                   "branches.")
        return ("undefined",)
    ta, tb = isinstance(a, Tensor), isinstance(b, Tensor)
    numbers = (int, float, bool)
    if not ta and not tb:
        if type(a) is type(b) and a == b:
            return ("same", a)
        if isinstance(a, numbers) and isinstance(b, numbers) and \
                type(a) is type(b):
            return ("result", _scalar_tensor(a, None),
                    _scalar_tensor(b, None))
        _error(f"gives `{_shown(name)}` different Python values in the two "
               f"branches of the tensor-conditioned `{kind}` "
               f"({_describe(a)} and {_describe(b)}); graph mode can only "
               "merge tensors: make both tensors of one shape and dtype.")
    if not ta and isinstance(a, numbers) and not b._t.shape:
        a = _scalar_tensor(a, b)
    elif not tb and isinstance(b, numbers) and not a._t.shape:
        b = _scalar_tensor(b, a)
    if not (isinstance(a, Tensor) and isinstance(b, Tensor)) or \
            a._t.dtype != b._t.dtype or a._t.shape != b._t.shape:
        _error(f"gives `{_shown(name)}` {_describe(a)} in the {labels[0]} "
               f"and {_describe(b)} in the {labels[1]} of the tensor-"
               f"conditioned `{kind}`; both must give it the same shape and "
               "dtype (cast or reshape one of them).")
    return ("result", a, b)


def _shown(name):
    """A variable's name in messages (the function's result for the
    variable that converted `return`s assign)."""
    return name.replace("_ms_return", "the returned value")


def _yields(graph, plan, side, out):
    if plan[0] == "result":
        out.append(_sym(graph, plan[side]))
    elif plan[0] == "seq":
        for p in plan[2]:
            _yields(graph, p, side, out)
    return out


def _rebuild(plan, name, results):
    kind = plan[0]
    if kind == "same":
        return plan[1]
    if kind == "undefined":
        return Undefined(name)
    if kind == "result":
        return _wrap(next(results))
    return plan[1](_rebuild(p, name, results) for p in plan[2])


def _wrap(sym):
    t = _onew(Tensor)
    t._t = sym
    return t


def _graph_if(cond, true_fn, false_fn, names, inits, live, kind):
    graph = STATE.graph
    c = _condition(graph, cond, kind)
    with graph.region() as then_region:
        then_out = tuple(true_fn(*inits))
    with graph.region() as else_region:
        else_out = tuple(false_fn(*inits))
    labels = ("true branch", "false branch")
    merged = [_merge(graph, kind, n, a, b, live, labels)
              for n, a, b in zip(names, then_out, else_out)]
    yields_then, yields_else = [], []
    with then_region:
        for m in merged:
            _yields(graph, m, 1, yields_then)
    with else_region:
        for m in merged:
            _yields(graph, m, 2, yields_else)
    results = iter(graph.emit_if(c, then_region, yields_then, else_region,
                                 yields_else))
    return tuple(_rebuild(m, n, results) for n, m in zip(names, merged))


_NUMBERS = (int, float, bool)
_MAX_PROMOTIONS = 8


def _graph_while(cond_fn, body_fn, names, inits, live, kind):
    """scf.while of the loop from `inits`. The carried variables are those
    holding tensors; a Python number the body changes is carried as a 0-d
    tensor (the loop is captured again with it promoted)."""
    graph = STATE.graph
    inits = list(inits)
    for _ in range(_MAX_PROMOTIONS):
        carried = [i for i, v in enumerate(inits) if isinstance(v, Tensor)]
        init_syms = [_sym(graph, inits[i]) for i in carried]
        types = [(s.dtype, s.shape) for s in init_syms]
        before = graph.region(types)
        with before:
            values = list(inits)
            for i, arg in zip(carried, before.args):
                values[i] = _wrap(arg)
            cond = cond_fn(*values)
            if not _symbolic(cond) and not isinstance(cond, Tensor):
                _error(f"is a `{kind}` whose condition is a tensor on entry "
                       "but a Python value after an iteration; keep the "
                       "condition a tensor.")
            c = _condition(graph, cond, kind)
            passed = list(before.args)
        after = graph.region(types)
        promote = {}
        with after:
            values = list(inits)
            for i, arg in zip(carried, after.args):
                values[i] = _wrap(arg)
            out = list(body_fn(*values))
            yields = []
            for i, (name, old, new) in enumerate(zip(names, inits, out)):
                if i in carried:
                    if isinstance(new, _NUMBERS) and not inits[i]._t.shape:
                        new = _scalar_tensor(new, inits[i])
                    if not isinstance(new, Tensor) or \
                            new._t.dtype != inits[i]._t.dtype or \
                            new._t.shape != inits[i]._t.shape:
                        _error(f"changes `{name}` from {_describe(old)} to "
                               f"{_describe(new)} in the body of the tensor-"
                               f"conditioned `{kind}`; a loop variable must "
                               "keep its shape and dtype (cast or reshape "
                               "it).")
                    yields.append(_sym(graph, new))
                elif new is old:
                    continue
                elif isinstance(old, Undefined):
                    if name in live:
                        _error(f"first assigns `{name}` inside the body of "
                               f"the tensor-conditioned `{kind}`, and uses "
                               "it after the loop; give it a value before "
                               "the loop.")
                elif isinstance(old, _NUMBERS) and (
                        isinstance(new, Tensor) and not new._t.shape or
                        type(new) is type(old) and new != old):
                    promote[i] = new
                elif not (type(new) is type(old) and new == old):
                    _error(f"changes `{name}` from {_describe(old)} to "
                           f"{_describe(new)} in the body of the tensor-"
                           f"conditioned `{kind}`; graph mode can only "
                           "carry tensors through such a loop.")
        if promote:
            for i, new in promote.items():
                like = new if isinstance(new, Tensor) else None
                inits[i] = _scalar_tensor(inits[i], like)
            continue
        results = graph.emit_while(init_syms, before, c, passed, after,
                                   yields)
        final = list(inits)
        for i, n in enumerate(names):
            if isinstance(inits[i], Undefined):
                final[i] = Undefined(n)
        for i, r in zip(carried, results):
            final[i] = _wrap(r)
        return tuple(final)
    _error(f"is a tensor-conditioned `{kind}` whose Python variables keep "
           "changing type; make its loop variables tensors.")


def _graph_for_range(args, body_fn, names, inits, live, brk=None):
    if len(args) == 1:
        start, stop, step = 0, args[0], 1
    elif len(args) == 2:
        (start, stop), step = args, 1
    else:
        start, stop, step = args
    if not isinstance(step, int):
        _error("loops over a range whose step is a tensor; graph mode needs "
               "a Python int step.")
    if step == 0:
        raise ValueError("range() arg 3 must not be zero")
    like = stop if isinstance(stop, Tensor) else start
    if not isinstance(like, Tensor):
        like = Tensor(stop)  # bounds from Python ints (a break on a tensor)
    if not like.dtype.is_int:
        _error(f"loops over a range with a {like.dtype} bound; range bounds "
               "must be integer tensors.")
    if not isinstance(start, Tensor):
        start = Tensor(start, like.dtype)
    if not isinstance(stop, Tensor):
        stop = Tensor(stop, like.dtype)
    if start.dtype != stop.dtype:
        stop = stop.astype(start.dtype)

    flag = names.index(brk) if brk else None

    def cond(iv, *rest):
        more = iv < stop if step > 0 else iv > stop
        if flag is None:
            return more
        return and_(lambda: not_(rest[flag]), lambda: more)

    def body(iv, _target, *rest):
        out = tuple(body_fn(iv, *rest))
        return (iv + step,) + out

    target = names[0]
    values = (start,) + tuple(inits)
    if target not in live:
        # The loop variable is not read after the loop: not carried.
        values = (start, Undefined(target)) + tuple(inits[1:])
    out = _graph_while(cond, body, ("<range>",) + tuple(names), values,
                       live, "for")
    return out[1:]
