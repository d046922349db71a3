#!/usr/bin/env python3
"""expect_exit.py CODE CMD...: runs CMD and fails unless it exits with CODE,
never crashed (no signal), and wrote exactly one line to stderr for exit
code 1 (ms-run's contract: bad input gets one clear line). Prints CMD's
stderr so FileCheck can read it."""
import re
import subprocess
import sys

code = int(sys.argv[1])
proc = subprocess.run(sys.argv[2:], capture_output=True, text=True, timeout=120)
sys.stdout.write(proc.stderr)
if proc.returncode < 0:
    print(f"expect_exit: crashed with signal {-proc.returncode}")
    sys.exit(1)
if proc.returncode != code:
    print(f"expect_exit: exit code {proc.returncode}, expected {code}")
    sys.exit(1)
# In the sanitizer build ASan warns on stderr when malloc returns NULL for
# a size it cannot serve (allocator_may_return_null=1); that line is the
# sanitizer's, not the tool's.
asan_null = re.compile(r"^==\d+==WARNING: AddressSanitizer failed to allocate ")
lines = [l for l in proc.stderr.splitlines()
         if l.strip() and not asan_null.match(l)]
if code == 1 and len(lines) != 1:
    print(f"expect_exit: {len(lines)} lines on stderr, expected 1")
    sys.exit(1)
