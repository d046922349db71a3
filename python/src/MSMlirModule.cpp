//===- MSMlirModule.cpp - pybind11 bindings of the ms runtime -------------===//
//
// The native half of the `msmlir` Python package (`msmlir._msmlir`). It binds
// only the runtime's public C++ API, never MLIR headers, so this translation
// unit can be compiled with RTTI and exceptions, as pybind11 needs:
//
//   HostTensor     a dense host buffer; exposes the buffer protocol, so numpy
//                  views it without a copy
//   OpCall         one ms op with its attribute text, built once per call site
//   CompileOptions ms::CompileOptions itself: jit_level, exc_mode, threads
//   Executor       PyNative: wraps EagerExecutor (run one op, infer results)
//   Compiler       Graph mode: wraps GraphCompiler, compiling captured MLIR
//                  text into a CompiledGraph
//   CompiledGraph  a compiled graph, a JitModule (exc_mode sink) or a
//                  KernelGraph (no_sink): signature, checked run
//   safetensors / .npy readers and writers, numpy-style formatting
//
// Every llvm::Error becomes a Python `MSError` (a RuntimeError) carrying
// llvm::toString of the error; bad arguments raise ValueError / TypeError.
//
//===----------------------------------------------------------------------===//

#include "CommBindings.h"
#include "DatasetBindings.h"
#include "ms/Pipelines/Pipelines.h"
#include "ms/Runtime/Execution/EagerExecutor.h"
#include "ms/Runtime/Execution/StepLoop.h"
#include "ms/Runtime/Formats/Checkpoint.h"
#include "ms/Runtime/Formats/Npy.h"
#include "ms/Runtime/Formats/NumpyFormat.h"
#include "ms/Runtime/Formats/SafeTensors.h"
#include "ms/Runtime/Jit/Autodiff.h"
#include "ms/Runtime/Jit/FunctionLinking.h"
#include "ms/Runtime/Jit/GraphCompiler.h"
#include "ms/Runtime/Jit/JitModule.h"
#include "ms/Runtime/Jit/Signature.h"
#include "ms/Runtime/Memory/CachingAllocator.h"
#include "ms/Runtime/Memory/HostTensor.h"
#include "ms/Runtime/Memory/PackedParams.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "llvm/ADT/SmallVector.h"

#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace py = pybind11;
using namespace ms;
using namespace ms::runtime;

namespace {

/// Thrown for every runtime error; translated to msmlir.MSError.
struct MSErrorException : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void raise(llvm::Error error) {
  throw MSErrorException(llvm::toString(std::move(error)));
}

template <typename T> T unwrap(llvm::Expected<T> value) {
  if (!value)
    raise(value.takeError());
  return std::move(*value);
}

void unwrap(llvm::Error error) {
  if (error)
    raise(std::move(error));
}

//===----------------------------------------------------------------------===//
// DTypes
//===----------------------------------------------------------------------===//

// Python sees dtypes as small integers, in the order of the C++ enum.
int dtypeCode(DType dtype) { return static_cast<int>(dtype); }

DType dtypeFromCode(int code) {
  if (code < 0 || code >= static_cast<int>(allDTypes().size()))
    throw py::value_error("unknown dtype code " + std::to_string(code));
  return static_cast<DType>(code);
}

/// The buffer-protocol format character of `dtype`; bfloat16 has none, so
/// its buffers are exposed as raw uint16 bits.
std::string bufferFormat(DType dtype) {
  char format = dtypeInfo(dtype).format;
  return std::string(1, format ? format : 'H');
}

/// The dtype of a buffer's format, or throws TypeError.
DType dtypeFromFormat(const std::string &format, py::ssize_t itemsize) {
  // Strip byte-order / alignment prefixes that mean "native little-endian".
  std::string f = format;
  if (!f.empty() && (f[0] == '@' || f[0] == '=' || f[0] == '<' || f[0] == '|'))
    f = f.substr(1);
  // C long is 8 bytes on LP64 Linux and 4 elsewhere: go by the size.
  if (f == "l")
    f = itemsize == 8 ? "q" : "i";
  if (f == "L")
    f = itemsize == 8 ? "Q" : "I";
  for (const DTypeInfo &info : allDTypes())
    if (f.size() == 1 && info.format == f[0] &&
        static_cast<size_t>(itemsize) == info.bytes)
      return info.dtype;
  std::string supported;
  for (const DTypeInfo &info : allDTypes())
    if (info.format)
      supported += (supported.empty() ? "" : ", ") + info.mlir.str();
  throw py::type_error("unsupported buffer format '" + format +
                       "'; msmlir tensors hold " + supported);
}

std::vector<int64_t> checkedShape(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0)
      throw py::value_error("negative dimension in shape " +
                            shapeString(shape));
    if (d != 0 && n > std::numeric_limits<int32_t>::max() / d)
      throw py::value_error("shape " + shapeString(shape) + " is too large");
    n *= d;
  }
  return shape;
}

