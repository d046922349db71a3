#!/usr/bin/env python3
"""Lists C++ functions longer than a bound, by matching braces.

A function's length is the count of lines from the first line of its
signature to its closing brace. Comments, string and character literals are
blanked first, so braces inside them do not count; a lambda or a local
class counts toward the function around it. Functions are the brace blocks
at namespace, class or file scope whose heading has a parameter list and is
not a class, enum, namespace or initializer.

  scripts/function_lengths.py [--max N] [--top K] PATH...

With --max, exits 1 when any function is longer than N lines (the ctest
`function-lengths` runs it on the product code with --max 80).
"""
import argparse
import os
import re
import sys

SOURCE_SUFFIXES = (".cpp", ".cc", ".c", ".h", ".hpp", ".inc", ".def")
CONTROL = re.compile(r"^\s*(if|for|while|switch|catch|do|else)\b")
SCOPE = re.compile(r"\b(namespace|class|struct|union|enum)\b")


def blank_comments_and_literals(text):
    """`text` with comments and literals replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == 'R' and text.startswith('R"', i) and (
                i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = ")" + m.group(1) + '"'
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            # A digit separator (1'000) is not a character literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and \
                    i + 1 < n and text[i + 1].isalnum() and \
                    re.match(r"[0-9a-fA-Fx]", text[i - 1]):
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * (j - i - 2) + (c if j - i >= 2 else ""))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def is_function_heading(heading):
    heading = heading.strip()
    if not heading or "(" not in heading:
        return False
    if heading.startswith("#"):
        return False
    if CONTROL.match(heading):
        return False
    before_paren = heading[:heading.index("(")]
    if SCOPE.search(before_paren) and not re.search(r"\boperator\b",
                                                    before_paren):
        return False
    # `T x = {...}`, `T x{...}` after a call: initializers, not bodies.
    if re.search(r"=\s*$", heading) or re.search(r"[=,]\s*$", heading):
        return False
    if re.search(r"(^|[^=!<>])=([^=]|$)", before_paren) and \
            "operator" not in before_paren:
        return False
    if not re.search(r"\)[^()]*$", heading) and not re.search(
            r"\)\s*(const|override|final|noexcept|mutable|->.*|:.*)?\s*$",
            heading):
        return False
    return True


def functions(path):
    """Yields (name, first line, length) for each function in `path`."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = blank_comments_and_literals(f.read())
    # Preprocessor lines are no part of any heading.
    text = re.sub(r"(?m)^[ \t]*#.*(\\\n.*)*$",
                  lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    line_of = []
    line = 1
    for ch in text:
        line_of.append(line)
        if ch == "\n":
            line += 1
    # Scopes: for each open brace, whether it is a function body.
    stack = []
    heading_start = 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        in_function = any(kind == "function" for kind, _, _ in stack)
        if c == "{":
            if in_function:
                stack.append(("block", i, None))
            else:
                heading = text[heading_start:i]
                if is_function_heading(heading):
                    stripped = len(heading) - len(heading.lstrip())
                    start = heading_start + stripped
                    name = re.sub(r"\s+", " ", heading.strip())
                    name = name[:name.index("(")].split()[-1] \
                        if name.index("(") > 0 else name
                    stack.append(("function", start, name))
                else:
                    stack.append(("scope", i, None))
            heading_start = i + 1
        elif c == "}":
            if stack:
                kind, start, name = stack.pop()
                if kind == "function":
                    yield name, line_of[start], \
                        line_of[i] - line_of[start] + 1
            heading_start = i + 1
        elif c == ";" and not in_function:
            heading_start = i + 1
        elif c == ":" and not in_function and re.search(
                r"\b(public|private|protected)\s*$", text[heading_start:i]):
            heading_start = i + 1
        i += 1


def source_files(paths):
    for path in paths:
        if os.path.isfile(path):
            yield path
            continue
        for root, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if d not in ("build", ".git"))
            for name in sorted(files):
                if name.endswith(SOURCE_SUFFIXES):
                    yield os.path.join(root, name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--max", type=int, default=None,
                        help="fail when a function has more lines than this")
    parser.add_argument("--top", type=int, default=20,
                        help="how many of the longest to list")
    args = parser.parse_args()
    found = []
    for path in source_files(args.paths):
        for name, line, length in functions(path):
            found.append((length, path, line, name))
    found.sort(key=lambda f: (-f[0], f[1], f[2]))
    if args.max is None:
        for length, path, line, name in found[:args.top]:
            print(f"{length:5d} {path}:{line} {name}")
        return 0
    over = [f for f in found if f[0] > args.max]
    for length, path, line, name in over:
        print(f"{path}:{line}: {name} has {length} lines "
              f"(at most {args.max})")
    print(f"{len(found)} functions, {len(over)} over {args.max} lines")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
