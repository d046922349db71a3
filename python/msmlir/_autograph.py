"""AutoGraph-style conversion of a jitted function's control flow.

Graph capture runs the function on symbolic tensors (see _graph.py), so a
Python ``if`` on a tensor cannot pick a branch. Before capture, the
function's source is parsed and its control flow rewritten into calls of
the runtime helpers in _control_flow.py, with each branch or loop body a
nested function of the variables it assigns:

    if x.sum() > 0:              def _ms_if_true_1(y):
        y = x * 2                    y = x * 2
    else:                  ==>       return (y,)
        y = -x                   def _ms_if_false_1(y):
                                     y = -x
                                     return (y,)
                                 (y,) = _ms_cf.if_stmt(x.sum() > 0,
                                     _ms_if_true_1, _ms_if_false_1, ('y',),
                                     _ms_cf.gather(locals(), ('y',)), ...)

A helper whose condition is a Python value (or a concrete tensor) runs the
chosen branch, exactly as Python would; on a symbolic tensor it captures
both branches into the regions of an ``scf.if`` / ``scf.while``. Converted
are ``if``/``elif``/``else``, ``while``, ``for ... in range(...)``,
conditional expressions and ``and``/``or``/``not``. Every generated node
keeps the line of the statement it comes from, so ops and errors keep their
file:line. The converted function is cached per function object; a
function whose source is unavailable, or that uses what the conversion does
not handle (``super()`` without arguments, generators, ``global``), is
captured as it is.
"""

import ast
import copy
import dis
import inspect
import textwrap
import types
import weakref

from . import _control_flow

_CACHE = weakref.WeakKeyDictionary()  # function -> converted (or itself)
_CF = "_ms_cf"
_RETURN = "_ms_return"  # the result of converted `return`s
# Generated functions: not variables of the converted code.
_GENERATED = ("_ms_if_", "_ms_while_", "_ms_for_", _CF)


def convert(fn):
    """`fn` with its control flow converted (a bound method stays bound)."""
    if isinstance(fn, types.MethodType):
        func = convert_function(fn.__func__)
        if func is fn.__func__:
            return fn
        return types.MethodType(func, fn.__self__)
    if isinstance(fn, types.FunctionType):
        return convert_function(fn)
    return fn


def convert_function(func):
    try:
        return _CACHE[func]
    except KeyError:
        pass
    except TypeError:
        return func
    try:
        converted = _convert(func)
    except (OSError, TypeError, SyntaxError, _Unsupported):
        converted = func
    _CACHE[func] = converted
    return converted


class _Unsupported(Exception):
    """The function uses something the conversion leaves alone."""


# Opcodes any converted construct compiles to: a branch or loop jumps, and
# `not` outside a condition is UNARY_NOT.
_CONTROL_OPCODES = frozenset(dis.hasjrel + dis.hasjabs +
                             [dis.opmap["UNARY_NOT"]])


def _may_branch(code):
    """Whether `code` (or a function nested in it) has a jump or a `not`.

    Without one its source has nothing to convert, and reading and parsing
    that source was most of a small Cell's capture time."""
    return (any(op in _CONTROL_OPCODES for op in code.co_code[::2]) or
            any(_may_branch(c) for c in code.co_consts
                if isinstance(c, types.CodeType)))


def _convert(func):
    if func.__name__ == "<lambda>" or not _may_branch(func.__code__):
        raise _Unsupported()
    lines, first = inspect.getsourcelines(func)
    tree = ast.parse(textwrap.dedent("".join(lines)))
    node = tree.body[0]
    if not isinstance(node, ast.FunctionDef):
        raise _Unsupported()
    _check_supported(node)
    if not any(isinstance(n, (ast.If, ast.While, ast.For, ast.IfExp,
                              ast.BoolOp)) or
               (isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not))
               for n in ast.walk(node)):
        return func
    ast.increment_lineno(tree, first - 1)
    node.decorator_list = []
    node = _Converter(node).convert()
    # A factory whose parameters are the helpers and the original closure's
    # variables; the function keeps the module's globals.
    freevars = func.__code__.co_freevars
    factory = ast.FunctionDef(
        name="_ms_factory",
        args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=_CF)] + [
            ast.arg(arg=name) for name in freevars],
            kwonlyargs=[], kw_defaults=[], defaults=[]),
        body=[node, ast.Return(value=ast.Name(id=node.name, ctx=ast.Load()))],
        decorator_list=[], returns=None, type_params=[])
    ast.copy_location(factory, node)
    module = ast.Module(body=[factory], type_ignores=[])
    ast.fix_missing_locations(module)
    code = compile(module, func.__code__.co_filename, "exec")
    namespace = {}
    exec(code, func.__globals__, namespace)
    cells = [c.cell_contents for c in (func.__closure__ or ())]
    new = namespace["_ms_factory"](_control_flow, *cells)
    new.__defaults__ = func.__defaults__
    new.__kwdefaults__ = func.__kwdefaults__
    new.__qualname__ = func.__qualname__
    new.__module__ = func.__module__
    new.__doc__ = func.__doc__
    new.__wrapped__ = func
    return new