/// A zero-filled tensor of a caller-given shape (already through
/// checkedShape); memory that cannot be had raises MemoryError, as numpy's
/// zeros does, instead of aborting the interpreter.
HostTensor newTensor(DType dtype, const std::vector<int64_t> &shape) {
  llvm::Expected<HostTensor> tensor = HostTensor::allocate(dtype, shape);
  if (!tensor) {
    std::string message = "tensor " + std::string(dtypeName(dtype)) +
                          shapeString(shape) + ": " +
                          llvm::toString(tensor.takeError());
    PyErr_SetString(PyExc_MemoryError, message.c_str());
    throw py::error_already_set();
  }
  return std::move(*tensor);
}

py::tuple shapeTuple(llvm::ArrayRef<int64_t> shape) {
  py::tuple t(shape.size());
  for (size_t i = 0; i < shape.size(); ++i)
    t[i] = py::int_(shape[i]);
  return t;
}

//===----------------------------------------------------------------------===//
// HostTensor
//===----------------------------------------------------------------------===//

/// Copies a C-contiguous buffer (numpy array, memoryview) into a new tensor.
HostTensor fromBuffer(const py::buffer &buffer) {
  py::buffer_info info = buffer.request();
  DType dtype = dtypeFromFormat(info.format, info.itemsize);
  std::vector<int64_t> shape(info.shape.begin(), info.shape.end());
  // Require C order: strides must be the row-major ones.
  py::ssize_t expected = info.itemsize;
  for (py::ssize_t i = info.ndim - 1; i >= 0; --i) {
    if (info.shape[i] != 1 && info.strides[i] != expected)
      throw py::value_error("HostTensor.from_buffer needs a C-contiguous "
                            "buffer");
    expected *= info.shape[i];
  }
  HostTensor tensor = newTensor(dtype, checkedShape(shape));
  if (tensor.byteSize())
    std::memcpy(tensor.data(), info.ptr, tensor.byteSize());
  return tensor;
}

HostTensor scalarTensor(double value, int code) {
  DType dtype = dtypeFromCode(code);
  HostTensor t(dtype, {});
  storeElement(t.data(), dtype, 0, value);
  return t;
}

py::buffer_info bufferOf(HostTensor &t) {
  std::vector<py::ssize_t> shape(t.shape().begin(), t.shape().end());
  std::vector<py::ssize_t> strides(shape.size());
  py::ssize_t itemsize = static_cast<py::ssize_t>(dtypeSize(t.dtype()));
  py::ssize_t stride = itemsize;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= shape[i];
  }
  return py::buffer_info(t.data(), itemsize, bufferFormat(t.dtype()),
                         static_cast<py::ssize_t>(shape.size()), shape,
                         strides);
}

//===----------------------------------------------------------------------===//
// Direct access to bound instances, for the hot paths: the type_info of a
// bound class is looked up once, not per call (pybind's casters hash the
// type name every time).
//===----------------------------------------------------------------------===//

template <typename T> py::detail::type_info *typeInfo() {
  static py::detail::type_info *info =
      py::detail::get_type_info(typeid(T), /*throw_if_missing=*/true);
  return info;
}

/// The C++ object of a Python instance of exactly T's bound class, or null.
template <typename T> T *unwrapExact(PyObject *object) {
  py::detail::type_info *info = typeInfo<T>();
  if (Py_TYPE(object) != info->type)
    return nullptr;
  auto vh = reinterpret_cast<py::detail::instance *>(object)
                ->get_value_and_holder(info, /*throw_if_missing=*/false);
  return vh ? static_cast<T *>(vh.value_ptr()) : nullptr;
}

/// The HostTensor in a Tensor's `_t`, or null (not a concrete Tensor).
/// `alone`: nothing but the Tensor holds it or its buffer, so an update in
/// place changes no one else's values.
HostTensor *hostOfTensor(PyObject *tensor, bool &alone) {
  // Interned once and never released (it must outlive the interpreter's
  // teardown of static objects).
  static PyObject *attrName = PyUnicode_InternFromString("_t");
  PyObject *host = PyObject_GetAttr(tensor, attrName);
  if (!host) {
    PyErr_Clear();
    return nullptr;
  }
  HostTensor *t = unwrapExact<HostTensor>(host);
  Py_DECREF(host); // the Tensor keeps it alive
  alone = t && Py_REFCNT(host) == 1 && t->buffer().use_count() == 1;
  return t;
}

/// A new Python HostTensor owning `tensor`.
py::object wrapHost(HostTensor &&tensor) {
  return py::reinterpret_steal<py::object>(
      py::detail::type_caster_generic::cast(
          new HostTensor(std::move(tensor)),
          py::return_value_policy::take_ownership, py::handle(),
          typeInfo<HostTensor>(), nullptr, nullptr));
}

//===----------------------------------------------------------------------===//
// TensorSpec <-> Python: (dtype_code, shape_tuple, param_name)
//===----------------------------------------------------------------------===//

py::tuple specTuple(const TensorSpec &spec) {
  // A ? dim is None, as in Tensor(shape=[None, ...]).
  py::tuple shape(spec.shape.size());
  for (size_t i = 0; i < spec.shape.size(); ++i)
    shape[i] = spec.shape[i] == kDynamicDim
                   ? py::object(py::none())
                   : py::object(py::int_(spec.shape[i]));
  return py::make_tuple(dtypeCode(spec.dtype), shape, spec.paramName);
}

