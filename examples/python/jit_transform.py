# Seed program 4 (ms.jit as a function transform): the MindSpore tutorial
# "使用静态图加速", section 1.5.1, with only the imports changed to msmlir.
# As in the tutorial, the program calls `run` itself, not `run_with_jit`.
# Run: PYTHONPATH=build/python /usr/bin/python3 examples/python/jit_transform.py

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

    def construct(self, x):
        x = self.flatten(x)
        logits = self.dense_relu_sequential(x)
        return logits

input = Tensor(np.ones([64, 1, 28, 28]).astype(np.float32))

def run(x):
    model = Network()
    return model(x)

run_with_jit = ms.jit(run)  # calling jit turns the function into one that runs as a static graph
output = run(input)
print(output)
