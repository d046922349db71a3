"""bench/profile_loops.py's grouping of `perf annotate` output by innermost
loop, on a hand-written annotation (no perf needed)."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "bench"))
import profile_loops  # noqa: E402

# An outer loop 0x10-0x40 around an inner FMA loop 0x20-0x30, then a copy
# loop 0x50-0x58; the lines perf prints around instructions are ignored.
ANNOTATION = """\
 Percent |\tSource code & Disassembly of jitted-1-1.so
         :       0000000000000000 <construct>:
    1.00 :     0:     push   %rbp
    2.00 :    10:     xor    %eax,%eax
   30.00 :    20:     vfmadd231ps (%rax),%zmm1,%zmm2
   30.00 :    28:     vfmadd231ps 0x40(%rax),%zmm1,%zmm3
    5.00 :    30:     jne    20 <construct+0x20>
    4.00 :    38:     add    $0x1,%rcx
    3.00 :    40:     jb     10 <construct+0x10>
   20.00 :    50:     vmovups (%rsi),%zmm0
    4.00 :    58:     jne    50 <construct+0x50>
    1.00 :    60:     ret
"""


def test_parse_reads_every_instruction_line():
    rows = profile_loops.parse_annotate(ANNOTATION)
    assert [address for address, _, _ in rows] == [
        0x0, 0x10, 0x20, 0x28, 0x30, 0x38, 0x40, 0x50, 0x58, 0x60]
    assert rows[2] == (0x20, 30.0, "vfmadd231ps (%rax),%zmm1,%zmm2")


def test_loops_are_backward_jumps():
    rows = profile_loops.parse_annotate(ANNOTATION)
    assert profile_loops.find_loops(rows) == [(0x10, 0x40), (0x20, 0x30),
                                              (0x50, 0x58)]


def test_each_instruction_counts_in_its_innermost_loop():
    groups = profile_loops.group_by_loop(
        profile_loops.parse_annotate(ANNOTATION))
    assert groups[(0x20, 0x30)] == [65.0, 3, 2]
    assert groups[(0x10, 0x40)] == [9.0, 3, 0]
    assert groups[(0x50, 0x58)] == [24.0, 2, 0]
    assert groups[None] == [2.0, 2, 0]


def test_table_leaves_out_small_loops_and_says_how_much():
    groups = profile_loops.group_by_loop(
        profile_loops.parse_annotate(ANNOTATION))
    table = profile_loops.loop_table(groups, smallest=10.0)
    assert "| 0x20-0x30 | 65.00% | 3 | 2 |" in table
    assert "0x10-0x40" not in table
    assert table.index("0x20-0x30") < table.index("0x50-0x58") < \
        table.index("outside loops")
    assert "loops with FMAs: 65.0% of the symbol" in table
    assert "loops under 10.0% left out: 9.0%" in table
