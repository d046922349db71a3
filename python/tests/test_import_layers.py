"""The package's import layering (docs/architecture.md): each module imports
only its own layer and the layers below it, the module graph has no cycle,
no package module is imported inside a function (the old way of hiding a
cycle), and no module assigns into another module's globals.

The check reads the sources with ast, so it sees imports inside functions,
which a fresh interpreter would only meet when they run."""

import ast
import os
import subprocess
import sys

import pytest

import msmlir

PACKAGE = os.path.dirname(msmlir.__file__)
SOURCE = os.path.join(os.path.dirname(__file__), "..", "msmlir")

# Lowest first. A module's layer is that of the longest prefix listed.
LAYERS = [
    ("core", ["dtype", "_runtime", "_trace", "_tensor_repr", "_graph",
              "_tensor", "_random",
              "_parallel_context", "runtime", "_initializers",
              "_checkparam"]),
    ("communication and data", ["communication", "dataset"]),
    ("ops", ["ops"]),
    # ops.composite's GradOperation differentiates (_autograd), so it sits
    # above ops; `common` and `context` are facades over the layers below.
    ("transforms", ["_mutable", "_syntax", "_control_flow", "_autograph",
                    "_fallback", "_jit", "_autograd", "_context",
                    "ops.composite", "context", "common",
                    "_functional_transforms"]),
    ("nn", ["nn"]),
    ("train", ["train", "_toplevel", "profiler"]),
    ("package", [""]),
]

# Compiled modules of the package: below every layer.
NATIVE = {"_msmlir"}


def layer_of(module):
    best = None
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if module == prefix or (prefix and module.startswith(prefix + ".")):
                if best is None or len(prefix) > best[1]:
                    best = (index, len(prefix))
    if best is None:
        raise AssertionError(f"module {module!r} is in no layer of "
                             "test_import_layers.LAYERS: add it")
    return best[0]


def _module_name(path, root):
    rel = os.path.relpath(path, root)[:-3].replace(os.sep, ".")
    if rel == "__init__":
        return ""
    return rel[:-len(".__init__")] if rel.endswith(".__init__") else rel


def _modules(root):
    found = {}
    for dirpath, _, files in os.walk(root):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(dirpath, f)
                found[_module_name(path, root)] = path
    return found


class _Imports(ast.NodeVisitor):
    """Package-internal imports of one module: (target, line, in_function),
    and the local names bound to package modules."""

    def __init__(self, name, is_package, modules):
        self.here = (name.split(".") if name else []) if is_package else \
            name.split(".")[:-1]
        self.modules = modules
        self.found = []
        self.module_names = set()
        self.depth = 0

    def _base(self, level, module):
        base = self.here[:len(self.here) - (level - 1)] if level > 1 \
            else list(self.here)
        return base + (module.split(".") if module else [])

    def visit_FunctionDef(self, node):
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ImportFrom(self, node):
        if node.level:
            target = self._base(node.level, node.module)
        elif node.module and node.module.split(".")[0] == "msmlir":
            target = node.module.split(".")[1:]
        else:
            return
        parent = ".".join(target)
        for alias in node.names:
            sub = ".".join(target + [alias.name])
            if sub in NATIVE:
                continue
            if sub in self.modules:
                self.found.append((sub, node.lineno, self.depth > 0))
                self.module_names.add(alias.asname or alias.name)
            elif parent in self.modules:
                self.found.append((parent, node.lineno, self.depth > 0))

    def visit_Import(self, node):
        for alias in node.names:
            parts = alias.name.split(".")
            if parts[0] == "msmlir" and ".".join(parts[1:]) in self.modules:
                self.found.append((".".join(parts[1:]), node.lineno,
                                   self.depth > 0))
                if alias.asname:
                    self.module_names.add(alias.asname)