def _check_supported(node):
    for n in ast.walk(node):
        if isinstance(n, (ast.Global, ast.Nonlocal, ast.Yield,
                          ast.YieldFrom, ast.Await, ast.NamedExpr,
                          ast.AsyncFunctionDef)):
            raise _Unsupported()
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and
                n.func.id == "super" and not n.args):
            raise _Unsupported()


#===---------------------------------------------------------------------===#
# Name analysis
#===---------------------------------------------------------------------===#

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef,
           ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _walk_scope(nodes):
    """Nodes of `nodes` and their children, not entering nested scopes
    (a nested def's name counts, its body does not)."""
    stack = list(nodes)
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, _SCOPES):
            continue
        stack.extend(ast.iter_child_nodes(n))


def _assigned(stmts):
    """Names the statements bind in the current scope, in first-seen
    order (generated helper names left out)."""
    names = {}
    for n in _walk_scope(stmts):
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store,
                                                           ast.Del)):
            names.setdefault(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.ClassDef)):
            names.setdefault(n.name)
        elif isinstance(n, ast.alias):
            names.setdefault((n.asname or n.name).split(".")[0])
        elif isinstance(n, ast.ExceptHandler) and n.name:
            names.setdefault(n.name)
    return [n for n in names if not n.startswith(_GENERATED)]


def _loads(nodes):
    counts = {}
    for node in nodes:
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                counts[n.id] = counts.get(n.id, 0) + 1
    return counts


def _escapes(stmts):
    """Whether `stmts` leave their block other than by falling through: a
    `return` (not inside a nested function), or a `break`/`continue` that
    belongs to no loop inside them."""
    stack = [(n, False) for n in stmts]
    while stack:
        n, in_loop = stack.pop()
        if isinstance(n, ast.Return):
            return True
        if isinstance(n, (ast.Break, ast.Continue)) and not in_loop:
            return True
        if isinstance(n, _SCOPES):
            continue
        if isinstance(n, (ast.For, ast.While)):
            stack.extend((c, True) for c in n.body)
            stack.extend((c, in_loop) for c in n.orelse)
            continue
        stack.extend((c, in_loop) for c in ast.iter_child_nodes(n))
    return False


#===---------------------------------------------------------------------===#
# Returns inside `if`
#===---------------------------------------------------------------------===#
#
# `if c: return a` followed by more statements is folded into a statement
# whose every path ends in `return` (the statements after the `if` join the
# branches that fall through); the returns then become assignments to
# `_ms_return`, and the converted `if` is followed by `return _ms_return`.

def _returns(stmts):
    return sum(1 for n in _walk_scope(stmts) if isinstance(n, ast.Return))


def _terminates(stmts):
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, (ast.Return, ast.Raise)):
        return True
    return (isinstance(last, ast.If) and _terminates(last.body) and
            _terminates(last.orelse))


def _fold(stmts):
    for i, s in enumerate(stmts):
        if isinstance(s, ast.If) and _returns([s]):
            rest = stmts[i + 1:]
            if not _terminates(s.body):
                s.body = s.body + copy.deepcopy(rest)
            if not _terminates(s.orelse):
                s.orelse = s.orelse + copy.deepcopy(rest)
            s.body, s.orelse = _fold(s.body), _fold(s.orelse)
            return stmts[:i + 1]
    return stmts


def _fold_returns(func):
    body = func.body
    if not any(isinstance(s, ast.If) and _returns([s]) for s in body):
        return
    if not _terminates(body):
        end = ast.Return(value=None)
        _locate(end, body[-1])
        body = body + [end]
    func.body = _fold(body)


