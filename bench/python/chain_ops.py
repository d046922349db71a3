"""The 100-op elementwise chain of bench/EagerBench.cpp's BM_Chain100, for
any tensor library: add, mul, relu, neg, sub, abs, maximum, tanh, the binary
ones with a second tensor y. Shared by chain_bench.py, targets.py and the
PyTorch peer (bench/peer_server.py), so every side runs the same ops."""

CHAIN_OPS = 100


def chain(x, y, relu, maximum, tanh):
    """100 elementwise ops, cycling add mul relu neg sub abs maximum tanh."""
    for i in range(CHAIN_OPS):
        k = i % 8
        if k == 0:
            x = x + y
        elif k == 1:
            x = x * y
        elif k == 2:
            x = relu(x)
        elif k == 3:
            x = -x
        elif k == 4:
            x = x - y
        elif k == 5:
            x = abs(x)
        elif k == 6:
            x = maximum(x, y)
        else:
            x = tanh(x)
    return x
