"""Inputs and the numpy result of make_chain.py's chain of N ops, in float32
(each op rounds once, as ms computes it)."""
import os
import sys

import numpy as np

n, out = int(sys.argv[1]), sys.argv[2]
rng = np.random.default_rng(3)
x = rng.uniform(-1, 1, (64, 64)).astype(np.float32)
# Near 1, so 1,000 multiplies neither overflow nor vanish.
y = rng.uniform(0.999, 1.001, (64, 64)).astype(np.float32)
v = x
for i in range(n):
    v = (np.add, np.multiply, np.maximum)[i % 3](v, y).astype(np.float32)
np.save(os.path.join(out, "x.npy"), x)
np.save(os.path.join(out, "y.npy"), y)
np.save(os.path.join(out, "expected.npy"), v)
