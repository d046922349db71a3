"""ms.Profiler: per-op and per-Cell tables and a Chrome trace with a track
each for PyNative ops, Cells, compiled graphs, compiles and data-pipeline
waits; MindSpore's start/stop/analyse rules; nothing recorded outside."""

import csv
import json
import warnings

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, nn
from msmlir.dataset import NumpySlicesDataset

from conftest import assert_bitwise, rand


@pytest.fixture(autouse=True)
def _no_profiler_left_running():
    yield
    left = ms.Profiler._active
    if left is not None:      # a failed test's: the next test starts clean
        left.analyse()


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 8)
        self.act = nn.ReLU()
        self.fc2 = nn.Dense(8, 2)

    def construct(self, x):
        return self.fc2(self.act(self.fc1(x)))


def _read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def _profile(tmp_path, run):
    profiler = ms.Profiler(output_path=str(tmp_path))
    try:
        run()
    finally:
        profiler.analyse()
    out = tmp_path / "profiler"
    return (_read_csv(out / "cpu_op_type_info_0.csv"),
            _read_csv(out / "cpu_cell_info_0.csv"),
            json.loads((out / "cpu_timeline_0.json").read_text()),
            (out / "cpu_profile_summary_0.txt").read_text())


def _tracks(trace):
    names = {e["tid"]: e["args"]["name"] for e in trace["traceEvents"]
             if e["name"] == "thread_name"}
    spans = {}
    for e in trace["traceEvents"]:
        if e["ph"] == "X":
            spans.setdefault(names[e["tid"]], []).append(e)
    return spans


def test_pynative_ops_and_cells_are_timed_by_name_and_path(tmp_path):
    net = _Net()
    x = Tensor(rand(3, 4))
    ops_rows, cell_rows, trace, summary = _profile(
        tmp_path, lambda: [net(x) for _ in range(5)])
    by_op = {r["op_type"]: r for r in ops_rows}
    # Two Dense layers (a dense op each) and a relu, five calls.
    assert int(by_op["ms.dense"]["calls"]) == 10
    assert int(by_op["ms.relu"]["calls"]) == 5
    assert abs(sum(float(r["percent"]) for r in ops_rows) - 100) < 0.1
    by_cell = {r["cell"]: r for r in cell_rows}
    assert {"_Net", "fc1", "act", "fc2"} <= set(by_cell)
    assert all(int(by_cell[c]["calls"]) == 5 for c in ("_Net", "fc1", "fc2"))
    # A Cell's time includes its children's.
    assert float(by_cell["_Net"]["total_time(ms)"]) >= \
        float(by_cell["fc1"]["total_time(ms)"]) + \
        float(by_cell["fc2"]["total_time(ms)"])
    spans = _tracks(trace)
    dense = [e for e in spans["PyNative ops"] if e["name"] == "ms.dense"]
    assert {e["args"]["cell"] for e in dense} == {"fc1", "fc2"}
    # Each op lies inside the span of the Cell that ran it.
    fc1 = [e for e in spans["Cells"] if e["name"] == "fc1"]
    for op in [e for e in dense if e["args"]["cell"] == "fc1"]:
        assert any(c["ts"] <= op["ts"] and
                   op["ts"] + op["dur"] <= c["ts"] + c["dur"] + 1e-3
                   for c in fc1)
    assert "ms.dense" in summary and "fc2" in summary


def test_compiled_graphs_compiles_and_data_waits_have_their_tracks(tmp_path):
    net = _Net()
    x = np.random.default_rng(0).uniform(-1, 1, (12, 4)).astype(np.float32)
    data = NumpySlicesDataset((x,), column_names=["x"],
                              shuffle=False).batch(4)

    def run():
        ms.set_context(mode=ms.GRAPH_MODE)
        for (batch,) in data.create_tuple_iterator(num_epochs=1):
            net(batch)

    ops_rows, _, trace, _ = _profile(tmp_path, run)
    spans = _tracks(trace)
    assert [e["name"] for e in spans["Compiled graphs"]] == \
        ["_Net.construct"] * 3
    assert [e["name"] for e in spans["Compiles"]] == ["_Net.construct"]
    assert len(spans["Data pipeline waits"]) == 4   # 3 batches, then the end
    assert "PyNative ops" not in spans
    assert {r["op_type"] for r in ops_rows} == {"_Net.construct"}
    compile_span = spans["Compiles"][0]
    first_call = spans["Compiled graphs"][0]
    assert first_call["ts"] <= compile_span["ts"]
    assert compile_span["ts"] + compile_span["dur"] <= \
        first_call["ts"] + first_call["dur"] + 1e-3


def test_profiling_changes_no_result_and_stops_recording(tmp_path):
    net = _Net()
    x = Tensor(rand(3, 4))
    plain = net(x).asnumpy().copy()
    profiler = ms.Profiler(output_path=str(tmp_path))
    profiled = net(x).asnumpy().copy()
    profiler.analyse()
    assert_bitwise(profiled, plain)
    before = (tmp_path / "profiler" / "cpu_timeline_0.json").read_text()
    net(x)
    # Nothing is recorded once analysed: a new Profiler starts empty.
    again = ms.Profiler(output_path=str(tmp_path / "again"),
                        start_profile=False)
    again.analyse()
    trace = json.loads(
        (tmp_path / "again" / "profiler" / "cpu_timeline_0.json").read_text())
    assert not [e for e in trace["traceEvents"] if e["ph"] == "X"]
    assert before == (tmp_path / "profiler" / "cpu_timeline_0.json").read_text()


def test_stop_pauses_and_start_resumes(tmp_path):
    net = _Net()
    x = Tensor(rand(3, 4))
    profiler = ms.Profiler(output_path=str(tmp_path), start_profile=False)
    net(x)
    profiler.start()
    net(x)
    profiler.stop()
    net(x)
    profiler.analyse()
    rows = _read_csv(tmp_path / "profiler" / "cpu_cell_info_0.csv")
    assert {r["cell"]: int(r["calls"]) for r in rows}["_Net"] == 1


def test_mindspore_usage_errors(tmp_path):
    profiler = ms.Profiler(output_path=str(tmp_path))
    with pytest.raises(RuntimeError, match="Do not init twice"):
        ms.Profiler(output_path=str(tmp_path))
    with pytest.raises(RuntimeError, match="already started"):
        profiler.start()
    profiler.stop()
    with pytest.raises(RuntimeError, match="has not started"):
        profiler.stop()
    with pytest.raises(NotImplementedError, match="offline_path"):
        profiler.analyse(offline_path=str(tmp_path))
    profiler.analyse()
    with pytest.raises(TypeError, match="output_path must be str"):
        ms.Profiler(output_path=3)
    with pytest.raises(TypeError, match="unexpected keyword argument 'nope'"):
        ms.Profiler(output_path=str(tmp_path), nope=1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ms.Profiler(output_path=str(tmp_path), profile_memory=True).analyse()
    assert any("profile_memory" in str(w.message) for w in caught)
    assert ms.profiler.Profiler is ms.Profiler