py::list specList(const std::vector<TensorSpec> &specs) {
  py::list list;
  for (const TensorSpec &spec : specs)
    list.append(specTuple(spec));
  return list;
}

//===----------------------------------------------------------------------===//
// Executor (PyNative)
//===----------------------------------------------------------------------===//

/// `value` parsed by `parse` (ms::parseJitLevel, ms::parseExecMode): the
/// one parse of an option from Python. Anything else, a non-string too, is
/// one ValueError naming the option and its names.
template <typename T>
T parseOption(py::handle value, std::optional<T> (*parse)(llvm::StringRef),
              const char *option, const char *names) {
  std::optional<T> parsed;
  if (py::isinstance<py::str>(value))
    parsed = parse(value.cast<std::string>());
  if (!parsed)
    throw py::value_error(std::string("unknown ") + option + " " +
                          py::repr(value).cast<std::string>() +
                          "; expected " + names);
  return *parsed;
}

JitLevel jitLevelFromPython(py::handle value) {
  return parseOption(value, &parseJitLevel, "jit_level",
                     "'O0', 'O1' or 'O2'");
}

ExecMode execModeFromPython(py::handle value) {
  return parseOption(value, &parseExecMode, "exc_mode",
                     "'auto', 'sink' or 'no_sink'");
}

/// CompileOptions(jit_level=, exc_mode=, num_threads=, dump_ir_dir=): an
/// argument left None keeps the C++ default.
CompileOptions makeCompileOptions(py::object jitLevel, py::object execMode,
                                  unsigned numThreads, std::string dumpDir) {
  CompileOptions options;
  if (!jitLevel.is_none())
    options.jitLevel = jitLevelFromPython(jitLevel);
  if (!execMode.is_none())
    options.execMode = execModeFromPython(execMode);
  options.numThreads = numThreads;
  options.dumpIRDir = std::move(dumpDir);
  return options;
}

class Executor {
public:
  explicit Executor(const CompileOptions &options)
      : level(options.jitLevel), executor(EagerOptions{options}) {}

  /// The op's one result on `operands` (Executor.run and Executor.call).
  HostTensor run(const OpCall &op, llvm::ArrayRef<HostTensor> operands) {
    return first(executor.run(op, operands));
  }

  py::list infer(const OpCall &op, const py::sequence &inputs) {
    std::vector<TensorSpec> specs;
    specs.reserve(py::len(inputs));
    for (py::handle item : inputs) {
      auto pair = item.cast<py::tuple>();
      TensorSpec spec;
      spec.dtype = dtypeFromCode(pair[0].cast<int>());
      // None is a ? (batch) dim of a Tensor(shape=[None, ...]) input.
      std::vector<int64_t> shape, known;
      for (py::handle d : pair[1].cast<py::sequence>()) {
        shape.push_back(d.is_none() ? kDynamicDim : d.cast<int64_t>());
        if (!d.is_none())
          known.push_back(shape.back());
      }
      checkedShape(known);
      spec.shape = std::move(shape);
      specs.push_back(std::move(spec));
    }
    return specList(unwrap(executor.inferResults(op, specs)));
  }

  py::dict stats() const {
    const EagerStats &s = executor.stats();
    py::dict d;
    d["hits"] = s.hits;
    d["misses"] = s.misses;
    d["compile_seconds"] = s.compileSeconds;
    d["run_seconds"] = s.runSeconds;
    d["kernels"] = executor.numKernels();
    d["evictions"] = s.evictions;
    d["kernel_cache_size"] = executor.kernelCacheSize();
    return d;
  }

  void setCacheCapacity(int64_t size) {
    if (size < 1)
      throw py::value_error("kernel_cache_size must be >= 1, got " +
                            std::to_string(size));
    executor.setKernelCacheSize(static_cast<size_t>(size));
  }

  std::string levelName() const { return jitLevelName(level).str(); }

  std::unique_ptr<KernelGraph> loadGraph(const std::string &source,
                                         const std::string &entry,
                                         const std::string &bufferName) {
    return unwrap(executor.loadGraph(source, entry, bufferName));
  }

private:
  static HostTensor first(llvm::Expected<std::vector<HostTensor>> results) {
    if (!results)
      raise(results.takeError());
    if (results->empty())
      throw MSErrorException("op produced no result");
    return std::move(results->front());
  }

  JitLevel level;
  EagerExecutor executor;
};

//===----------------------------------------------------------------------===//
// Graph mode
//===----------------------------------------------------------------------===//

/// A compiled graph: one native entry (exc_mode sink), or the graph's ops
/// run one at a time on an Executor's kernels (no_sink).
class CompiledGraph {
public:
  explicit CompiledGraph(std::unique_ptr<JitModule> module)
      : module(std::move(module)) {}
  CompiledGraph(std::unique_ptr<KernelGraph> kernels, py::object executor)
      : executor(std::move(executor)), kernels(std::move(kernels)) {}

