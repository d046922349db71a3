#!/usr/bin/env python3
"""LeNet-5 (examples/lenet) at batch 64: ms against PyTorch, in one run.

  /usr/bin/python3 bench/lenet_bench.py [--build build] [--quick] [--rounds N]

ms runs examples/lenet/lenet5.mlir through `ms-run --repeat --warmup` at O0,
O1 and O2 (graph mode) and in PyNative, on 1 and 2 threads. PyTorch 1.13
(Debian's python3-torch) runs the same network with the same weights in a
subprocess with the same thread count, twice: eager under
torch.inference_mode, and TorchScript frozen by
torch.jit.optimize_for_inference. Figures are medians of many runs.

This is a shared, noisy machine: a slow spell during one side's timing alone
would skew the ratio. So ms O2 and optimize_for_inference are timed in
paired rounds, taking turns (PyTorch stays loaded in bench/peer_server.py
between rounds), and the optimized/O2 ratio is the median of the rounds' ratios,
with their range, and the ratio of each side's quickest round (both
undisturbed). Prints a markdown table.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from compare_peers import ms_time  # noqa: E402
from paired_rounds import Peer, median, paired  # noqa: E402

NETWORK = os.path.join(ROOT, "examples", "lenet", "lenet5.mlir")


def paired_rounds(ms_run, threads, reps, rounds, torch):
    """ms O2 and optimize_for_inference timed `rounds` times, taking turns;
    the per-round times and ratios, and O2's median compile time."""
    compile_ms = []

    def time_ms():
        median_ms, compiled = ms_time(ms_run, NETWORK, "graph", "O2",
                                      threads, reps)
        compile_ms.append(compiled)
        return median_ms
    o2, jit, _ = paired(time_ms, lambda: torch.time("lenet", "jit", reps),
                        rounds)
    ratios = [j / m for j, m in zip(jit, o2)]
    return o2, jit, ratios, median(compile_ms)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--rounds", type=int, default=None,
                        help="paired ms O2 / optimize_for_inference rounds "
                        "(default 7, 3 with --quick)")
    args = parser.parse_args()
    ms_run = os.path.join(args.build, "bin", "ms-run")
    reps = 100 if args.quick else 300
    rounds = args.rounds or (3 if args.quick else 7)
    slow = max(5, reps // 15)
    rows = []
    for threads in (1, 2):
        r = {"threads": threads}
        torch = Peer(threads)
        try:
            r["eager"] = torch.time("lenet", "torch", reps)
            o2, jit, ratios, r["compile"] = paired_rounds(ms_run, threads, reps,
                                                          rounds, torch)
        finally:
            torch.close()
        r["O2"], r["jit"], r["ratio"] = median(o2), median(jit), median(ratios)
        r["ratios"] = ratios
        # Each side's quietest round: the ratio when neither is disturbed.
        r["best"] = min(jit) / min(o2)
        r["O0"], _ = ms_time(ms_run, NETWORK, "graph", "O0", threads, slow)
        r["O1"], _ = ms_time(ms_run, NETWORK, "graph", "O1", threads, slow)
        r["pynative"], _ = ms_time(ms_run, NETWORK, "pynative", "O0", threads,
                                   slow)
        rows.append(r)
        print(f"# threads={threads}: O2 " +
              " ".join(f"{t:.3f}" for t in o2) + " | optimize_for_inference " +
              " ".join(f"{t:.3f}" for t in jit) + " | ratios " +
              " ".join(f"{q:.2f}" for q in ratios), file=sys.stderr)
    print("| threads | ms O0 | ms O1 | ms O2 | ms PyNative | PyTorch eager | "
          "PyTorch optimize_for_inference | eager/O2 | optimized/O2 "
          f"(median of {rounds} rounds) | rounds' range | best round / best "
          "round | O2 compile ms |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['threads']} | {r['O0']:.2f} | {r['O1']:.2f} | "
              f"{r['O2']:.3f} | {r['pynative']:.2f} | {r['eager']:.3f} | "
              f"{r['jit']:.3f} | {r['eager'] / r['O2']:.2f}x | "
              f"{r['ratio']:.2f}x | {min(r['ratios']):.2f}-"
              f"{max(r['ratios']):.2f}x | {r['best']:.2f}x | "
              f"{r['compile']:.0f} |")


if __name__ == "__main__":
    main()
