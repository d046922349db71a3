"""init / release / get_rank / get_group_size and GlobalComm.

Every collective uses the world group (all ranks that mpirun started);
MindSpore's sub-groups (create_group) are not supported. Backend names:
"mpi" (and None, which picks it) runs on MPI; MindSpore's device backends
"hccl", "nccl" and "mccl" name accelerator libraries ms does not have, so
init() rejects them with an error that says to use "mpi" (a script written
for GPUs then fails at once, rather than training on a backend it did not
ask for).
"""

import atexit

from .. import _msmlir as native
from .._runtime import MSError

__all__ = ["init", "release", "get_rank", "get_group_size",
           "get_local_rank",
           "get_world_rank_from_group_rank",
           "get_group_rank_from_world_rank", "GlobalComm",
           "HCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP",
           "MCCL_WORLD_COMM_GROUP"]

_comm = native.comm

HCCL_WORLD_COMM_GROUP = "hccl_world_group"
NCCL_WORLD_COMM_GROUP = "nccl_world_group"
MCCL_WORLD_COMM_GROUP = "mccl_world_group"
MPI_WORLD_COMM_GROUP = "mpi_world_group"


class GlobalComm:
    """MindSpore's communication globals: the backend, the world group's
    name, and whether init() has run."""
    BACKEND = "mpi"
    WORLD_COMM_GROUP = MPI_WORLD_COMM_GROUP
    INITED = False
    CHECK_ENVS = True


_WORLD_GROUPS = (MPI_WORLD_COMM_GROUP, HCCL_WORLD_COMM_GROUP,
                 NCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP)


def _check_group(group, what):
    if group is None or group in _WORLD_GROUPS:
        return
    raise NotImplementedError(
        f"{what}: group {group!r}: ms runs every collective on the world "
        f"group (GlobalComm.WORLD_COMM_GROUP = {MPI_WORLD_COMM_GROUP!r}); "
        "sub-groups (create_group) are not supported")


def init(backend_name=None):
    """Starts communication on MPI (the only backend). Under mpirun each
    process becomes one rank; run alone, it is a group of one. Calling it
    again does nothing. Raises MSError when ms was built without MPI."""
    if backend_name not in (None, "mpi"):
        if backend_name in ("hccl", "nccl", "mccl"):
            raise ValueError(
                f"init: backend {backend_name!r} is a MindSpore device "
                "backend (Ascend/GPU); ms runs on the host CPU and "
                "communicates over MPI: call init() or init('mpi') and "
                "launch with mpirun")
        raise ValueError(f"init: unknown backend {backend_name!r}; ms "
                         "supports 'mpi'")
    if not native.comm.built_with_mpi():
        raise MSError("init: msmlir was built without MPI; install Debian's "
                      "libopenmpi-dev and openmpi-bin and rebuild ms")
    if GlobalComm.INITED:
        return
    _comm.init()
    GlobalComm.INITED = True
    # A rank that exits without MPI_Finalize makes mpirun end the job.
    atexit.register(release)


def release():
    """Ends communication (MPI_Finalize). MPI cannot be started again in the
    same process."""
    if GlobalComm.INITED:
        GlobalComm.INITED = False
        _comm.release()


def _require_init(what):
    if not GlobalComm.INITED:
        raise MSError(f"{what}: communication is not initialized; call "
                      "msmlir.communication.init() first")


def get_rank(group=None):
    """This process's rank in the world group (0 .. get_group_size()-1)."""
    _check_group(group, "get_rank")
    _require_init("get_rank")
    return _comm.rank()


def get_group_size(group=None):
    """The number of ranks."""
    _check_group(group, "get_group_size")
    _require_init("get_group_size")
    return _comm.group_size()


def get_local_rank(group=None):
    """The rank among the processes on this host."""
    _check_group(group, "get_local_rank")
    _require_init("get_local_rank")
    return _comm.local_rank()


def get_world_rank_from_group_rank(group, group_rank_id):
    """The world group is the only group: ranks are the same."""
    _check_group(group, "get_world_rank_from_group_rank")
    return group_rank_id


def get_group_rank_from_world_rank(world_rank_id, group):
    """The world group is the only group: ranks are the same."""
    _check_group(group, "get_group_rank_from_world_rank")
    return world_rank_id