  py::tuple run(const std::vector<HostTensor> &args) {
    std::vector<HostTensor> results =
        unwrap(module ? module->run(args) : kernels->run(args));
    py::tuple out(results.size());
    for (size_t i = 0; i < results.size(); ++i)
      out[i] = py::cast(std::move(results[i]));
    return out;
  }

  /// The jit wrapper's fast path: runs when `args` match the signature
  /// exactly and returns None (no exception) when they do not.
  py::object runIfMatch(const std::vector<HostTensor> &args) {
    if (llvm::Error err = signatureRef().checkArguments(args)) {
      llvm::consumeError(std::move(err));
      return py::none();
    }
    std::vector<HostTensor> results = runChecked(args);
    py::tuple out(results.size());
    for (size_t i = 0; i < results.size(); ++i)
      out[i] = py::cast(std::move(results[i]));
    return std::move(out);
  }

  /// The fastest call, for the jit wrapper's hot path: reads `_t` (a
  /// HostTensor) from each Tensor of `args` and `params`, appends the
  /// `captures` (HostTensors), and runs if the types match the signature.
  /// With `tensorType` set (a single-result graph) it returns a new instance
  /// of that Python class holding the result in `_t`; otherwise a tuple of
  /// HostTensors. Returns None when an argument is not a concrete Tensor or
  /// the types differ (the caller then takes its slow path).
  py::object callTensors(PyObject *args, PyObject *params, PyObject *captures,
                         PyObject *tensorType) {
    if (!PyTuple_Check(args) || !PyList_Check(params) ||
        !PyList_Check(captures))
      throw py::type_error("call_tensors(graph, tuple, list, list, type)");
    llvm::SmallVector<HostTensor, 8> hosts;
    hosts.reserve(PyTuple_GET_SIZE(args) + PyList_GET_SIZE(params) +
                  PyList_GET_SIZE(captures));
    // The Parameters whose buffer nothing else holds (no numpy view, no
    // other Tensor): the step may update those in place
    // (JitModule::bindInPlaceResults).
    llvm::SmallVector<bool, 8> donated;
    auto appendTensor = [&](PyObject *tensor, bool parameter) {
      bool alone = false;
      HostTensor *t = hostOfTensor(tensor, alone);
      if (!t)
        return false;
      donated.push_back(parameter && alone);
      hosts.push_back(*t);
      return true;
    };
    for (Py_ssize_t i = 0, e = PyTuple_GET_SIZE(args); i < e; ++i)
      if (!appendTensor(PyTuple_GET_ITEM(args, i), false))
        return py::none();
    for (Py_ssize_t i = 0, e = PyList_GET_SIZE(params); i < e; ++i)
      if (!appendTensor(PyList_GET_ITEM(params, i), true))
        return py::none();
    for (Py_ssize_t i = 0, e = PyList_GET_SIZE(captures); i < e; ++i) {
      HostTensor *t = unwrapExact<HostTensor>(PyList_GET_ITEM(captures, i));
      if (!t)
        return py::none();
      donated.push_back(false);
      hosts.push_back(*t);
    }
    if (llvm::Error err = signatureRef().checkArguments(hosts)) {
      llvm::consumeError(std::move(err));
      return py::none();
    }
    std::vector<HostTensor> results =
        runChecked(hosts, [&](size_t i) { return donated[i]; });
    if (tensorType != Py_None && results.size() == 1) {
      static PyObject *attrName = PyUnicode_InternFromString("_t");
      if (!PyType_Check(tensorType))
        throw py::type_error("call_tensors: tensor_type must be a class");
      auto *type = reinterpret_cast<PyTypeObject *>(tensorType);
      py::object tensor = py::reinterpret_steal<py::object>(
          type->tp_alloc(type, 0));
      if (!tensor)
        throw py::error_already_set();
      py::object value = wrapHost(std::move(results.front()));
      if (PyObject_SetAttr(tensor.ptr(), attrName, value.ptr()) != 0)
        throw py::error_already_set();
      return tensor;
    }
    py::tuple out(results.size());
    for (size_t i = 0; i < results.size(); ++i)
      out[i] = wrapHost(std::move(results[i]));
    return std::move(out);
  }

