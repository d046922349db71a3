#!/usr/bin/env python3
"""MindSpore API coverage of msmlir: checks every name of
docs/api_names/mindspore-2.3.txt against the importable msmlir package
(``mindspore.nn.Dense`` -> ``msmlir.nn.Dense``) and writes the table into
docs/python.md between the api-coverage markers.

    PYTHONPATH=build/python /usr/bin/python3 scripts/api_coverage.py          # rewrite the table
    PYTHONPATH=build/python /usr/bin/python3 scripts/api_coverage.py --check  # exit 1 if stale

python/tests/test_api_coverage.py runs the check."""

import argparse
import importlib
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAMES = os.path.join(ROOT, "docs", "api_names", "mindspore-2.3.txt")
DOC = os.path.join(ROOT, "docs", "python.md")
BEGIN = "<!-- api-coverage:begin (scripts/api_coverage.py writes this) -->"
END = "<!-- api-coverage:end -->"

# The names of issue 56's model-zoo census (files that use each), with the
# way scripts spell them.
TOP_NAMES = [
    ("mindspore.context", 1804), ("mindspore.common.dtype", 967),
    ("mindspore.train.Model", 688), ("mindspore.Model", 688),
    ("mindspore.train.callback.CheckpointConfig", 478),
    ("mindspore.train.callback.ModelCheckpoint", 478),
    ("mindspore.train.callback.TimeMonitor", 415),
    ("mindspore.common.initializer.initializer", 350),
    ("mindspore.train.callback.LossMonitor", 311),
    ("mindspore.common.initializer.TruncatedNormal", 121),
    ("mindspore.common.initializer.Normal", 101),
    ("mindspore.common.initializer.XavierUniform", 75),
    ("mindspore.common.initializer.HeUniform", 53),
]


def resolve(name):
    """The msmlir object a MindSpore name stands for, or None."""
    parts = ["msmlir"] + name.split(".")[1:]
    for split in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for attr in parts[split:]:
            obj = getattr(obj, attr, None)
            if obj is None:
                return None
        return obj
    return None


def read_names():
    with open(NAMES) as f:
        return [line.strip() for line in f
                if line.strip() and not line.startswith("#")]


def module_of(name):
    return name.rsplit(".", 1)[0]


def table():
    names = read_names()
    present = {n for n in names if resolve(n) is not None}
    modules = sorted({module_of(n) for n in names})
    rows = ["| module | present | names | share |", "|---|---:|---:|---:|"]
    for mod in modules:
        mine = [n for n in names if module_of(n) == mod]
        have = sum(n in present for n in mine)
        rows.append(f"| `{mod}` | {have} | {len(mine)} | "
                    f"{100.0 * have / len(mine):.0f}% |")
    rows.append(f"| **all** | **{len(present)}** | **{len(names)}** | "
                f"**{100.0 * len(present) / len(names):.1f}%** |")
    top = ["", "| most used in the model zoo (files) | present |",
           "|---|---|"]
    for name, files in TOP_NAMES:
        mark = "yes" if resolve(name) is not None else "**no**"
        top.append(f"| `{name}` ({files}) | {mark} |")
    return "\n".join(rows + top)


def rewrite(text, body):
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{DOC}: the api-coverage markers are missing")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{body}\n{END}{tail}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if docs/python.md's table is stale")
    args = parser.parse_args()
    with open(DOC) as f:
        text = f.read()
    new = rewrite(text, table())
    if args.check:
        if new != text:
            print("docs/python.md: the API coverage table is stale; run "
                  "scripts/api_coverage.py", file=sys.stderr)
            return 1
        return 0
    if new != text:
        with open(DOC, "w") as f:
            f.write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
