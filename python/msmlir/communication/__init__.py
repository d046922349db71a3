"""Collective communication (MindSpore's ``mindspore.communication``).

    from msmlir.communication import init, get_rank, get_group_size
    init()                       # under mpirun: one process per rank

ms runs its collectives on MPI (Debian's OpenMPI): launch the same script
once per rank with ``mpirun -n N python3 train.py``. See docs/distributed.md.
"""

from .management import (init, release, get_rank, get_group_size,
                         get_local_rank,
                         get_world_rank_from_group_rank,
                         get_group_rank_from_world_rank, GlobalComm,
                         HCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP,
                         MCCL_WORLD_COMM_GROUP)

__all__ = ["init", "release", "get_rank", "get_group_size", "get_local_rank",
           "get_world_rank_from_group_rank",
           "get_group_rank_from_world_rank", "GlobalComm",
           "HCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP",
           "MCCL_WORLD_COMM_GROUP"]
