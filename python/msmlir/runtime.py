"""Memory interfaces (MindSpore's ``mindspore.runtime`` memory functions).

Compiled kernels, in GRAPH mode and PyNative alike, get their tensor-sized
buffers (4 KiB and up) from one caching allocator: a freed block is kept by
its exact size and handed out again, as PyTorch's caching CPU allocator
does. Every op's result comes from it too, and is counted while Python
holds it. These functions report it. "Allocated" is what is held now;
"reserved" adds the freed blocks kept for reuse. Tensors made from numpy
arrays, files or initializers are ordinary host memory and are not
counted; nor are blocks under 4 KiB.

A steady-state train step allocates nothing new: after the first steps,
``memory_stats()["cache_misses"]`` stays put while ``cache_hits`` grows.
"""

from . import _msmlir

__all__ = ["memory_stats", "memory_allocated", "max_memory_allocated",
           "memory_reserved", "max_memory_reserved",
           "reset_max_memory_allocated", "reset_max_memory_reserved",
           "reset_peak_stats", "empty_cache"]


def memory_stats():
    """A dict of the allocator's state in bytes, with MindSpore's key names
    (total_reserved_memory, total_allocated_memory, total_idle_memory,
    max_reserved_memory, max_allocated_memory) plus cache_hits and
    cache_misses, the counts of large allocations served from the cache and
    from malloc."""
    s = _msmlir.caching_allocator_stats()
    return {
        "total_reserved_memory": s["allocated_bytes"] + s["cached_bytes"],
        "total_allocated_memory": s["allocated_bytes"],
        "total_idle_memory": s["cached_bytes"],
        "max_reserved_memory": s["max_reserved_bytes"],
        "max_allocated_memory": s["max_allocated_bytes"],
        "cache_hits": s["hits"],
        "cache_misses": s["misses"],
    }


def memory_allocated():
    """Bytes compiled code holds now."""
    return memory_stats()["total_allocated_memory"]


def max_memory_allocated():
    """The peak of memory_allocated() since start or the last reset."""
    return memory_stats()["max_allocated_memory"]


def memory_reserved():
    """memory_allocated() plus the freed blocks kept for reuse."""
    return memory_stats()["total_reserved_memory"]


def max_memory_reserved():
    """The peak of memory_reserved() since start or the last reset."""
    return memory_stats()["max_reserved_memory"]


def reset_peak_stats():
    """Restarts both peaks from the current values."""
    _msmlir.reset_peak_memory_stats()


reset_max_memory_allocated = reset_peak_stats
reset_max_memory_reserved = reset_peak_stats


def empty_cache():
    """Returns the kept freed blocks to the system."""
    _msmlir.release_cached_blocks()
