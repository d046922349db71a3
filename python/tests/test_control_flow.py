"""Tensor-dependent control flow compiled into the graph (scf.if/scf.while).

An OpInfo-style table of control-flow forms. Each form runs on inputs that
take its different paths:
- as plain Python on real tensors (PyNative, the original function): the
  reference every other run must match bit for bit;
- converted (msmlir._autograph) in PyNative, where the helpers evaluate the
  real conditions: Python's semantics exactly;
- jitted at every syntax level and every jit_level, compiled once for all
  the inputs (the branches differ per call, the graph does not);
- and, for the values, against numpy.
"""

import inspect
import os

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, nn, ops
from msmlir._autograph import convert

from conftest import assert_bitwise


def f32(*values):
    return Tensor(np.array(values, np.float32))


def i32(value):
    return Tensor(np.array(value, np.int32))


# -- the forms -------------------------------------------------------------------

def cf_if(x):
    if x.sum() > 0:
        y = x * 2.0
    else:
        y = x - 1.0
    return y


def np_if(x):
    return x * 2.0 if x.sum() > 0 else x - 1.0


def cf_elif(x):
    s = x.sum()
    if s > 1:
        y = x * 3.0
    elif s < -1:
        y = x + 10.0
    else:
        y = -x
    return y


def np_elif(x):
    s = x.sum()
    return x * 3.0 if s > 1 else (x + 10.0 if s < -1 else -x)


def cf_nested(x):
    y = x
    if x[0] > 0:
        if x[1] > 0:
            y = y + 1.0
        else:
            y = y - 1.0
        y = y * 2.0
    return y


def np_nested(x):
    y = x
    if x[0] > 0:
        y = (y + 1.0 if x[1] > 0 else y - 1.0) * 2.0
    return y


def cf_while(x, n):
    i = 0
    while i < n:
        x = x * 1.5 + 0.25
        i = i + 1
    return x


def np_while(x, n):
    for _ in range(int(n)):
        x = np.float32(1.5) * x + np.float32(0.25)
    return x


def cf_while_value(x):
    # The condition reads the loop-carried tensor itself (x tends to 6).
    while x.sum() < 10.0:
        x = x * 0.5 + 3.0
    return x


def np_while_value(x):
    while x.sum() < 10.0:
        x = x * np.float32(0.5) + np.float32(3.0)
    return x


def cf_for_range(x, n):
    s = x
    for i in range(n):
        s = s * 0.5 + i
    return s


def np_for_range(x, n):
    s = x
    for i in range(int(n)):
        s = s * np.float32(0.5) + np.float32(i)
    return s


def cf_for_range2(x, n):
    s = x
    for i in range(1, n, 2):
        s = s - i
    return s


def np_for_range2(x, n):
    s = x
    for i in range(1, int(n), 2):
        s = s - np.float32(i)
    return s


def cf_bool_ops(x):
    if x[0] > 0 and not x[1] > 0 or x.sum() > 5:
        y = x + 1.0
    else:
        y = x * 0.0
    return y


def np_bool_ops(x):
    return x + 1.0 if (x[0] > 0 and not x[1] > 0) or x.sum() > 5 else x * 0.0


def cf_ifexp(x):
    return x * 2.0 if x.max() > 0.5 else x / 2.0


def np_ifexp(x):
    return x * 2.0 if x.max() > 0.5 else x / 2.0


def cf_return(x):
    y = x * 2.0
    if y.sum() > 0:
        return y + 1.0
    return y - 1.0


def np_return(x):
    y = x * 2.0
    return y + 1.0 if y.sum() > 0 else y - 1.0


def cf_python_if(x, flag=True):
    # A Python condition folds at capture: no scf.if.
    if flag and x.shape[0] == 2:
        return x + 1.0
    return x


def np_python_if(x, flag=True):
    return x + 1.0 if flag and x.shape[0] == 2 else x


def cf_python_loop_break(x):
    # Python-valued loops unroll (break and all).
    for k in range(10):
        if k == 3:
            break
        x = x + float(k)
    return x


def np_python_loop_break(x):
    return x + np.float32(3.0)


def cf_while_break(x):
    # x * x + 0.5 > x: the loop ends.
    while x.sum() < 100.0:
        x = x * x + 0.5
        if x[0] > 3.0:
            break
        x = x + 0.25
    return x


def np_while_break(x):
    while x.sum() < 100.0:
        x = x * x + np.float32(0.5)
        if x[0] > 3.0:
            break
        x = x + np.float32(0.25)
    return x


def cf_for_continue(x, n):
    s = x
    for i in range(n):
        if (s * i).sum() > 4.0:
            continue
        s = s + 1.0
    return s


def np_for_continue(x, n):
    s = x
    for i in range(int(n)):
        if (s * np.float32(i)).sum() > 4.0:
            continue
        s = s + np.float32(1.0)
    return s