  /// Dataset sink mode (Model.train): up to `steps` steps, each on the
  /// next batch of `iterator` (a data.Iterator), the parameters as the
  /// last step left them (the Tensors `params` at first) and `captures`
  /// (HostTensors); result `r` of a step is parameter `p`'s new value for
  /// each (p, r) of `updates`. No Python runs between steps. Stops early
  /// at the end of the data or at a batch the graph was not compiled for.
  /// Returns (the last step's results, the parameters' final values, steps
  /// run, that batch as a tuple of HostTensors or None).
  py::tuple runSteps(py::handle iterator, int64_t steps, py::list params,
                     py::list captures,
                     const std::vector<std::pair<size_t, size_t>> &updates) {
    python::BatchSource next = python::batchSource(iterator);
    StepLoopState state;
    for (py::handle tensor : params) {
      bool alone = false;
      HostTensor *t = hostOfTensor(tensor.ptr(), alone);
      if (!t)
        throw py::type_error("run_steps: params must be concrete Tensors");
      state.params.push_back(*t);
      state.owned.push_back(alone);
    }
    std::vector<HostTensor> captured =
        captures.cast<std::vector<HostTensor>>();
    std::vector<ParamUpdate> paramUpdates;
    for (auto [param, result] : updates) {
      if (param >= state.params.size())
        throw py::index_error("run_steps: no parameter " +
                              std::to_string(param));
      paramUpdates.push_back({param, result});
    }
    auto matches = [&](llvm::ArrayRef<HostTensor> args) {
      if (llvm::Error err = signatureRef().checkArguments(args)) {
        llvm::consumeError(std::move(err));
        return false;
      }
      return true;
    };
    auto run = [&](llvm::ArrayRef<HostTensor> args,
                   llvm::function_ref<bool(size_t)> donated)
        -> llvm::Expected<std::vector<HostTensor>> {
      if (kernels)
        return kernels->run(args);
      return module->runChecked(args, donated);
    };
    llvm::Error err = llvm::Error::success();
    {
      py::gil_scoped_release release;
      err = runStepLoop(next, matches, run, captured, paramUpdates, steps,
                        state);
    }
    if (err) {
      std::string message = llvm::toString(std::move(err));
      python::rethrowPipelineError();
      throw MSErrorException(message);
    }
    py::tuple outputs(state.outputs.size());
    for (size_t i = 0; i < state.outputs.size(); ++i)
      outputs[i] = wrapHost(std::move(state.outputs[i]));
    py::list finalParams;
    for (HostTensor &t : state.params)
      finalParams.append(wrapHost(std::move(t)));
    py::object unmatched = py::none();
    if (!state.unmatched.empty()) {
      py::tuple row(state.unmatched.size());
      for (size_t i = 0; i < state.unmatched.size(); ++i)
        row[i] = wrapHost(std::move(state.unmatched[i]));
      unmatched = std::move(row);
    }
    return py::make_tuple(outputs, finalParams, state.steps, unmatched);
  }

  py::tuple signature() const {
    const EntrySignature &sig = signatureRef();
    return py::make_tuple(specList(sig.args), specList(sig.results));
  }

  /// Packed parameter copies this graph has made (PackedParams.h).
  unsigned packedParamCount() const {
    return module ? module->packedParams().packCount() : 0;
  }

  /// (lowering, codegen) seconds; a no_sink graph compiles its kernels on
  /// its first run, in the executor's stats instead.
  py::tuple compileTimes() const {
    CompileTimes t = module ? module->compileTimes() : CompileTimes();
    return py::make_tuple(t.lowering, t.codegen);
  }

  /// (status, note): how the persistent compile cache served this graph
  /// ("off", "hit", "miss" or "rebuilt") and why an entry was rebuilt or
  /// not stored ("" when nothing went wrong).
  py::tuple compileCache() const {
    if (!module)
      return py::make_tuple("off", "");
    const CompileTimes &t = module->compileTimes();
    return py::make_tuple(cacheStatusName(t.cache).str(), t.cacheNote);
  }

private:
  const EntrySignature &signatureRef() const {
    return module ? module->signature() : kernels->signature();
  }

  /// Runs on arguments that match the signature. A parameter the graph
  /// updates in place is the caller's own buffer only where `donated` says
  /// so, a copy otherwise.
  std::vector<HostTensor>
  runChecked(llvm::ArrayRef<HostTensor> args,
             JitModule::DonatedArgs donated = [](size_t) { return false; }) {
    if (kernels)
      return unwrap(kernels->run(args));
    return unwrap(module->runChecked(args, donated));
  }

  std::unique_ptr<JitModule> module;
  // Declared before `kernels`, so the executor (and its MLIR context)
  // outlives the graph it parsed.
  py::object executor;
  std::unique_ptr<KernelGraph> kernels;
};

class Compiler {
public:
  std::shared_ptr<CompiledGraph> compile(const std::string &source,
                                         const CompileOptions &options,
                                         const std::string &entry,
                                         const std::string &bufferName,
                                         py::object executor,
                                         const std::string &cacheDir) {
    if (resolveExecMode(options) == ExecMode::NoSink) {
      if (executor.is_none())
        throw py::value_error("exc_mode no_sink runs the graph on an "
                              "Executor: pass executor=");
      std::unique_ptr<KernelGraph> kernels =
          executor.cast<Executor &>().loadGraph(source, entry, bufferName);
      return std::make_shared<CompiledGraph>(std::move(kernels),
                                             std::move(executor));
    }
    std::unique_ptr<JitModule> module;
    std::string message;
    {
      // Compiling takes milliseconds to seconds; let other threads run,
      // but compile one graph at a time (one MLIRContext).
      py::gil_scoped_release release;
      std::lock_guard<std::mutex> lock(mutex);
      std::optional<CompileCache> cache;
      if (!cacheDir.empty())
        cache.emplace(cacheDir);
      auto compiled = compiler.compile(source, entry, options, bufferName,
                                       cache ? &*cache : nullptr);
      if (compiled)
        module = std::move(*compiled);
      else
        message = llvm::toString(compiled.takeError());
    }
    if (!module)
      throw MSErrorException(message);
    return std::make_shared<CompiledGraph>(std::move(module));
  }

private:
  std::mutex mutex;
  GraphCompiler compiler;
};

