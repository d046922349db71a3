#!/usr/bin/env python3
"""The PyTorch and numpy peers of bench/targets.py, in a subprocess that
stays loaded between timings (so peers and ms can take turns in paired
rounds).

  /usr/bin/python3 bench/peer_server.py THREADS   (environment: peer_env)

Reads one request per line, "WORKLOAD IMPL REPS", and answers the median
time of one call in ms:
  mlp64 | mlp1   torch | numpy   the seed MLP (flatten, dense 784-512, relu,
                                 512-512, relu, 512-10) at batch 64 / 1
  lenet          torch | jit     LeNet-5 at batch 64, eager under
                                 inference_mode / TorchScript frozen by
                                 torch.jit.optimize_for_inference
  chain          torch           the 100-op chain on [1, 10] (chain_ops.py)
  mlp64-train | lenet64-train  torch
                                 one train step at batch 64 (zero_grad,
                                 forward, cross_entropy, backward,
                                 SGD(lr=0.01).step), as bench/train_step.py
                                 times ms's; every timing starts from the
                                 same weights
"""
import copy
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "python"))
sys.path.insert(0, os.path.join(HERE, "..", "examples", "lenet"))
from median_time import median_ms  # noqa: E402
from chain_ops import chain  # noqa: E402
from train_torch import LeNet5  # noqa: E402


def seed_mlp():
    """The seed MLP in PyTorch: flatten, 784-512, relu, 512-512, relu,
    512-10."""
    return torch.nn.Sequential(
        torch.nn.Flatten(), torch.nn.Linear(784, 512), torch.nn.ReLU(),
        torch.nn.Linear(512, 512), torch.nn.ReLU(), torch.nn.Linear(512, 10))


def mlp(batch):
    rng = np.random.default_rng(0)
    shapes = [(784, 512), (512, 512), (512, 10)]
    x = rng.random((batch, 1, 28, 28), dtype=np.float32)
    ws = [rng.standard_normal((o, i), dtype=np.float32) * 0.05 for i, o in shapes]
    bs = [rng.standard_normal(o, dtype=np.float32) * 0.05 for _, o in shapes]

    def run_numpy():
        h = x.reshape(batch, -1)
        for i in range(3):
            h = h @ ws[i].T + bs[i]
            if i < 2:
                h = np.maximum(h, 0)
        return h

    net = seed_mlp()
    tx = torch.from_numpy(x)

    def run_torch():
        with torch.inference_mode():
            return net(tx)
    return {"numpy": run_numpy, "torch": run_torch}


def lenet():
    net = LeNet5().eval()
    x = torch.from_numpy(np.random.default_rng(1).random((64, 1, 32, 32),
                                                         dtype=np.float32))
    with torch.no_grad():
        scripted = torch.jit.optimize_for_inference(torch.jit.script(net))

    def eager():
        with torch.inference_mode():
            return net(x)

    def jit():
        with torch.no_grad():
            return scripted(x)
    return {"torch": eager, "jit": jit}


def chain_peer():
    rng = np.random.default_rng(0)
    x = torch.from_numpy(rng.uniform(-1, 1, (1, 10)).astype(np.float32))
    y = torch.from_numpy(rng.uniform(-1, 1, (1, 10)).astype(np.float32))

    def run():
        with torch.inference_mode():
            return chain(x, y, torch.relu, torch.maximum, torch.tanh)
    return {"torch": run}


def train(workload):
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    if workload == "mlp64-train":
        net = seed_mlp()
        x = torch.from_numpy(rng.random((64, 1, 28, 28), dtype=np.float32))
    else:
        net = LeNet5()
        x = torch.from_numpy(rng.random((64, 1, 32, 32), dtype=np.float32))
    y = torch.from_numpy(rng.integers(0, 10, 64)).long()
    opt = torch.optim.SGD(net.parameters(), 0.01)
    initial = copy.deepcopy(net.state_dict())

    def step():
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(net(x), y)
        loss.backward()
        opt.step()

    def reset():
        # Thousands of steps on one batch drive the gradients towards
        # denormals, which slow the arithmetic down (LeNet-5's step took
        # 4.5 ms at first and 5.7 ms after 2600 steps).
        net.load_state_dict(initial)
    return {"torch": step, "reset": reset}


def main():
    torch.set_num_threads(int(sys.argv[1]))
    workloads = {"mlp64": lambda: mlp(64), "mlp1": lambda: mlp(1),
                 "lenet": lenet, "chain": chain_peer,
                 "mlp64-train": lambda: train("mlp64-train"),
                 "lenet64-train": lambda: train("lenet64-train")}
    built = {}
    for line in sys.stdin:
        name, impl, reps = line.split()
        if name not in built:
            built[name] = workloads[name]()
        fn = built[name][impl]
        if "reset" in built[name]:
            built[name]["reset"]()
        print(median_ms(fn, int(reps), max(5, int(reps) // 10)), flush=True)


if __name__ == "__main__":
    main()