def _assignments_into_modules(tree, module_names):
    """(line, text) of each `module.name = ...` or setattr(module, ...)."""
    bad = []
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target]
        for t in targets:
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) \
                    and t.value.id in module_names:
                bad.append((node.lineno, ast.unparse(t)))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "setattr" and node.args and \
                isinstance(node.args[0], ast.Name) and \
                node.args[0].id in module_names:
            bad.append((node.lineno, ast.unparse(node)))
    return bad


def analyse(root):
    """(graph, problems): module -> imported modules, and every broken
    rule as a line of text."""
    modules = _modules(root)
    graph, problems = {}, []
    for name, path in sorted(modules.items()):
        tree = ast.parse(open(path).read(), path)
        visitor = _Imports(name, path.endswith("__init__.py"), modules)
        visitor.visit(tree)
        rel = os.path.relpath(path, root)
        graph[name] = {t for t, _, _ in visitor.found if t != name}
        mine = layer_of(name)
        for target, line, in_function in visitor.found:
            if target == name:
                continue
            if in_function:
                problems.append(f"{rel}:{line}: imports {target or 'msmlir'}"
                                " inside a function")
            if layer_of(target) > mine:
                problems.append(
                    f"{rel}:{line}: {name or 'msmlir'} "
                    f"({LAYERS[mine][0]}) imports {target} "
                    f"({LAYERS[layer_of(target)][0]}), a layer above it")
        for line, text in _assignments_into_modules(tree,
                                                     visitor.module_names):
            problems.append(f"{rel}:{line}: assigns into another module: "
                            f"{text}")
    problems += [f"import cycle: {' -> '.join(c)}" for c in _cycles(graph)]
    return graph, problems


def _cycles(graph):
    """One cycle per strongly connected component of more than one module."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component) + [sorted(component)[0]])

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_package_imports_one_way():
    _, problems = analyse(SOURCE)
    assert not problems, "\n".join(problems)


def _package(tmp_path, files):
    root = tmp_path / "pkg"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return str(root)


@pytest.mark.parametrize("files, expected", [
    # A cycle hidden in a function body.
    ({"__init__.py": "", "_tensor.py": "def f():\n    from . import ops\n",
      "ops/__init__.py": "from .. import _tensor\n"},
     ["inside a function", "a layer above it", "import cycle"]),
    # An upward import at module level.
    ({"__init__.py": "", "dtype.py": "from . import nn\n",
      "nn/__init__.py": ""}, ["a layer above it"]),
    # Filling in another module's global.
    ({"__init__.py": "", "_tensor.py": "ops = None\n",
      "ops/__init__.py": "from .. import _tensor\n_tensor.ops = 1\n"},
     ["assigns into another module"]),
    ({"__init__.py": "", "_tensor.py": "",
      "ops/__init__.py": "from .. import _tensor\nsetattr(_tensor, 'x', 1)\n"},
     ["assigns into another module"]),
])
def test_the_check_finds_each_kind_of_problem(tmp_path, files, expected):
    """The checker itself, on small packages that break one rule each."""
    _, problems = analyse(_package(tmp_path, files))
    text = "\n".join(problems)
    for phrase in expected:
        assert phrase in text, text


def test_every_module_has_a_layer():
    for name in _modules(SOURCE):
        layer_of(name)


def test_tensor_methods_work_in_a_fresh_interpreter():
    """Importing the package installs the Tensor methods that are ops."""
    code = ("import msmlir\n"
            "x = msmlir.Tensor([[1.0, 2.0], [3.0, 4.0]])\n"
            "x[0, 1] = 5.0\n"
            "assert x.reshape(4)[1].item() == 5.0 and x.sum().item() == 13.0\n"
            "assert (x > 2).astype(msmlir.int32).sum().item() == 3\n"
            "p = msmlir.Parameter(x, 'p')\n"
            "assert p.T.shape == (2, 2) and hash(p) == id(p)\n")
    env = dict(os.environ, PYTHONPATH=os.path.dirname(PACKAGE))
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
