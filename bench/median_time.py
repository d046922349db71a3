"""The timing loop the peer subprocesses of bench/*.py share."""
import time


def sorted_times(fn, reps, warmup):
    """Runs `fn` `warmup` times untimed, then `reps` times; the times in
    seconds, shortest first."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    times.sort()
    return times


def median_ms(fn, reps, warmup):
    """Runs `fn` `warmup` times untimed, then `reps` times; the median in ms."""
    times = sorted_times(fn, reps, warmup)
    return times[len(times) // 2] * 1e3
