#!/usr/bin/env python3
"""Where a compiled graph spends its time, loop by loop.

  /usr/bin/python3 bench/profile_loops.py [--symbol construct] [--keep DIR]
      -- COMMAND [ARG...]
  /usr/bin/python3 bench/profile_loops.py --annotate FILE

A sunk graph is one native function (its entry, `construct` for a Cell or
for ms-run), so `perf report` gives it one line. This splits that line.

It runs COMMAND under `perf record -k 1 -e cpu-clock` with MS_PERF_JIT=1,
which makes ms's JIT write perf's jitdump, and `perf inject --jit` then names
the compiled code. It prints the hottest symbols, annotates SYMBOL and groups
its samples by innermost loop: a loop is the address range from a backward
jump's target to the jump. Each row gives the loop's range, its share of
SYMBOL's samples, its instructions and how many of them are FMAs (a matmul's
or a conv's register tile has dozens; elementwise loops, copies and tile
epilogues have none). Rows are in address order, which mostly follows the
graph's ops; the last row, "outside loops", is straight-line code.

--annotate FILE groups the output of `perf annotate --stdio -s SYMBOL`
saved earlier, without running anything. `perf` is Debian's linux-perf; on
a machine without hardware counters cpu-clock still samples.

Example, the MLP's captured train step (docs/performance-history.md):

  /usr/bin/python3 bench/profile_loops.py -- build/bin/ms-run step.mlir \\
      --mode=graph --num-threads=1 --init-params=0 --input=rand:1 \\
      --input=y.npy --input=lr.npy --repeat=3000
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

# "    1.25 :     4270:    vfmadd231ps (%rax),%zmm1,%zmm2"
INSTRUCTION = re.compile(r"^\s*([0-9.]+)\s*:\s*([0-9a-f]+):\s*(.*)$")
JUMP = re.compile(r"^j[a-z]*\s+([0-9a-f]+)\b")


def parse_annotate(text):
    """(address, percent of the symbol's samples, instruction) per line."""
    rows = []
    for line in text.splitlines():
        match = INSTRUCTION.match(line)
        if match:
            rows.append((int(match.group(2), 16), float(match.group(1)),
                         match.group(3).strip()))
    return rows


def find_loops(instructions):
    """(first, last) address of each loop: a jump back to `first`."""
    loops = set()
    for address, _, text in instructions:
        match = JUMP.match(text)
        if match and int(match.group(1), 16) <= address:
            loops.add((int(match.group(1), 16), address))
    return sorted(loops)


def innermost(address, loops):
    """The shortest loop holding `address`, or None."""
    holding = [loop for loop in loops if loop[0] <= address <= loop[1]]
    return min(holding, key=lambda loop: loop[1] - loop[0], default=None)


def group_by_loop(instructions):
    """{loop or None: [percent, instructions, FMAs]}, each instruction
    counted in its innermost loop only."""
    loops = find_loops(instructions)
    groups = {}
    for address, percent, text in instructions:
        group = groups.setdefault(innermost(address, loops), [0.0, 0, 0])
        group[0] += percent
        group[1] += 1
        group[2] += text.startswith("vfmadd") or text.startswith("vfnmadd")
    return groups


def loop_table(groups, smallest):
    """Markdown rows in address order, loops under `smallest` percent left
    out (their total is said)."""
    lines = ["| loop | share of the symbol | instructions | FMAs |",
             "|---|---|---|---|"]
    left_out = 0.0
    for loop in sorted(groups, key=lambda g: (g is None, g or (0, 0))):
        percent, count, fmas = groups[loop]
        if loop is not None and percent < smallest:
            left_out += percent
            continue
        name = "outside loops" if loop is None else \
            f"{loop[0]:#x}-{loop[1]:#x}"
        lines.append(f"| {name} | {percent:.2f}% | {count} | {fmas} |")
    in_fma_loops = sum(g[0] for k, g in groups.items() if k and g[2])
    lines.append("")
    lines.append(f"- loops with FMAs: {in_fma_loops:.1f}% of the symbol; "
                 f"loops under {smallest}% left out: {left_out:.1f}%")
    return "\n".join(lines)


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({result.returncode}):\n"
                 f"{result.stderr.strip()}")
    return result.stdout


def profile(command, symbol, directory):
    """Records `command`, prints the hottest symbols and returns SYMBOL's
    annotation."""
    if shutil.which("perf") is None:
        sys.exit("profile_loops.py: perf not found (Debian's linux-perf)")
    raw = os.path.join(directory, "perf.data")
    jit = os.path.join(directory, "perf.jit.data")
    # LLVM writes the jitdump under JITDUMPDIR, and `perf inject` the code
    # objects beside it: both stay in `directory`. -N keeps perf from
    # copying every binary into ~/.debug.
    env = dict(os.environ, MS_PERF_JIT="1", JITDUMPDIR=directory)
    recorded = subprocess.run(["perf", "record", "-N", "-k", "1", "-e",
                               "cpu-clock", "-o", raw, "--"] + command,
                              env=env)
    if recorded.returncode != 0:
        sys.exit(f"the profiled command exited with {recorded.returncode}")
    run(["perf", "inject", "--jit", "-i", raw, "-o", jit])
    report = run(["perf", "report", "-i", jit, "--no-children", "--stdio",
                  "--sort", "dso,sym"])
    hottest = [line for line in report.splitlines()
               if line.strip() and not line.startswith("#")][:12]
    print("Hottest symbols:\n" + "\n".join(hottest) + "\n")
    return run(["perf", "annotate", "-i", jit, "--stdio", "-s", symbol])


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[2:]))
    parser.add_argument("--symbol", default="construct",
                        help="the compiled function to split (default "
                        "construct)")
    parser.add_argument("--annotate", metavar="FILE",
                        help="group a saved `perf annotate --stdio` output")
    parser.add_argument("--keep", metavar="DIR",
                        help="record into DIR and keep it (default: a "
                        "temporary folder, removed)")
    parser.add_argument("--min", type=float, default=0.1,
                        help="leave out loops under this percent (0.1)")
    parser.add_argument("command", nargs="*")
    args = parser.parse_args()
    if args.annotate:
        with open(args.annotate) as f:
            text = f.read()
    elif args.command:
        directory = args.keep or tempfile.mkdtemp(prefix="profile-loops-")
        os.makedirs(directory, exist_ok=True)
        try:
            text = profile(args.command, args.symbol, directory)
        finally:
            if not args.keep:
                shutil.rmtree(directory, ignore_errors=True)
    else:
        parser.error("give a command after --, or --annotate FILE")
    instructions = parse_annotate(text)
    if not instructions:
        sys.exit(f"no annotated instructions of {args.symbol} "
                 "(did the command run compiled code with MS_PERF_JIT=1?)")
    print(loop_table(group_by_loop(instructions), args.min))


if __name__ == "__main__":
    main()