//===----------------------------------------------------------------------===//
// Files
//===----------------------------------------------------------------------===//

/// [(name, HostTensor)] of a checkpoint of either format, in
/// CheckpointFile::names() order.
py::list loadCheckpoint(const std::string &path) {
  CheckpointFile file = unwrap(CheckpointFile::open(path));
  py::list out;
  for (const std::string &name : file.names())
    out.append(py::make_tuple(name, unwrap(file.load(name))));
  return out;
}

void saveCheckpoint(const std::string &path,
                    const std::vector<std::pair<std::string, HostTensor>> &t,
                    const std::string &format) {
  std::optional<CheckpointFormat> parsed = parseCheckpointFormat(format);
  if (!parsed)
    throw py::value_error("unknown checkpoint format '" + format +
                          "'; expected 'ckpt' or 'safetensors'");
  if (llvm::Error err = writeCheckpoint(path, t, *parsed))
    raise(std::move(err));
}

/// msmlir.MSError, set when the module loads.
PyObject *msErrorType = nullptr;

/// Sets the Python error for the exception being handled, as pybind11's
/// dispatcher would (the METH_FASTCALL functions below bypass it).
void setPythonError() {
  try {
    throw;
  } catch (py::error_already_set &e) {
    e.restore();
  } catch (py::builtin_exception &e) {
    e.set_error();
  } catch (const MSErrorException &e) {
    PyErr_SetString(msErrorType, e.what());
  } catch (const std::exception &e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
}

/// Executor.call(op, *tensors): PyNative's per-op call as a
/// METH_FASTCALL function bound to the executor. pybind11's dispatcher
/// looks each argument's and the result's type up by name on every call,
/// which cost more than the kernel on small tensors.
PyObject *runFast(PyObject *self, PyObject *const *argv, Py_ssize_t n) {
  constexpr Py_ssize_t kMaxOperands = 8;
  try {
    Executor *executor = unwrapExact<Executor>(self);
    if (!executor)
      throw py::type_error("call: not bound to an Executor");
    if (n < 2 || n > kMaxOperands + 1)
      throw py::type_error("call(op, *tensors) takes an OpCall and 1 to " +
                           std::to_string(kMaxOperands) + " HostTensors");
    OpCall *op = unwrapExact<OpCall>(argv[0]);
    if (!op)
      throw py::type_error("call: the first argument must be an OpCall");
    llvm::SmallVector<HostTensor, 3> operands;
    for (Py_ssize_t i = 1; i < n; ++i) {
      HostTensor *t = unwrapExact<HostTensor>(argv[i]);
      if (!t)
        throw py::type_error("call: operand " + std::to_string(i - 1) +
                             " is not a HostTensor");
      operands.push_back(*t);
    }
    return wrapHost(executor->run(*op, operands)).release().ptr();
  } catch (...) {
    setPythonError();
  }
  return nullptr;
}

PyMethodDef runFastDef = {
    "call",
    reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&runFast)),
    METH_FASTCALL,
    "call(op, *tensors): the op's result on 1 to 8 HostTensors (PyNative)"};

/// call_tensors(graph, args, params, captures, tensor_type): CompiledGraph's fast
/// path as a METH_FASTCALL function, without pybind11's dispatcher.
PyObject *callTensorsFast(PyObject *, PyObject *const *argv, Py_ssize_t n) {
  try {
    if (n != 5)
      throw py::type_error("call_tensors takes 5 arguments");
    CompiledGraph *graph = unwrapExact<CompiledGraph>(argv[0]);
    if (!graph)
      throw py::type_error("call_tensors: the first argument must be a "
                           "CompiledGraph");
    return graph->callTensors(argv[1], argv[2], argv[3], argv[4])
        .release()
        .ptr();
  } catch (...) {
    setPythonError();
  }
  return nullptr;
}

PyMethodDef callTensorsDef = {
    "call_tensors",
    reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(
        &callTensorsFast)),
    METH_FASTCALL,
    "call_tensors(graph, args, params, captures, tensor_type): run a "
    "compiled graph on Tensors if their types match, else return None"};

//===----------------------------------------------------------------------===//
// Registration: one function per bound concern
//===----------------------------------------------------------------------===//

/// HostTensor: the buffer every other binding passes.
void registerTensors(py::module_ &m) {
  py::class_<HostTensor>(m, "HostTensor", py::buffer_protocol())
      .def(py::init([](int code, const std::vector<int64_t> &shape) {
             return newTensor(dtypeFromCode(code), checkedShape(shape));
           }),
           py::arg("dtype"), py::arg("shape"),
           "A zero-filled tensor of dtype code and shape")
      .def_static("from_buffer", &fromBuffer, py::arg("buffer"),
                  "Copies a C-contiguous float32/float16/int32/int64 buffer")
      .def_static("scalar", &scalarTensor, py::arg("value"), py::arg("dtype"),
                  "A rank-0 tensor")
      .def_buffer(&bufferOf)
      .def_property_readonly("dtype",
                             [](const HostTensor &t) {
                               return dtypeCode(t.dtype());
                             })
      .def_property_readonly(
          "shape", [](const HostTensor &t) { return shapeTuple(t.shape()); })
      .def_property_readonly("size", &HostTensor::numElements)
      .def_property_readonly("nbytes", &HostTensor::byteSize)
      .def_property_readonly("address",
                             [](HostTensor &t) {
                               return reinterpret_cast<uintptr_t>(t.data());
                             })
      .def("type_string", &HostTensor::typeString)
      .def("clone", &HostTensor::clone)
      .def("format", [](const HostTensor &t) { return formatLikeNumpy(t); })
      .def("__repr__", [](const HostTensor &t) {
        return "<HostTensor " + t.typeString() + ">";
      });
}

