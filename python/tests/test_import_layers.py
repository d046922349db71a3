"""The package's import layering: _tensor.py (Tensor, Parameter, op
dispatch) is below ops.py and _indexing.py. Those import it; it imports
neither, not even inside a function, so there is no _tensor <-> ops cycle.
Tensor methods reach the upper layers through names those modules fill in
when they load (_tensor.ops, _tensor._indexing).

The check reads the sources (ast), so it sees imports inside functions,
which a fresh interpreter would only meet when they run."""

import ast
import os
import subprocess
import sys

import msmlir

PACKAGE = os.path.dirname(msmlir.__file__)
SOURCE = os.path.join(os.path.dirname(__file__), "..", "msmlir")


def _module_name(path, root):
    rel = os.path.relpath(path, root)[:-3].replace(os.sep, ".")
    return rel[:-len(".__init__")] if rel.endswith(".__init__") else rel


def _imports(path, name, is_package):
    """The package-internal modules `path` imports, anywhere in it."""
    tree = ast.parse(open(path).read(), path)
    here = name.split(".") if is_package else name.split(".")[:-1]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = here[:len(here) - (node.level - 1)] if node.level > 1 \
                else list(here)
            target = base + (node.module.split(".") if node.module else [])
            prefix = ".".join(target)
            if node.module:
                found.add(prefix)
            for alias in node.names:
                found.add(".".join(target + [alias.name]))
    return found


def _graph(root):
    modules = {}
    for dirpath, _, files in os.walk(root):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(dirpath, f)
                modules[_module_name(path, root)] = path
    graph = {}
    for name, path in modules.items():
        deps = _imports(path, name, path.endswith("__init__.py"))
        graph[name] = {d for d in deps if d in modules and d != name}
    return graph


def _reachable(graph, start):
    seen, stack = set(), [start]
    while stack:
        for dep in graph[stack.pop()]:
            if dep not in seen:
                seen.add(dep)
                stack.append(dep)
    return seen


def test_tensor_imports_no_module_that_imports_it():
    graph = _graph(SOURCE)
    below = _reachable(graph, "_tensor")
    assert "ops" not in below and "_indexing" not in below, below
    cycles = sorted(m for m in below if "_tensor" in _reachable(graph, m))
    assert not cycles, f"_tensor.py imports {cycles}, which import it back"
    # ops and _indexing sit above _tensor.
    assert "_tensor" in graph["ops"] and "_tensor" in graph["_indexing"]


def test_the_check_sees_function_level_imports(tmp_path):
    """The checker itself: a cycle hidden in a function body is found."""
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "_tensor.py").write_text(
        "def f():\n    from . import ops\n    return ops\n")
    (tmp_path / "ops.py").write_text("from ._tensor import f\n")
    (tmp_path / "_indexing.py").write_text("from . import _tensor\n")
    graph = _graph(str(tmp_path))
    assert "ops" in _reachable(graph, "_tensor")


def test_layers_wired_after_import():
    """In a fresh interpreter, importing the package fills in the upper
    layers, and Tensor methods that use them work."""
    code = ("import msmlir, msmlir._tensor as t, msmlir.ops as o, "
            "msmlir._indexing as i\n"
            "assert t.ops is o and t._indexing is i\n"
            "x = msmlir.Tensor([[1.0, 2.0], [3.0, 4.0]])\n"
            "x[0, 1] = 5.0\n"
            "assert x.reshape(4)[1].item() == 5.0 and x.sum().item() == 13.0\n")
    env = dict(os.environ, PYTHONPATH=os.path.dirname(PACKAGE))
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