def _tail_returns(stmts):
    """The returns ending `stmts`' paths, or None when a path does not end
    in one (or a raise)."""
    if not stmts:
        return None
    last = stmts[-1]
    if isinstance(last, ast.Return):
        return [last]
    if isinstance(last, ast.Raise):
        return []
    if isinstance(last, ast.If):
        a, b = _tail_returns(last.body), _tail_returns(last.orelse)
        return None if a is None or b is None else a + b
    return None


def _returns_to_assignments(stmts):
    last = stmts[-1]
    if isinstance(last, ast.Return):
        value = last.value or ast.Constant(value=None)
        assign = ast.Assign(targets=[_name(_RETURN, store=True)],
                            value=value)
        _locate(assign, last)
        stmts[-1] = assign
    elif isinstance(last, ast.If):
        _returns_to_assignments(last.body)
        _returns_to_assignments(last.orelse)


#===---------------------------------------------------------------------===#
# break and continue
#===---------------------------------------------------------------------===#
#
# In a while / for-range loop, `break` and `continue` become flag variables:
# `_ms_break_N = True` (the loop condition checks it), `_ms_continue_N =
# True` (reset at the start of each iteration), and the statements after
# one that may set a flag run under `if not (flags):`. On Python values
# this is Python's control flow; on tensors the flags become bool tensors,
# carried by the scf.while, and the guards scf.if.

def _loop_exits(stmts):
    """(has break, has continue) that belong to the loop around `stmts`."""
    found = set()
    stack = list(stmts)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.Break, ast.Continue)):
            found.add(type(n))
        if isinstance(n, _SCOPES):
            continue
        if isinstance(n, (ast.For, ast.While)):
            stack.extend(n.orelse)
            continue
        stack.extend(ast.iter_child_nodes(n))
    return ast.Break in found, ast.Continue in found


def _set_flag(flag, origin):
    assign = ast.Assign(targets=[_name(flag, store=True)],
                        value=ast.Constant(value=True))
    _locate(assign, origin)
    return assign


def _python_only(node, kind):
    """`node` left as Python control flow (it has a break, return or else
    that a graph region cannot hold): a tensor condition is then an error
    that says what to change."""
    node.test = ast.copy_location(_call(
        "python_condition", node.test, ast.Constant(value=kind)), node.test)
    return node


def _not_flags(flags, origin):
    test = ast.UnaryOp(op=ast.Not(), operand=(
        _name(flags[0]) if len(flags) == 1 else
        ast.BoolOp(op=ast.Or(), values=[_name(f) for f in flags])))
    _locate(test, origin)
    return test


def _guard(stmts, brk, cont):
    """`stmts` with their break/continue set flags instead, and the
    statements after a flag may be set guarded by it."""
    flags = [f for f in (brk, cont) if f]
    out = []
    for i, s in enumerate(stmts):
        if isinstance(s, ast.Break):
            out.append(_set_flag(brk, s))
            return out
        if isinstance(s, ast.Continue):
            out.append(_set_flag(cont, s))
            return out
        if any(_loop_exits([s])):
            if isinstance(s, ast.If):
                s.body = _guard(s.body, brk, cont) or [ast.Pass()]
                s.orelse = _guard(s.orelse, brk, cont)
            elif isinstance(s, ast.With):
                s.body = _guard(s.body, brk, cont) or [ast.Pass()]
            else:
                raise _Unsupported()  # a try: left to Python
            out.append(s)
            rest = _guard(stmts[i + 1:], brk, cont)
            if rest:
                guard = ast.If(test=_not_flags(flags, stmts[i + 1]),
                               body=rest, orelse=[])
                _locate(guard, stmts[i + 1])
                out.append(guard)
            return out
        out.append(s)
    return out


#===---------------------------------------------------------------------===#
# The rewrite
#===---------------------------------------------------------------------===#

def _name(id, store=False):
    return ast.Name(id=id, ctx=ast.Store() if store else ast.Load())


def _str_tuple(names):
    return ast.Tuple(elts=[ast.Constant(value=n) for n in names],
                     ctx=ast.Load())


def _cf(attr):
    return ast.Attribute(value=_name(_CF), attr=attr, ctx=ast.Load())


def _call(attr, *args):
    return ast.Call(func=_cf(attr), args=list(args), keywords=[])


