"""msmlir.communication, the auto-parallel context and the collective ops
in one process without init(): the API, its checks and its errors. Runs
across ranks are in tests/multirank (ctest label multi-rank)."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import nn, ops
from msmlir import communication as comm
from msmlir.communication import management


@pytest.fixture(autouse=True)
def _reset_parallel_context():
    ms.reset_auto_parallel_context()
    yield
    ms.reset_auto_parallel_context()


def test_parallel_context_defaults_set_and_reset():
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"
    assert ms.get_auto_parallel_context("gradients_mean") is False
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL,
                                 gradients_mean=True, device_num=4,
                                 comm_fusion={"allreduce": {"mode": "size",
                                                            "config": 8}})
    assert ms.get_auto_parallel_context("parallel_mode") == "data_parallel"
    assert ms.get_auto_parallel_context("gradients_mean") is True
    assert ms.get_auto_parallel_context("device_num") == 4
    assert ms.get_auto_parallel_context("comm_fusion") == {
        "allreduce": {"mode": "size", "config": 8}}
    ms.reset_auto_parallel_context()
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"


def test_parallel_context_rejects_what_it_lacks():
    with pytest.raises(NotImplementedError, match="semi_auto_parallel"):
        ms.set_auto_parallel_context(
            parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL)
    with pytest.raises(ValueError, match="unknown parallel_mode 'dp'"):
        ms.set_auto_parallel_context(parallel_mode="dp")
    with pytest.raises(ValueError, match="unknown option 'pipeline_stages'"):
        ms.set_auto_parallel_context(pipeline_stages=2)
    with pytest.raises(TypeError, match="gradients_mean must be a bool"):
        ms.set_auto_parallel_context(gradients_mean=1)
    with pytest.raises(ValueError, match="comm_fusion"):
        ms.set_auto_parallel_context(comm_fusion={"allreduce": {"config": 0}})
    with pytest.raises(ValueError, match="unknown option 'x'"):
        ms.get_auto_parallel_context("x")
    # A rejected call changes nothing.
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"


def test_device_backends_are_rejected_with_the_way_out():
    for name in ("hccl", "nccl"):
        with pytest.raises(ValueError, match="call init\\(\\) or "
                                             "init\\('mpi'\\)"):
            comm.init(name)
    with pytest.raises(ValueError, match="unknown backend 'gloo'"):
        comm.init("gloo")


def test_without_mpi_init_says_so(monkeypatch):
    monkeypatch.setattr(management.native.comm, "built_with_mpi",
                        lambda: False)
    with pytest.raises(ms.MSError, match="msmlir was built without MPI"):
        comm.init()


def test_calls_before_init_say_so():
    assert comm.GlobalComm.INITED is False
    for call in (comm.get_rank, comm.get_group_size, comm.get_local_rank):
        with pytest.raises(ms.MSError, match="call msmlir.communication."
                                             "init\\(\\) first"):
            call()
    x = ms.Tensor(np.ones(3, np.float32))
    with pytest.raises(ms.MSError, match="ops.AllReduce: communication is "
                                         "not initialized"):
        ops.AllReduce()(x)
    with pytest.raises(ms.MSError, match="ops.AllGather"):
        ops.AllGather()(x)
    with pytest.raises(ms.MSError, match="DistributedGradReducer"):
        nn.DistributedGradReducer(nn.Dense(2, 2).trainable_params())
    # TrainOneStepCell under DATA_PARALLEL needs init() too.
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL)
    net = nn.Dense(2, 2)
    with pytest.raises(ms.MSError, match="not initialized"):
        nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                            nn.SGD(net.trainable_params()))


def test_collective_arguments_are_checked():
    with pytest.raises(ValueError, match="unknown op 'mean'"):
        ops.AllReduce("mean")
    with pytest.raises(NotImplementedError, match="sub-groups"):
        ops.AllReduce(group="my_group")
    with pytest.raises(ValueError, match="root_rank must be an int >= 0"):
        ops.Broadcast(-1)
    assert ops.ReduceOp.SUM == "sum" and ops.ReduceOp.PROD == "prod"
    # The world group under any backend's name is accepted.
    ops.AllReduce(group=comm.HCCL_WORLD_COMM_GROUP)


def test_stand_alone_training_has_no_reducer():
    net = nn.Dense(2, 2)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                               nn.SGD(net.trainable_params()))
    assert step.reducer_flag is False


def _offsets(layout):
    """Each gradient's element offset in its bucket's buffer."""
    offsets, at = {}, 0
    for i, n in layout:
        if i is not None:
            offsets[i] = at
        at += n
    return offsets


def test_bucket_layout_starts_every_gradient_on_a_cache_line():
    """DistributedGradReducer's buckets: a gradient that would start inside
    a 64-byte line gets zeros before it (16 float32 or 8 float64 elements a
    line). The seed MLP's one bucket, last parameter first: only the last
    layer's 10 biases need a pad."""
    from msmlir.nn.grad_reducer import bucket_layout, plan_buckets
    mlp = nn.SequentialCell(nn.Dense(784, 512), nn.ReLU(),
                            nn.Dense(512, 512), nn.ReLU(), nn.Dense(512, 10))
    params = mlp.trainable_params()
    (bucket,) = plan_buckets(params, 64 << 20)
    assert bucket_layout(params, bucket) == (
        (5, 10), (None, 6), (4, 5120), (3, 512), (2, 262144), (1, 512),
        (0, 401408))
    for dtype, width in ((np.float32, 16), (np.float64, 8)):
        params = [ms.Parameter(ms.Tensor(np.zeros(n, dtype)), name=f"p{n}")
                  for n in (3, 16, 17, 1, 8, 40)]
        for bucket in (plan_buckets(params, 64 << 20) +
                       plan_buckets(params, 64)):
            layout = bucket_layout(params, bucket)
            assert [(i, n) for i, n in layout if i is not None] == \
                [(i, params[i].size) for i in bucket]
            offsets = _offsets(layout)
            assert all(at % width == 0 for at in offsets.values()), layout
            # Each pad the fewest zeros that align: none where a gradient
            # already starts a line (that would take `width` or more).
            assert all(0 < n < width for i, n in layout if i is None)
