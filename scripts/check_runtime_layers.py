#!/usr/bin/env python3
"""Fails on an #include that goes back up the runtime's layers.

lib/Runtime and include/ms/Runtime are split by concern into the layers of
LAYERS below (lib/Runtime/CMakeLists.txt says what each holds). A file of a
layer may include its own layer's headers and those of the layers listed
for it, never one above; the layers without MLIR include no MLIR (nor the
compiler's ms/Dialect, ms/Conversion, ms/Codegen or ms/Pipelines headers).
Every file must be in a layer. The ctest `runtime-layers` runs it.

  scripts/check_runtime_layers.py [REPO]
"""
import os
import re
import sys

# layer: (the layers it may include, whether it may include MLIR)
LAYERS = {
    "Memory": ((), False),
    "Formats": (("Memory",), False),
    "Communication": (("Memory",), False),
    "Jit": (("Memory", "Communication"), True),
    "Execution": (("Memory", "Formats", "Communication", "Jit"), True),
}
ROOTS = ("lib/Runtime", "include/ms/Runtime")
COMPILER = re.compile(r"^(mlir|ms/(Dialect|Conversion|Codegen|Pipelines))/")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def layer_of(relative):
    """The layer of a path below a root, or None."""
    first = relative.split("/")[0]
    return first if first in LAYERS and "/" in relative else None


def included_layer(include, including_dir, repo):
    """The runtime layer `include` names, "" for none, None for a
    runtime header outside every layer."""
    if include.startswith("ms/Runtime/"):
        return layer_of(include[len("ms/Runtime/"):])
    # A private header next to the file, or reached with "../".
    path = os.path.normpath(os.path.join(including_dir, include))
    for root in ROOTS:
        base = os.path.join(repo, root)
        if path.startswith(base + os.sep) and os.path.exists(path):
            return layer_of(os.path.relpath(path, base))
    return ""


def check(repo):
    problems = []
    for root in ROOTS:
        base = os.path.join(repo, root)
        for directory, _, files in os.walk(base):
            for name in sorted(files):
                path = os.path.join(directory, name)
                relative = os.path.relpath(path, base)
                shown = os.path.join(root, relative)
                if name == "CMakeLists.txt":
                    continue
                layer = layer_of(relative)
                if layer is None:
                    problems.append(f"{shown}: in no layer (put it in one of "
                                    f"{', '.join(LAYERS)})")
                    continue
                allowed, mlir = LAYERS[layer]
                text = open(path, encoding="utf-8", errors="replace").read()
                for match in INCLUDE.finditer(text):
                    include = match.group(1)
                    line = text.count("\n", 0, match.start()) + 1
                    where = f"{shown}:{line}"
                    if not mlir and COMPILER.match(include):
                        problems.append(f"{where}: {layer} has no MLIR, but "
                                        f"includes {include}")
                        continue
                    target = included_layer(include, directory, repo)
                    if target is None:
                        problems.append(f"{where}: {include} is in no layer")
                    elif target and target != layer and target not in allowed:
                        problems.append(f"{where}: {layer} includes "
                                        f"{include} from {target}, which it "
                                        f"may not (it may include "
                                        f"{', '.join(allowed) or 'no layer'})")
    return problems


def main():
    repo = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..")
    problems = check(os.path.abspath(repo))
    for problem in problems:
        print(problem)
    print(f"{len(problems)} include(s) against the runtime's layers")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
