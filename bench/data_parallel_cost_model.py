#!/usr/bin/env python3
"""The ring all-reduce cost model of docs/distributed.md, applied to the
seed MLP and LeNet-5 gradients at 2-64 nodes on 10 and 100 Gbit/s links.

  /usr/bin/python3 bench/data_parallel_cost_model.py

time(N) = 2 (N - 1) / N * bytes / bandwidth + 2 (N - 1) * latency
(a ring all-reduce: N - 1 reduce-scatter and N - 1 all-gather steps, each
sending bytes / N per node). latency is one message step on the link
(--latency-us, 10 us: TCP over Ethernet). The step times are the measured
1-thread GRAPH train steps at batch 64 per node of docs/performance-history.md
(issue 15, after the conv-gradient work): MLP 1.265 ms, LeNet-5 3.485 ms.
Only backward can overlap the all-reduce (bucket by bucket, as gradients
are ready); backward is taken as 2/3 of the step. A cell is marked
"hidden" when the all-reduce fits in backward, "exposed" when it does not
but fits in the whole step, "bound" when it is longer than the step
(communication then sets the pace whatever the overlap).
"""

import argparse

# Parameter counts: the seed MLP (784-512-512-10) and LeNet-5 (convs
# without bias, MindSpore's default).
NETS = {
    "MLP": (784 * 512 + 512 + 512 * 512 + 512 + 512 * 10 + 10, 1.265),
    "LeNet-5": (6 * 25 + 16 * 6 * 25 + 400 * 120 + 120 + 120 * 84 + 84 +
                84 * 10 + 10, 3.485),
}
NODES = (2, 4, 8, 16, 32, 64)
LINKS_GBIT = (10, 100)


def ring_ms(nodes, nbytes, gbit, latency_us):
    bandwidth = gbit * 1e9 / 8  # bytes per second
    seconds = (2 * (nodes - 1) / nodes * nbytes / bandwidth +
               2 * (nodes - 1) * latency_us * 1e-6)
    return seconds * 1e3


def verdict(comm_ms, step_ms):
    if comm_ms <= step_ms * 2 / 3:
        return "hidden"
    if comm_ms <= step_ms:
        return "exposed"
    return "bound"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency-us", type=float, default=10.0)
    args = parser.parse_args()
    header = " | ".join(f"{n} nodes" for n in NODES)
    print(f"| net (gradient bytes, step) | link | {header} |")
    print("|---|---|" + "---|" * len(NODES))
    for name, (params, step_ms) in NETS.items():
        nbytes = params * 4
        for gbit in LINKS_GBIT:
            cells = []
            for n in NODES:
                t = ring_ms(n, nbytes, gbit, args.latency_us)
                cells.append(f"{t:.3f} ms {verdict(t, step_ms)}")
            print(f"| {name} ({nbytes / 1e6:.3f} MB, {step_ms} ms) | "
                  f"{gbit} Gbit/s | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