def _lambda(body):
    return ast.Lambda(args=ast.arguments(posonlyargs=[], args=[],
                                         kwonlyargs=[], kw_defaults=[],
                                         defaults=[]), body=body)


def _def(name, params, body, returns):
    """def name(*params): body; return (*returns,)"""
    body = list(body) + [ast.Return(value=ast.Tuple(
        elts=[_name(n) for n in returns], ctx=ast.Load()))]
    return ast.FunctionDef(
        name=name, args=ast.arguments(
            posonlyargs=[], args=[ast.arg(arg=p) for p in params],
            kwonlyargs=[], kw_defaults=[], defaults=[]),
        body=body, decorator_list=[], returns=None, type_params=[])


def _gather(names):
    """_ms_cf.gather(locals(), names): the variables' current values."""
    return _call("gather", ast.Call(func=_name("locals"), args=[],
                                    keywords=[]), _str_tuple(names))


def _assign_names(names, value):
    if not names:
        return ast.Expr(value=value)
    return ast.Assign(targets=[ast.Tuple(
        elts=[_name(n, store=True) for n in names], ctx=ast.Store())],
        value=value)


def _locate(node, origin):
    """Gives `node` and its generated children (those without a location)
    the first line of `origin`. Only its first line: Python reports a call
    of `_ms_cf.helper(...)` at its attribute's last line."""
    for n in ast.walk(node):
        if "lineno" in n._attributes and (n is node or
                                          not hasattr(n, "lineno")):
            n.lineno = n.end_lineno = origin.lineno
            n.col_offset = n.end_col_offset = origin.col_offset


