"""ms::CompileOptions as the binding exposes it: Python builds one and
passes it down, and jit_level / exc_mode are parsed only in C++ (the
binding), whichever front end names them."""

import pytest

import msmlir as ms
from msmlir import _msmlir as native


def test_defaults_are_the_cpp_struct_defaults():
    options = native.CompileOptions()
    assert (options.jit_level, options.exc_mode, options.num_threads,
            options.dump_ir_dir) == ("O2", "auto", 0, "")
    assert repr(options) == ("CompileOptions(jit_level='O2', "
                             "exc_mode='auto', num_threads=0)")


def test_fields_round_trip():
    options = native.CompileOptions(jit_level="O1", exc_mode="no_sink",
                                    num_threads=2, dump_ir_dir="/tmp/x")
    assert (options.jit_level, options.exc_mode, options.num_threads,
            options.dump_ir_dir) == ("O1", "no_sink", 2, "/tmp/x")
    options.jit_level = "O0"
    options.exc_mode = "sink"
    assert (options.jit_level, options.exc_mode) == ("O0", "sink")


@pytest.mark.parametrize("value", ["O3", "o1", "", 1, 2.0])
def test_bad_jit_level_is_one_value_error(value):
    with pytest.raises(ValueError, match="unknown jit_level .*expected "
                       "'O0', 'O1' or 'O2'"):
        native.CompileOptions(jit_level=value)
    options = native.CompileOptions()
    with pytest.raises(ValueError, match="unknown jit_level"):
        options.jit_level = value


@pytest.mark.parametrize("value", ["SINK", "nosink", 0])
def test_bad_exc_mode_is_one_value_error(value):
    with pytest.raises(ValueError, match="unknown exc_mode .*expected "
                       "'auto', 'sink' or 'no_sink'"):
        native.CompileOptions(exc_mode=value)


def test_every_front_end_reports_the_native_message():
    """JitConfig, set_context and the native options give one message."""
    messages = []
    for make in (lambda: ms.JitConfig(jit_level="O7"),
                 lambda: ms.set_context(jit_config={"jit_level": "O7"}),
                 lambda: native.CompileOptions(jit_level="O7")):
        with pytest.raises(ValueError) as info:
            make()
        messages.append(str(info.value))
    assert len(set(messages)) == 1, messages
    for make in (lambda: ms.JitConfig(exc_mode="fast"),
                 lambda: ms.set_context(jit_config={"exc_mode": "fast"})):
        with pytest.raises(ValueError, match="unknown exc_mode 'fast'"):
            make()


def test_compiler_takes_the_options():
    source = """func.func @construct(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = ms.neg %x : tensor<3xf32>
  return %y : tensor<3xf32>
}"""
    import numpy as np
    x = np.array([1.0, -2.0, 3.0], np.float32)
    for mode in ("sink", "no_sink"):
        options = native.CompileOptions(jit_level="O0", exc_mode=mode,
                                        num_threads=1)
        graph = native.Compiler().compile(
            source, options, "construct", "<options test>",
            executor=native.Executor(options))
        got = np.array(graph.run([native.HostTensor.from_buffer(x)])[0])
        np.testing.assert_array_equal(got, -x)
    with pytest.raises(ValueError, match="no_sink runs the graph on an "
                       "Executor"):
        native.Compiler().compile(
            source, native.CompileOptions(jit_level="O0"), "construct")