def cf_for_break_python_bound(x):
    # A Python-bounded loop whose break depends on a tensor: the iterations
    # after the first tensor break flag are the graph's loop.
    for k in range(6):
        if x.sum() > 8.0:
            break
        x = x * 2.0 + k
    return x


def np_for_break_python_bound(x):
    for k in range(6):
        if x.sum() > 8.0:
            break
        x = x * np.float32(2.0) + np.float32(k)
    return x


POINTS = [f32(1.0, 2.0), f32(-3.0, -4.0), f32(0.5, -0.25), f32(-0.5, 0.75)]
COUNTS = [i32(0), i32(1), i32(4)]

FORMS = {
    "if": (cf_if, np_if, [(p,) for p in POINTS], "scf.if"),
    "if_elif_else": (cf_elif, np_elif, [(p,) for p in POINTS], "scf.if"),
    "nested_if": (cf_nested, np_nested, [(p,) for p in POINTS], "scf.if"),
    "while": (cf_while, np_while,
              [(POINTS[0], n) for n in COUNTS], "scf.while"),
    "while_on_value": (cf_while_value, np_while_value,
                       [(p,) for p in POINTS], "scf.while"),
    "for_range": (cf_for_range, np_for_range,
                  [(POINTS[2], n) for n in COUNTS], "scf.while"),
    "for_range_start_step": (cf_for_range2, np_for_range2,
                             [(POINTS[3], i32(n)) for n in (0, 2, 7)],
                             "scf.while"),
    "and_or_not": (cf_bool_ops, np_bool_ops,
                   [(p,) for p in POINTS + [f32(3.0, 4.0)]], "scf.if"),
    "conditional_expression": (cf_ifexp, np_ifexp, [(p,) for p in POINTS],
                               "scf.if"),
    "return_in_if": (cf_return, np_return, [(p,) for p in POINTS],
                     "scf.if"),
    "while_break": (cf_while_break, np_while_break,
                    [(p,) for p in POINTS + [f32(0.1, 0.1)]], "scf.while"),
    "for_range_continue": (cf_for_continue, np_for_continue,
                           [(POINTS[3], n) for n in COUNTS] +
                           [(f32(1.0, 1.0), i32(5))], "scf.while"),
    "for_break_python_bound": (cf_for_break_python_bound,
                               np_for_break_python_bound,
                               [(p,) for p in POINTS], "scf.while"),
    "python_if_folds": (cf_python_if, np_python_if,
                        [(p,) for p in POINTS], None),
    "python_loop_break": (cf_python_loop_break, np_python_loop_break,
                          [(p,) for p in POINTS], None),
}

LEVELS = ["O0", "O1", "O2"]
SYNTAX = ["STRICT", "COMPATIBLE", "LAX"]


def _numpy(args):
    return [a.asnumpy() if isinstance(a, Tensor) else a for a in args]


