"""JIT Fallback (jit_syntax_level=LAX): one statement runs in Python.

A statement that needs a tensor's value while a function is captured
(``x.asnumpy()``, ``float(x)``, ``print(x)``, a boolean-mask read, ...) has
no value to read: the graph is still text. Under LAX the capture does not
give up on the whole call. Instead:

1. the graph captured so far (a *segment*) is compiled and run, with
   every symbolic tensor still alive among its results;
2. each live Tensor then holds an input of a new segment, whose value is
   known (Graph.carried), and the statement reads that value in Python;
3. capture goes on in the new segment: the rest of the function compiles
   too, taking those values as arguments.

The call's Python runs once (its side effects happen once). Later calls
with the same input types run the function again in the same way: each
segment's compiled code is kept by its text, so nothing is compiled again
unless a segment's graph differs. Inside a tensor-conditioned branch or
loop, or inside a function being differentiated, a segment cannot end (the
op is compiled as a whole): there it is an error naming the statement.

Which tensors are alive is found without knowing the user's variables: the
graph keeps weak references to the op results of the segment
(Graph.track), and the Tensors that still hold them are found with
gc.get_referrers (a millisecond or two, once per fallback statement).
"""

import gc
import warnings

from ._graph import Sym
from ._runtime import GraphFallbackWarning
from ._tensor import Tensor, _onew

__all__ = ["enable", "carried_inputs"]


def enable(graph, compiled, cfg, leaves, warn):
    """Lets `graph` (being captured by `compiled`; its inputs are the
    tensors `leaves`) run a statement in Python. `warn`: tell the user
    that the statement runs in Python (on the first call, not on each)."""
    graph.made = []
    graph.carried = {id(sym): leaf._t for sym, leaf in zip(graph.inputs,
                                                           leaves)}
    warned = set()
    start = [graph.op_count]  # ops captured when this segment began

    def fallback(where, statement, what):
        if warn and where not in warned:
            warned.add(where)
            _warn(compiled.name, where, statement, what)
        if graph.op_count == start[0] and not graph.assigns:
            return  # nothing ran since the last segment: values are known
        compiled.fallback_count += 1
        _run_segment(graph, compiled, cfg)
        start[0] = graph.op_count

    graph.fallback = fallback


def carried_inputs(graph):
    """The values of the last segment's inputs, as Tensors, in order."""
    values = []
    for sym in graph.inputs:
        t = _onew(Tensor)
        t._t = graph.carried[id(sym)]
        values.append(t)
    return values


def _warn(name, where, statement, what):
    filename, _, line = where.rpartition(":")
    warnings.warn_explicit(
        f"{where}: the statement{statement} {what}: graph capture of {name} "
        "runs it in Python between two compiled graphs (JIT Fallback, "
        "jit_syntax_level=LAX). Use jit_syntax_level='STRICT' to make this "
        "an error.", GraphFallbackWarning, filename,
        int(line) if line.isdigit() else 0)


def _live_tensors(graph):
    """[(Sym, [Tensors holding it])] for this segment's inputs and op
    results that some Tensor still holds."""
    syms = list(graph.inputs)
    syms += [s for s in (ref() for ref in graph.made) if s is not None]
    if not syms:
        return []
    wanted = {id(s) for s in syms}
    holders = {}
    for obj in gc.get_referrers(*syms):
        if isinstance(obj, Tensor):
            t = obj._t
            if t.__class__ is Sym and id(t) in wanted:
                holders.setdefault(id(t), []).append(obj)
    # In the order the values were made, so that the next segment's
    # arguments, and with them its text, are the same on every call.
    return [(s, holders[id(s)]) for s in syms if id(s) in holders]


def _run_segment(graph, compiled, cfg):
    """Runs the graph captured so far; every Tensor still holding one of its
    values then holds an input of the next segment, whose value is known
    (graph.carried). Parameters assigned so far get their new values."""
    held = _live_tensors(graph)
    known = graph.carried
    results = [sym for sym, _ in held if id(sym) not in known]
    assigned = list(graph.assigns.values())
    values = []
    if results or assigned:
        source = graph.source(results + [sym for _, sym in assigned])
        module = compiled.segment_module(source, cfg, graph.control_flow)
        args = [known[id(sym)] for sym in graph.inputs]
        args += [param._t for param, _ in graph.params]
        args += [before._t for _, _, before in graph.attributes]
        args += [host for host, _ in graph.captures]
        values = module.run(args)
    value_of = dict(known)
    value_of.update((id(sym), value) for sym, value in zip(results, values))
    for (param, _), value in zip(assigned, values[len(results):]):
        param._t = value
    graph.new_segment()
    for sym, tensors in held:
        value = value_of[id(sym)]
        carried = graph.add_input(sym.dtype, sym.shape)
        graph.carried[id(carried)] = value
        for tensor in tensors:
            tensor._t = carried
