# lit configuration for the ms test suite.
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "MS"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ms_obj_root, "test")
# Data and helpers, not tests.
config.excludes = ["Inputs", "reference", "CMakeLists.txt", "lit.cfg.py",
                   "lit.site.cfg.py"]

llvm_config.with_system_environment(["HOME", "TMP", "TEMP", "LSAN_OPTIONS"])
llvm_config.use_default_substitutions()

config.substitutions.append(("%ms_plugin",
                             os.path.join(config.ms_lib_dir, "MSPlugin.so")))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(
    ("%compare", config.python_executable + " " +
     os.path.join(config.test_source_root, "Run", "compare.py")))
config.substitutions.append(
    ("%expect_exit", config.python_executable + " " +
     os.path.join(config.test_source_root, "Run", "expect_exit.py")))
config.substitutions.append(("%fashion_mnist", config.fashion_mnist_dir))
config.substitutions.append(
    ("%check_accuracy", config.python_executable + " " +
     os.path.join(config.test_source_root, "Run", "check_accuracy.py")))
mlir_opt = os.path.join(config.mlir_tools_dir, "mlir-opt")
# Sanitizer build: the stock mlir-opt is not instrumented, so the plugin it
# loads needs the sanitizer runtime preloaded (and LSan off: mlir-opt's own
# allocations at exit are not ours to judge).
asan_runtime = getattr(config, "ms_asan_runtime", "")
if asan_runtime:
    # ASan reserves terabytes of address space: tests that limit it
    # (ulimit -v) say UNSUPPORTED: asan.
    config.available_features.add("asan")
    mlir_opt = "env LD_PRELOAD=%s ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 %s" % (
        asan_runtime, mlir_opt)
config.substitutions.append(("%mlir_opt", mlir_opt))

tool_dirs = [config.ms_tools_dir, config.llvm_tools_dir]
tools = ["ms-opt", "ms-run", "FileCheck", "not", "count"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
