# Seed program 5 (@ms.jit on construct): the MindSpore tutorial
# "使用静态图加速", section 1.5.1, with only the imports changed to msmlir.
# Run: PYTHONPATH=build/python /usr/bin/python3 examples/python/jit_construct.py

import numpy as np
import msmlir as ms
from msmlir import nn, Tensor

class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(28*28, 512),
            nn.ReLU(),
            nn.Dense(512, 512),
            nn.ReLU(),
            nn.Dense(512, 10)
        )

    @ms.jit  # the ms.jit decorator runs the decorated function in graph mode
    def construct(self, x):
        x = self.flatten(x)
        logits = self.dense_relu_sequential(x)
        return logits

input = Tensor(np.ones([64, 1, 28, 28]).astype(np.float32))
model = Network()
output = model(input)
print(output)