@pytest.mark.parametrize("form", sorted(FORMS))
def test_pynative_converted_matches_python_and_numpy(form):
    fn, ref, inputs, _ = FORMS[form]
    converted = convert(fn)
    for args in inputs:
        expected = fn(*args).asnumpy()
        assert_bitwise(converted(*args).asnumpy(), expected)
        np.testing.assert_allclose(expected, ref(*_numpy(args)),
                                   rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("syntax", SYNTAX)
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("form", sorted(FORMS))
def test_graph_matches_python_bitwise(form, level, syntax):
    fn, ref, inputs, op = FORMS[form]
    jitted = ms.jit(fn, jit_config=ms.JitConfig(jit_level=level,
                                                jit_syntax_level=syntax))
    for args in inputs:
        expected = fn(*args).asnumpy()
        assert_bitwise(jitted(*args).asnumpy(), expected)
    # One compile serves every path; the control flow is in the graph.
    assert jitted.compile_count == 1
    assert jitted.fallback_count == 0
    source, = jitted.graphs()
    if op is None:
        assert "scf." not in source
    else:
        assert op in source


@pytest.mark.parametrize("level", LEVELS)
def test_graph_mode_cell_with_branches_compiles_once(level):
    class Gate(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(3, 3)

        def construct(self, x):
            y = self.dense(x)
            if x.sum() > 0:
                y = ops.relu(y)
            else:
                y = y * 0.5
            return y

    net = Gate()
    xs = [Tensor(np.full((2, 3), v, np.float32)) for v in (1.0, -1.0, 2.0)]
    expected = [net(x).asnumpy() for x in xs]
    net.set_jit_config(ms.JitConfig(jit_level=level))
    ms.set_context(mode=ms.GRAPH_MODE)
    outs = [net(x).asnumpy() for x in xs]
    ms.set_context(mode=ms.PYNATIVE_MODE)
    for out, exp in zip(outs, expected):
        assert_bitwise(out, exp)
    # The two branches were taken on different calls: one graph.
    assert net.compile_count == 1


def test_print_in_construct_runs_once_per_call(capsys):
    calls = []

    class Printer(nn.Cell):
        def construct(self, x):
            print("construct")
            calls.append(1)
            if x.sum() > 0:
                x = x + 1.0
            return x

    ms.set_context(mode=ms.GRAPH_MODE)
    net = Printer()
    net(f32(1.0, 2.0))
    # Captured once (no PyNative rerun of the whole call, as LAX did).
    assert capsys.readouterr().out.count("construct") == 1
    assert len(calls) == 1
    net(f32(-1.0, -2.0))
    # A compiled call runs the graph only.
    assert len(calls) == 1


def _line_of(fn, text):
    lines, start = inspect.getsourcelines(fn)
    return start + [i for i, l in enumerate(lines) if text in l][0]


def one_branch(x):
    if x.sum() > 0:
        y = x + 1.0
    return y


def mismatched(x):
    if x.sum() > 0:
        y = x
    else:
        y = x.astype(ms.int32)
    return y


def tensor_return_in_loop(x):
    while x.sum() < 10.0:
        x = x * 2.0
        if x[0] > 3.0:
            return x
    return x


def leak(x):
    kept = []
    if x.sum() > 0:
        kept.append(x * 2.0)
        y = x
    else:
        y = -x
    return y + kept[0]


def non_scalar_condition(x):
    if x > 0:
        x = x + 1.0
    return x


@pytest.mark.parametrize("fn, text, message", [
    (one_branch, "if x.sum() > 0", "assigns `y` only in the true branch"),
    (mismatched, "if x.sum() > 0", "same shape and dtype"),
    (non_scalar_condition, "if x > 0", "single value"),
    (leak, "return y + kept[0]", "outside of it"),
])
@pytest.mark.parametrize("syntax", SYNTAX)
def test_errors_name_the_statement(fn, text, message, syntax):
    _check_error(fn, text, message, syntax)


@pytest.mark.parametrize("syntax", ["STRICT", "COMPATIBLE"])
def test_return_in_a_tensor_loop_is_an_error(syntax):
    # A return inside a tensor-conditioned loop is not converted.
    _check_error(tensor_return_in_loop, "while x.sum() < 10.0", "`return`",
                 syntax)


def test_return_in_a_tensor_loop_falls_back_under_lax():
    jitted = ms.jit(tensor_return_in_loop,
                    jit_config=ms.JitConfig(jit_syntax_level="LAX"))
    with pytest.warns(ms.GraphFallbackWarning, match="while x.sum"):
        out = jitted(f32(1.0, 2.0))
    assert_bitwise(out.asnumpy(),
                   tensor_return_in_loop(f32(1.0, 2.0)).asnumpy())


def _check_error(fn, text, message, syntax):
    jitted = ms.jit(fn, jit_config=ms.JitConfig(jit_syntax_level=syntax))
    with pytest.raises(ms.GraphSyntaxError) as info:
        jitted(f32(1.0, 2.0))
    text_msg = str(info.value)
    assert f"{os.path.abspath(__file__)}:{_line_of(fn, text)}" in text_msg
    assert message in text_msg


def test_ops_in_branches_keep_their_lines():
    jitted = ms.jit(cf_elif)
    jitted(POINTS[0])
    source, = jitted.graphs()
    line = _line_of(cf_elif, "y = x + 10.0")
    assert '"ms.add"' in source
    assert f'{os.path.basename(__file__)}":{line}:0' in source


def _straight(x):
    y = x * 2.0
    return y + x


def _negated(x):
    y = not x
    return y


def _inner_branch(x):
    def pick(v):
        return v if v > 0 else -v
    return pick(x)


def _constant_branch(x):
    if True:  # compiles to no jump at all
        return x + 1.0


@pytest.mark.parametrize("fn, parsed", [
    (_straight, False), (cf_if, True), (cf_while, True), (cf_for_range, True),
    (cf_ifexp, True), (cf_bool_ops, True), (_negated, True),
    (_inner_branch, True), (_constant_branch, False)])
def test_only_functions_that_may_branch_are_parsed(fn, parsed, monkeypatch):
    # Reading and parsing source was most of a small Cell's capture time;
    # a function whose bytecode has no jump and no `not` has nothing to
    # convert and is captured as it is, unread.
    from msmlir import _autograph
    reads = []
    original = _autograph.inspect.getsourcelines
    monkeypatch.setattr(_autograph.inspect, "getsourcelines",
                        lambda f: reads.append(f) or original(f))
    monkeypatch.setattr(_autograph, "_CACHE", type(_autograph._CACHE)())
    converted = convert(fn)
    assert bool(reads) == parsed
    if not parsed:
        assert converted is fn


def test_a_constant_branch_captured_unconverted_runs_as_python():
    jitted = ms.jit(_constant_branch)
    assert_bitwise(jitted(f32(1.0, 2.0)).asnumpy(),
                   _constant_branch(f32(1.0, 2.0)).asnumpy())