/// PyNative: OpCall and Executor.
void registerExecutor(py::module_ &m) {
  py::class_<OpCall>(m, "OpCall")
      .def(py::init([](std::string name, std::string attributes) {
             return OpCall{std::move(name), std::move(attributes)};
           }),
           py::arg("name"), py::arg("attributes") = "")
      .def_readonly("name", &OpCall::name)
      .def_readonly("attributes", &OpCall::attributes)
      .def("__repr__", [](const OpCall &op) {
        return "<OpCall " + op.name + " " + op.attributes + ">";
      });

  py::class_<Executor>(m, "Executor")
      .def(py::init<const CompileOptions &>(), py::arg("options"),
           "PyNative kernels compiled with `options` (a CompileOptions: its "
           "jit_level and num_threads)")
      .def_property_readonly(
          "call",
          [](py::object self) {
            PyObject *bound = PyCFunction_New(&runFastDef, self.ptr());
            if (!bound)
              throw py::error_already_set();
            return py::reinterpret_steal<py::object>(bound);
          },
          "call(op, *tensors): the op on 1 to 8 HostTensors, without "
          "pybind11's dispatcher (PyNative's per-op path)")
      .def("run",
           [](Executor &self, const OpCall &op,
              const std::vector<HostTensor> &inputs) {
             return self.run(op, inputs);
           })
      .def("infer", &Executor::infer,
           "Result (dtype, shape, '') of an op on inputs [(dtype, shape)]")
      .def("stats", &Executor::stats)
      .def("set_cache_capacity", &Executor::setCacheCapacity,
           py::arg("size"),
           "Keeps at most `size` kernels, evicting the least recently used")
      .def_property_readonly("jit_level", &Executor::levelName);
}

/// ms::CompileOptions, built in Python and passed down as it is: jit_level
/// and exc_mode are parsed here and nowhere else.
void registerCompileOptions(py::module_ &m) {
  py::class_<CompileOptions>(m, "CompileOptions")
      .def(py::init(&makeCompileOptions), py::kw_only(),
           py::arg("jit_level") = py::none(), py::arg("exc_mode") = py::none(),
           py::arg("num_threads") = 0, py::arg("dump_ir_dir") = "",
           "What a compile is asked for: jit_level 'O0'|'O1'|'O2' (default "
           "O2), exc_mode 'auto'|'sink'|'no_sink' (default auto: no_sink "
           "at O0), num_threads (0: the core count), dump_ir_dir (the IR "
           "after each stage; '' for none)")
      .def_property(
          "jit_level",
          [](const CompileOptions &o) { return jitLevelName(o.jitLevel).str(); },
          [](CompileOptions &o, py::object v) {
            o.jitLevel = jitLevelFromPython(v);
          })
      .def_property(
          "exc_mode",
          [](const CompileOptions &o) { return execModeName(o.execMode).str(); },
          [](CompileOptions &o, py::object v) {
            o.execMode = execModeFromPython(v);
          })
      .def_readwrite("num_threads", &CompileOptions::numThreads)
      .def_readwrite("dump_ir_dir", &CompileOptions::dumpIRDir)
      .def("__repr__", [](const CompileOptions &o) {
        return "CompileOptions(jit_level='" + jitLevelName(o.jitLevel).str() +
               "', exc_mode='" + execModeName(o.execMode).str() +
               "', num_threads=" + std::to_string(o.numThreads) + ")";
      });
}

/// Graph mode: compiled graphs, the Compiler and the fast call path.
void registerGraphs(py::module_ &m) {
  py::class_<CompiledGraph, std::shared_ptr<CompiledGraph>>(m, "CompiledGraph")
      .def("run", &CompiledGraph::run)
      .def("run_if_match", &CompiledGraph::runIfMatch)
      .def("run_steps", &CompiledGraph::runSteps, py::arg("iterator"),
           py::arg("steps"), py::arg("params"), py::arg("captures"),
           py::arg("updates"),
           "Dataset sink mode: up to `steps` steps on the batches of a "
           "data.Iterator, the parameters carried from step to step; "
           "returns (last results, final parameters, steps run, the "
           "batch it stopped at for not matching, or None)")
      .def("signature", &CompiledGraph::signature)
      .def_property_readonly("packed_param_count",
                             &CompiledGraph::packedParamCount)
      .def_property_readonly("compile_times", &CompiledGraph::compileTimes)
      .def_property_readonly("compile_cache", &CompiledGraph::compileCache);

  py::class_<Compiler>(m, "Compiler")
      .def(py::init<>())
      .def("compile", &Compiler::compile, py::arg("source"),
           py::arg("options"), py::arg("entry") = "construct",
           py::arg("buffer_name") = "<graph>",
           py::arg("executor") = py::none(), py::arg("cache_dir") = "",
           "Compiles `entry` of ms source text with `options` (a "
           "CompileOptions); a no_sink graph runs kernel by kernel on "
           "`executor` (an Executor of the same options); cache_dir: the "
           "persistent compile cache's directory (sink graphs; '' for none)");

  m.add_object("call_tensors",
               py::reinterpret_steal<py::object>(
                   PyCFunction_NewEx(&callTensorsDef, nullptr, m.ptr())));
}

