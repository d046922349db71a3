"""Writes an ms function that is a chain of N elementwise ops (add, mul,
max alternating) on a [64, 64] input, for the long-chain compile test."""
import sys

n = int(sys.argv[1])
t = "tensor<64x64xf32>"
ops = ("add", "mul", "maximum")
lines = [f"func.func @construct(%x: {t}, %y: {t}) -> {t} {{"]
prev = "%x"
for i in range(n):
    lines.append(f"  %v{i} = ms.{ops[i % 3]} {prev}, %y : {t}, {t}")
    prev = f"%v{i}"
lines.append(f"  return {prev} : {t}")
lines.append("}")
print("\n".join(lines))