class _Converter(ast.NodeTransformer):
    def __init__(self, func):
        self.func = func
        self.counter = 0
        self.total_loads = {}

    def convert(self):
        _fold_returns(self.func)
        self.total_loads = _loads(self.func.body)
        self.func.body = self._stmts(self.func.body)
        return self.func

    def _fresh(self, kind):
        self.counter += 1
        return f"_ms_{kind}_{self.counter}"

    def _live(self, node):
        """Names read outside `node` (conservatively: anywhere else in the
        function): a variable one branch leaves undefined must not be."""
        inside = _loads([node])
        return ast.Set(elts=[ast.Constant(value=n) for n, c in
                             sorted(self.total_loads.items())
                             if c > inside.get(n, 0)]) if any(
            c > inside.get(n, 0) for n, c in self.total_loads.items()) \
            else ast.Call(func=_name("frozenset"), args=[], keywords=[])

    def _stmts(self, stmts):
        out = []
        for s in stmts:
            r = self.visit(s)
            if isinstance(r, list):
                out.extend(r)
            elif r is not None:
                out.append(r)
        return out

    # -- statements ----------------------------------------------------------
    def visit_FunctionDef(self, node):
        # A nested def: its control flow is converted too.
        node.body = self._stmts(node.body)
        return node

    def visit_If(self, node):
        returns = _returns([node])
        if returns:
            tails = _tail_returns([node])
            if tails is not None and len(tails) == returns:
                # Every return ends a path: they become assignments.
                _returns_to_assignments([node])
                back = ast.Return(value=_name(_RETURN))
                _locate(back, node)
                converted = self.visit_If(node)
                if not isinstance(converted, list):
                    converted = [converted]
                return converted + [back]
        live = self._live(node)
        escapes = _escapes(node.body + node.orelse)
        self._visit_parts(node)
        if escapes:
            return _python_only(node, "if")
        names = _assigned(node.body + node.orelse)
        true_fn, false_fn = self._fresh("if_true"), self._fresh("if_false")
        stmts = [
            _def(true_fn, names, node.body, names),
            _def(false_fn, names, node.orelse or [ast.Pass()], names),
            _assign_names(names, _call(
                "if_stmt", node.test, _name(true_fn), _name(false_fn),
                _str_tuple(names), _gather(names), live)),
        ]
        return self._located(stmts, node)

    def _visit_parts(self, node):
        """Converts an if's or a while's condition, body and else."""
        node.test = self.visit(node.test)
        node.body = self._stmts(node.body)
        node.orelse = self._stmts(node.orelse)

    def _flag_exits(self, node):
        """Rewrites the loop's break/continue into flags (see above); the
        statements to put before the loop and the break flag (or None)."""
        if node.orelse or _returns(node.body):
            return [], None
        has_break, has_continue = _loop_exits(node.body)
        if not (has_break or has_continue):
            return [], None
        brk = self._fresh("break") if has_break else None
        cont = self._fresh("continue") if has_continue else None
        try:
            body = _guard(node.body, brk, cont)
        except _Unsupported:
            return [], None
        before = []
        if cont:
            reset = ast.Assign(targets=[_name(cont, store=True)],
                               value=ast.Constant(value=False))
            _locate(reset, node)
            body = [reset] + body
        if brk:
            init = ast.Assign(targets=[_name(brk, store=True)],
                              value=ast.Constant(value=False))
            _locate(init, node)
            before.append(init)
        node.body = body
        return before, brk

    def visit_While(self, node):
        live = self._live(node)
        before, brk = self._flag_exits(node)
        if brk:
            # Python does not evaluate the condition again after a break.
            node.test = ast.BoolOp(op=ast.And(), values=[
                _not_flags([brk], node), node.test])
            _locate(node.test, node)
        converted = self._visit_while(node, live)
        if not before:
            return converted
        return before + (converted if isinstance(converted, list)
                         else [converted])

    def _visit_while(self, node, live):
        escapes = node.orelse or _escapes(node.body)
        self._visit_parts(node)
        if escapes:
            return _python_only(node, "while")
        names = _assigned(node.body)
        cond_fn, body_fn = self._fresh("while_cond"), self._fresh(
            "while_body")
        cond = ast.FunctionDef(
            name=cond_fn, args=ast.arguments(
                posonlyargs=[], args=[ast.arg(arg=p) for p in names],
                kwonlyargs=[], kw_defaults=[], defaults=[]),
            body=[ast.Return(value=node.test)], decorator_list=[],
            returns=None, type_params=[])
        stmts = [
            cond,
            _def(body_fn, names, node.body, names),
            _assign_names(names, _call(
                "while_stmt", _name(cond_fn), _name(body_fn),
                _str_tuple(names), _gather(names), live)),
        ]
        return self._located(stmts, node)

    def visit_For(self, node):
        live = self._live(node)
        before, brk = [], None
        if self._is_range(node):
            before, brk = self._flag_exits(node)
        converted = self._visit_for(node, live, brk)
        if not before:
            return converted
        return before + (converted if isinstance(converted, list)
                         else [converted])

    @staticmethod
    def _is_range(node):
        return (isinstance(node.target, ast.Name) and
                isinstance(node.iter, ast.Call) and
                isinstance(node.iter.func, ast.Name) and
                node.iter.func.id == "range" and
                1 <= len(node.iter.args) <= 3 and
                not node.iter.keywords and
                not any(isinstance(a, ast.Starred)
                        for a in node.iter.args))

    def _visit_for(self, node, live, brk):
        is_range = self._is_range(node)
        escapes = node.orelse or _escapes(node.body)
        node.iter = self.visit(node.iter)
        node.body = self._stmts(node.body)
        node.orelse = self._stmts(node.orelse)
        if not is_range or escapes:
            # Loops over Python sequences unroll at capture.
            return node
        target = node.target.id
        names = [target] + [n for n in _assigned(node.body) if n != target]
        body_fn = self._fresh("for_body")
        stmts = [
            _def(body_fn, names, node.body, names),
            _assign_names(names, _call(
                "for_range", node.iter.func,
                ast.Tuple(elts=node.iter.args, ctx=ast.Load()),
                _name(body_fn), _str_tuple(names), _gather(names), live,
                ast.Constant(value=brk))),
        ]
        return self._located(stmts, node)

    def _located(self, stmts, origin):
        """Generated statements take the line of the statement they replace
        (their original children keep their own)."""
        for s in stmts:
            _locate(s, origin)
        return stmts

    # -- expressions ---------------------------------------------------------
    def visit_IfExp(self, node):
        self.generic_visit(node)
        call = _call("if_exp", node.test, _lambda(node.body),
                     _lambda(node.orelse))
        return self._located_expr(call, node)

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        kind = "and_" if isinstance(node.op, ast.And) else "or_"
        call = _call(kind, *[_lambda(v) for v in node.values])
        return self._located_expr(call, node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if not isinstance(node.op, ast.Not):
            return node
        return self._located_expr(_call("not_", node.operand), node)

    def _located_expr(self, expr, origin):
        _locate(expr, origin)
        return expr