/// The compiled code's memory: packed parameters and the caching allocator.
void registerMemoryStats(py::module_ &m) {
  m.def("invalidate_packed_params", &invalidatePackedParams,
        "Parameter data changed: graphs pack their parameters again");
  m.def(
      "caching_allocator_stats",
      [] {
        CachingAllocatorStats s = cachingAllocatorStats();
        py::dict d;
        d["hits"] = s.hits;
        d["misses"] = s.misses;
        d["cached_bytes"] = s.cachedBytes;
        d["allocated_bytes"] = s.allocatedBytes;
        d["max_allocated_bytes"] = s.maxAllocatedBytes;
        d["max_reserved_bytes"] = s.maxReservedBytes;
        return d;
      },
      "The compiled code's caching allocator: large-block counts and bytes");
  m.def("reset_peak_memory_stats", &resetPeakStats);
  m.def("release_cached_blocks", &releaseCachedBlocks);
}

/// safetensors and .npy files.
void registerFiles(py::module_ &m) {
  m.def("load_checkpoint", &loadCheckpoint, py::arg("path"),
        "[(name, HostTensor)] of a MindSpore .ckpt or a safetensors file "
        "(told apart by content): a .ckpt's in file order, safetensors' "
        "sorted by name");
  m.def("save_checkpoint", &saveCheckpoint, py::arg("path"),
        py::arg("tensors"), py::arg("format") = "ckpt",
        "Writes [(name, HostTensor)] as 'ckpt' (MindSpore's protobuf) or "
        "'safetensors', atomically");
  m.def(
      "read_npy",
      [](const std::string &path) { return unwrap(readNpy(path)); },
      py::arg("path"));
  m.def(
      "write_npy",
      [](const std::string &path, const HostTensor &t) {
        if (llvm::Error err = writeNpy(path, t))
          raise(std::move(err));
      },
      py::arg("path"), py::arg("tensor"));
}

/// Gradient functions and linking of ms source text.
void registerAutodiff(py::module_ &m) {
  m.def(
      "autodiff",
      [](const std::string &source, const std::string &func,
         const std::vector<unsigned> &wrt, const std::string &gradName) {
        return unwrap(differentiateSource(source, func, wrt, gradName));
      },
      py::arg("source"), py::arg("func"), py::arg("wrt"),
      py::arg("grad_name") = "",
      "The module text with the gradient function of `func` added: (args, "
      "sens per float result) -> (results, grads of args `wrt` (every float "
      "tensor argument if empty)), named grad_name (default <func>_grad)");
  m.def(
      "link_functions",
      [](const std::string &source,
         const std::vector<std::tuple<std::string, std::string, std::string>>
             &definitions) {
        std::vector<FunctionDefinition> defs;
        for (const auto &[module, function, symbol] : definitions)
          defs.push_back({module, function, symbol});
        return unwrap(linkFunctions(source, defs));
      },
      py::arg("source"), py::arg("definitions"),
      "The module text with each private declaration [(module text, "
      "function, symbol)] given the body of `function` in `module`, its "
      "calls inlined and the declaration removed");
  m.def(
      "autodiff_saved",
      [](const std::string &source, const std::string &func,
         const std::vector<unsigned> &wrt, const std::string &gradName) {
        SavedForwardGradient g =
            unwrap(differentiateSourceSaved(source, func, wrt, gradName));
        return py::make_tuple(std::move(g.text), std::move(g.saved));
      },
      py::arg("source"), py::arg("func"), py::arg("wrt"),
      py::arg("grad_name") = "",
      "Like autodiff, but the gradient function takes the forward values it "
      "reads as arguments (after func's, before the sens) instead of "
      "computing them: returns (module text, [(op, result)] per such "
      "argument, the op's position in func's body)");
}

} // namespace

PYBIND11_MODULE(_msmlir, m) {
  m.doc() = "Native runtime of msmlir: host tensors, the PyNative executor "
            "and the graph compiler of the ms MLIR dialect";

  msErrorType =
      py::register_exception<MSErrorException>(m, "MSError", PyExc_RuntimeError)
          .ptr();
  ms::python::registerDataset(m);
  registerTensors(m);
  ms::python::registerCommunication(m);
  registerCompileOptions(m);
  registerExecutor(m);
  registerGraphs(m);
  registerMemoryStats(m);
  registerFiles(m);
  registerAutodiff(m);
}
