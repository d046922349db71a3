//===- DatasetBindings.cpp - pybind11 bindings of msmlir.dataset ----------===//
//
// The submodule `_msmlir.data`: dataset pipelines built from C++ nodes
// (include/ms/Data), with Python sources and Python map operations as
// callbacks. Arrays cross as numpy arrays: copied in, handed out as
// read-only views that keep the C++ buffer alive.
//
// A Python callback runs on the consumer's thread with the GIL (such
// pipelines do not prefetch). An exception it raises is kept here and
// raised again, unchanged, from the iterator's next(); every other error
// becomes msmlir.MSError.
//
//===----------------------------------------------------------------------===//

#include "DatasetBindings.h"

#include "ms/Data/Iterator.h"
#include "ms/Data/Pipeline.h"
#include "ms/Runtime/Formats/Idx.h"
#include "ms/Runtime/Memory/HostTensor.h"

#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>
#include <memory>
#include <optional>
#include <string>

namespace py = pybind11;
using namespace ms::data;

namespace {

py::handle msErrorType; // A module attribute, alive while the module is.

[[noreturn]] void raiseMSError(const std::string &message) {
  PyErr_SetString(msErrorType.ptr(), message.c_str());
  throw py::error_already_set();
}

template <typename T> T unwrap(llvm::Expected<T> value) {
  if (!value)
    raiseMSError(llvm::toString(value.takeError()));
  return std::move(*value);
}

/// The exception a Python callback raised, until the iterator re-raises it.
std::unique_ptr<py::error_already_set> &pendingError() {
  static std::unique_ptr<py::error_already_set> error;
  return error;
}

llvm::Error pythonFailed(const std::string &what, py::error_already_set &e) {
  std::string message = what + ": " + e.what();
  pendingError() = std::make_unique<py::error_already_set>(std::move(e));
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

struct PyNode {
  NodePtr node;
};

struct PyMnist {
  std::shared_ptr<const MnistData> data;
};

struct PyOp {
  TensorOp op;
};

//===----------------------------------------------------------------------===//
// numpy <-> Array
//===----------------------------------------------------------------------===//

/// A copy of `obj` (anything numpy.asarray takes) as an Array.
Array arrayFromPython(py::handle obj, const std::string &what) {
  py::array a = py::array::ensure(obj, py::array::c_style);
  if (!a)
    throw py::type_error(what + ": cannot make a numpy array of " +
                         std::string(py::str(py::type::of(obj))));
  if (!a.dtype().attr("isnative").cast<bool>())
    a = py::array::ensure(a.attr("astype")(a.dtype().attr("newbyteorder")("=")),
                          py::array::c_style);
  std::string name = py::str(a.dtype().attr("name"));
  std::optional<ElemType> type = elemFromName(name);
  if (!type)
    throw py::type_error(what + ": unsupported numpy dtype " + name +
                         " (dataset columns hold bool, int8-64, uint8-64 "
                         "and float16/32/64)");
  std::vector<int64_t> shape(a.shape(), a.shape() + a.ndim());
  Array out = Array::allocate(*type, shape);
  std::memcpy(out.mutableData<uint8_t>(), a.data(), out.byteSize());
  return out;
}

py::array arrayToPython(const Array &a) {
  auto *owner = new std::shared_ptr<const void>(a.buffer);
  py::capsule keep(owner, [](void *p) {
    delete static_cast<std::shared_ptr<const void> *>(p);
  });
  std::vector<py::ssize_t> shape(a.shape.begin(), a.shape.end());
  py::array out(py::dtype(elemName(a.type).str()), shape, a.bytes, keep);
  // Buffers may be shared (a source's file data, other rows): read-only.
  py::detail::array_proxy(out.ptr())->flags &=
      ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return out;
}

/// A tuple of `columns` arrays from what a Python source or op returned.
Row rowFromPython(py::handle result, size_t columns, const std::string &what) {
  Row row;
  if (py::isinstance<py::tuple>(result) || py::isinstance<py::list>(result)) {
    py::sequence seq = py::reinterpret_borrow<py::sequence>(result);
    for (py::handle item : seq)
      row.push_back(arrayFromPython(item, what));
  } else {
    row.push_back(arrayFromPython(result, what));
  }
  if (columns && row.size() != columns)
    throw py::value_error(what + " gave " + std::to_string(row.size()) +
                          " columns, but column_names names " +
                          std::to_string(columns));
  return row;
}

py::tuple rowToPython(const Row &row) {
  py::tuple out(row.size());
  for (size_t i = 0; i < row.size(); ++i)
    out[i] = arrayToPython(row[i]);
  return out;
}

/// Runs `body` (which calls Python) and turns a Python exception into an
/// llvm::Error whose Python original is kept for the iterator.
template <typename T, typename F>
llvm::Expected<T> callPython(const std::string &what, F &&body) {
  py::gil_scoped_acquire gil;
  try {
    return body();
  } catch (py::error_already_set &e) {
    return pythonFailed(what, e);
  } catch (py::builtin_exception &e) {
    // A ValueError / TypeError raised by the conversions here: hand it to
    // Python as such.
    e.set_error();
    py::error_already_set raised;
    return pythonFailed(what, raised);
  } catch (std::exception &e) {
    pendingError().reset();
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   what + ": " + e.what());
  }
}

SamplerOptions samplerOptions(bool shuffle, int64_t numSamples,
                              int64_t numShards, int64_t shardId,
                              uint64_t seed) {
  SamplerOptions opts;
  opts.shuffle = shuffle;
  opts.numSamples = numSamples;
  opts.numShards = numShards;
  opts.shardId = shardId;
  opts.seed = seed;
  return opts;
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

PyOp makeOp(const std::string &name, const py::dict &args) {
  TensorOp op;
  auto get = [&](const char *key) { return args[key]; };
  if (name == "Rescale") {
    op.kind = OpKind::Rescale;
    op.rescale = get("rescale").cast<float>();
    op.shift = get("shift").cast<float>();
  } else if (name == "Normalize") {
    op.kind = OpKind::Normalize;
    op.mean = get("mean").cast<std::vector<float>>();
    op.std = get("std").cast<std::vector<float>>();
    op.isHwc = get("is_hwc").cast<bool>();
  } else if (name == "HWC2CHW") {
    op.kind = OpKind::HWC2CHW;
  } else if (name == "Resize") {
    op.kind = OpKind::Resize;
    op.size = get("size").cast<std::vector<int64_t>>();
    op.interpolation = get("nearest").cast<bool>() ? Interpolation::Nearest
                                                   : Interpolation::Linear;
  } else if (name == "RandomCrop") {
    op.kind = OpKind::RandomCrop;
    op.size = get("size").cast<std::vector<int64_t>>();
    auto padding = get("padding").cast<std::vector<int64_t>>();
    std::copy(padding.begin(), padding.end(), op.padding.begin());
    op.padIfNeeded = get("pad_if_needed").cast<bool>();
    op.fillValue = get("fill_value").cast<std::vector<double>>();
  } else if (name == "RandomHorizontalFlip") {
    op.kind = OpKind::RandomHorizontalFlip;
    op.prob = get("prob").cast<double>();
  } else if (name == "TypeCast") {
    op.kind = OpKind::TypeCast;
    std::string to = get("dtype").cast<std::string>();
    std::optional<ElemType> type = elemFromName(to);
    if (!type)
      throw py::type_error("TypeCast: unsupported data type " + to);
    op.castTo = *type;
  } else if (name == "OneHot") {
    op.kind = OpKind::OneHot;
    op.numClasses = get("num_classes").cast<int64_t>();
    op.smoothingRate = get("smoothing_rate").cast<double>();
  } else {
    throw py::value_error("unknown dataset op " + name);
  }
  return PyOp{op};
}

PyNode makeMapNode(const PyNode &child, const py::list &operations,
                   std::vector<std::string> inputs,
                   std::vector<std::string> outputs, uint64_t seed) {
  std::vector<MapStep> steps;
  for (py::handle item : operations) {
    MapStep step;
    if (py::isinstance<PyOp>(item)) {
      step.op = item.cast<PyOp &>().op;
      step.name = step.op.name();
    } else {
      if (!PyCallable_Check(item.ptr()))
        throw py::type_error("map: operations must be dataset transforms or "
                             "callables, got " +
                             std::string(py::str(py::type::of(item))));
      py::object fn = py::reinterpret_borrow<py::object>(item);
      std::string what = "map: operation " +
                         std::string(py::str(py::repr(fn)));
      step.name = what;
      // Held by the pipeline; freed with the GIL held (see ~PyFn below).
      auto held = std::shared_ptr<py::object>(
          new py::object(fn), [](py::object *o) {
            py::gil_scoped_acquire gil;
            delete o;
          });
      step.python = [held, what](Row in) -> llvm::Expected<Row> {
        return callPython<Row>(what, [&]() -> Row {
          py::tuple args(in.size());
          for (size_t i = 0; i < in.size(); ++i)
            args[i] = arrayToPython(in[i]);
          return rowFromPython((*held)(*args), 0, what);
        });
      };
    }
    steps.push_back(std::move(step));
  }
  return PyNode{unwrap(makeMap(child.node, std::move(steps),
                               std::move(inputs), std::move(outputs), seed))};
}

PyNode makeIndexedPythonSource(int64_t numRows, py::object rowAt,
                               std::vector<std::string> columns,
                               bool shuffle, int64_t numSamples,
                               int64_t numShards, int64_t shardId,
                               uint64_t seed) {
  auto held = std::shared_ptr<py::object>(new py::object(rowAt),
                                          [](py::object *o) {
                                            py::gil_scoped_acquire gil;
                                            delete o;
                                          });
  size_t width = columns.size();
  RowFn fn = [held, width](int64_t i) -> llvm::Expected<Row> {
    std::string what = "GeneratorDataset: source[" + std::to_string(i) + "]";
    return callPython<Row>(what, [&]() -> Row {
      return rowFromPython((*held)(i), width, what);
    });
  };
  return PyNode{makeIndexedSource(
      numRows, std::move(fn), std::move(columns),
      samplerOptions(shuffle, numSamples, numShards, shardId, seed), true)};
}

PyNode makeIterablePythonSource(py::object start, py::object pull,
                                std::vector<std::string> columns,
                                int64_t numSamples) {
  auto hold = [](py::object o) {
    return std::shared_ptr<py::object>(new py::object(std::move(o)),
                                       [](py::object *p) {
                                         py::gil_scoped_acquire gil;
                                         delete p;
                                       });
  };
  auto startFn = hold(std::move(start)), pullFn = hold(std::move(pull));
  size_t width = columns.size();
  auto onStart = [startFn]() -> llvm::Error {
    auto r = callPython<bool>("GeneratorDataset: starting the source",
                              [&]() {
                                (*startFn)();
                                return true;
                              });
    return r ? llvm::Error::success() : r.takeError();
  };
  auto onPull = [pullFn, width](Row &row) -> llvm::Expected<bool> {
    std::string what = "GeneratorDataset: the source";
    return callPython<bool>(what, [&]() {
      py::object item = (*pullFn)();
      if (item.is_none())
        return false;
      row = rowFromPython(item, width, what);
      return true;
    });
  };
  return PyNode{makeIterableSource(onStart, onPull, std::move(columns),
                                   numSamples, true)};
}

/// NumpySlicesDataset's source: the columns are copied into C++ once and
/// rows are views of them, so no Python runs while iterating.
PyNode makeSlicesSource(const py::list &data, std::vector<std::string> columns,
                        bool shuffle, int64_t numSamples, int64_t numShards,
                        int64_t shardId, uint64_t seed) {
  std::vector<Array> arrays;
  int64_t numRows = -1;
  for (size_t c = 0; c < data.size(); ++c) {
    std::string what = "NumpySlicesDataset: column '" + columns[c] + "'";
    Array a = arrayFromPython(data[c], what);
    if (a.rank() == 0)
      throw py::value_error(what + " is a scalar; it needs a first dimension "
                            "to slice");
    if (numRows >= 0 && a.shape[0] != numRows)
      throw py::value_error(what + " has " + std::to_string(a.shape[0]) +
                            " rows, the first column " +
                            std::to_string(numRows));
    numRows = a.shape[0];
    arrays.push_back(std::move(a));
  }
  RowFn rowAt = [arrays](int64_t i) -> llvm::Expected<Row> {
    Row row;
    for (const Array &a : arrays) {
      llvm::ArrayRef<int64_t> item = llvm::ArrayRef(a.shape).drop_front();
      int64_t size = 1;
      for (int64_t d : item)
        size *= d;
      row.push_back(Array::view(a.type, item, a.buffer,
                                a.bytes + i * size * elemSize(a.type)));
    }
    return row;
  };
  return PyNode{makeIndexedSource(
      numRows, std::move(rowAt), std::move(columns),
      samplerOptions(shuffle, numSamples, numShards, shardId, seed), false)};
}

py::array applyOpEagerly(const PyOp &op, py::handle data, uint64_t seed) {
  Array in = arrayFromPython(data, op.op.name());
  Rng rng(seed);
  return arrayToPython(unwrap(applyOp(op.op, in, rng)));
}

/// The runtime's dtype of a pipeline element type (the same twelve).
ms::runtime::DType dtypeOf(ElemType type) {
  using ms::runtime::DType;
  switch (type) {
  case ElemType::Bool: return DType::Bool;
  case ElemType::I8: return DType::I8;
  case ElemType::U8: return DType::U8;
  case ElemType::I16: return DType::I16;
  case ElemType::U16: return DType::U16;
  case ElemType::I32: return DType::I32;
  case ElemType::U32: return DType::U32;
  case ElemType::I64: return DType::I64;
  case ElemType::U64: return DType::U64;
  case ElemType::F16: return DType::F16;
  case ElemType::F32: return DType::F32;
  case ElemType::F64: return DType::F64;
  }
  return DType::F32;
}

/// `a`'s buffer as a HostTensor, when nothing else holds it and it is
/// aligned as HostTensors are (a batch): the Tensor may have it, writable.
std::optional<ms::runtime::HostTensor> adoptAlone(Array &a,
                                                  ms::runtime::DType dtype) {
  bool alone = a.buffer.use_count() == 1 && a.bytes == a.buffer.get() &&
               reinterpret_cast<uintptr_t>(a.bytes) %
                       ms::runtime::HostTensor::kAlignment ==
                   0;
  if (!alone)
    return std::nullopt;
  std::shared_ptr<void> storage(std::const_pointer_cast<void>(a.buffer));
  return ms::runtime::HostTensor::adopt(dtype, a.shape, std::move(storage));
}

/// `a` as a HostTensor of its own dtype: adopted, or else copied.
llvm::Expected<ms::runtime::HostTensor> hostTensorOf(Array &a) {
  ms::runtime::DType dtype = dtypeOf(a.type);
  if (std::optional<ms::runtime::HostTensor> adopted = adoptAlone(a, dtype))
    return std::move(*adopted);
  llvm::Expected<ms::runtime::HostTensor> copy =
      ms::runtime::HostTensor::allocate(dtype, a.shape);
  if (copy && a.byteSize())
    std::memcpy(copy->data(), a.bytes, a.byteSize());
  return copy;
}

class PyIterator {
public:
  PyIterator(const PyNode &root, int64_t numEpochs, bool prefetch,
             size_t depth)
      : it(std::make_unique<Iterator>(root.node, numEpochs, prefetch,
                                      depth)) {}

  /// The next row as a tuple of numpy arrays, or None at the end of an
  /// epoch.
  py::object next() {
    Row row;
    if (!fetch(row))
      return py::none();
    return rowToPython(row);
  }

  /// The next row into `row`, or false at the end of an epoch.
  bool fetch(Row &row) {
    llvm::Expected<bool> more = false;
    if (it->prefetching()) {
      py::gil_scoped_release release;
      more = it->next(row);
    } else {
      more = it->next(row);
    }
    if (!more) {
      std::string message = llvm::toString(more.takeError());
      if (auto pending = std::move(pendingError()))
        throw std::move(*pending);
      raiseMSError(message);
    }
    return *more;
  }

  /// Like next(), with float32/float16/int32/int64 arrays that nothing
  /// else holds (batches) handed over as HostTensors without a copy;
  /// other arrays come as numpy arrays.
  py::object nextForTensors() {
    Row row;
    if (!fetch(row))
      return py::none();
    py::tuple out(row.size());
    for (size_t i = 0; i < row.size(); ++i) {
      Array &a = row[i];
      std::optional<ms::runtime::HostTensor> adopted;
      switch (a.type) {
      case ElemType::F32:
      case ElemType::F16:
      case ElemType::I32:
      case ElemType::I64:
        adopted = adoptAlone(a, dtypeOf(a.type));
        break;
      default:
        break;
      }
      out[i] = adopted ? py::cast(std::move(*adopted)) : arrayToPython(a);
    }
    return out;
  }

  /// Dataset sink mode's next batch, every column a HostTensor, on a
  /// thread that need not hold the GIL; an epoch's end is passed over
  /// (false only once every epoch is consumed, or for an empty epoch).
  llvm::Expected<bool> nextBatch(std::vector<ms::runtime::HostTensor> &batch) {
    Row row;
    llvm::Expected<bool> more = it->next(row);
    if (more && !*more && !it->finished())
      more = it->next(row);
    if (!more || !*more)
      return more;
    for (Array &a : row) {
      llvm::Expected<ms::runtime::HostTensor> t = hostTensorOf(a);
      if (!t)
        return t.takeError();
      batch.push_back(std::move(*t));
    }
    return true;
  }

  bool finished() const { return it->finished(); }
  bool prefetching() const { return it->prefetching(); }

  /// Stops the worker (also done by the destructor).
  void close() {
    py::gil_scoped_release release;
    it.reset();
  }

  ~PyIterator() {
    if (it && it->prefetching()) {
      // The worker never takes the GIL, but joining may wait for a row in
      // flight: let other Python threads run meanwhile.
      py::gil_scoped_release release;
      it.reset();
    }
  }

private:
  std::unique_ptr<Iterator> it;
};

py::object readIdxArray(const std::string &path) {
  auto idx = std::make_shared<ms::runtime::IdxArray>(
      unwrap(ms::runtime::readIdx(path)));
  const char *type = ">u1";
  switch (idx->type) {
  case ms::runtime::IdxType::U8: type = ">u1"; break;
  case ms::runtime::IdxType::I8: type = ">i1"; break;
  case ms::runtime::IdxType::I16: type = ">i2"; break;
  case ms::runtime::IdxType::I32: type = ">i4"; break;
  case ms::runtime::IdxType::F32: type = ">f4"; break;
  case ms::runtime::IdxType::F64: type = ">f8"; break;
  }
  std::vector<py::ssize_t> shape(idx->dims.begin(), idx->dims.end());
  auto *owner = new std::shared_ptr<ms::runtime::IdxArray>(idx);
  py::capsule keep(owner, [](void *p) {
    delete static_cast<std::shared_ptr<ms::runtime::IdxArray> *>(p);
  });
  py::dtype dtype(type);
  py::array big(dtype, shape, idx->data.data(), keep);
  // Native byte order, a fresh writeable array.
  return big.attr("astype")(dtype.attr("newbyteorder")("="));
}

std::vector<NodePtr> nodesOf(const std::vector<PyNode> &children) {
  std::vector<NodePtr> nodes;
  for (const PyNode &c : children)
    nodes.push_back(c.node);
  return nodes;
}

/// The bound classes: pipeline nodes, MNIST data, transforms, iterators.
void registerDataClasses(py::module_ &d) {
  py::class_<PyNode>(d, "Node")
      .def_property_readonly("columns",
                             [](const PyNode &n) { return n.node->columns(); })
      .def("size", [](const PyNode &n) { return n.node->size(); })
      .def_property_readonly(
          "calls_python", [](const PyNode &n) { return n.node->callsPython(); });

  py::class_<PyMnist>(d, "MnistData")
      .def_property_readonly(
          "num_rows", [](const PyMnist &m) { return m.data->numRows(); })
      .def_property_readonly("image_shape", [](const PyMnist &m) {
        return std::vector<int64_t>{m.data->rows, m.data->cols, 1};
      });
  py::class_<PyOp>(d, "TensorOp")
      .def_property_readonly("name", [](const PyOp &o) { return o.op.name(); });
  py::class_<PyIterator>(d, "Iterator")
      .def(py::init<const PyNode &, int64_t, bool, size_t>(),
           py::arg("root"), py::arg("num_epochs"), py::arg("prefetch"),
           py::arg("depth"))
      .def("next", &PyIterator::next)
      .def("next_for_tensors", &PyIterator::nextForTensors)
      .def("close", &PyIterator::close)
      .def_property_readonly("finished", &PyIterator::finished)
      .def_property_readonly("prefetching", &PyIterator::prefetching);
}

/// Reading files and the pipelines' sources.
void registerSources(py::module_ &d) {
  d.def("read_idx", &readIdxArray, py::arg("path"),
        "An IDX file (gzipped or not) as a numpy array in native order");
  d.def(
      "read_mnist",
      [](const std::string &dir, const std::string &usage) {
        py::gil_scoped_release release;
        auto data = readMnist(dir, usage);
        py::gil_scoped_acquire gil;
        return PyMnist{unwrap(std::move(data))};
      },
      py::arg("dataset_dir"), py::arg("usage"));
  d.def(
      "mnist_source",
      [](const PyMnist &data, bool shuffle, int64_t numSamples,
         int64_t numShards, int64_t shardId, uint64_t seed) {
        return PyNode{makeMnistSource(
            data.data,
            samplerOptions(shuffle, numSamples, numShards, shardId, seed))};
      },
      py::arg("data"), py::arg("shuffle"), py::arg("num_samples"),
      py::arg("num_shards"), py::arg("shard_id"), py::arg("seed"));
  d.def("indexed_source", &makeIndexedPythonSource, py::arg("num_rows"),
        py::arg("row_at"), py::arg("columns"), py::arg("shuffle"),
        py::arg("num_samples"), py::arg("num_shards"), py::arg("shard_id"),
        py::arg("seed"));
  d.def("iterable_source", &makeIterablePythonSource, py::arg("start"),
        py::arg("pull"), py::arg("columns"), py::arg("num_samples"));
  d.def("slices_source", &makeSlicesSource, py::arg("data"),
        py::arg("columns"), py::arg("shuffle"), py::arg("num_samples"),
        py::arg("num_shards"), py::arg("shard_id"), py::arg("seed"));
}

/// Transforms and the nodes that map, batch, shuffle, repeat, take, skip,
/// project, rename, zip and concat.
void registerOperations(py::module_ &d) {
  d.def("apply_op", &applyOpEagerly, py::arg("op"), py::arg("data"),
        py::arg("seed"));
  d.def("make_op", &makeOp, py::arg("name"), py::arg("args"));
  d.def("map", &makeMapNode, py::arg("child"), py::arg("operations"),
        py::arg("input_columns"), py::arg("output_columns"), py::arg("seed"));
  d.def("batch", [](const PyNode &c, int64_t n, bool drop) {
    return PyNode{makeBatch(c.node, n, drop)};
  });
  d.def("shuffle", [](const PyNode &c, int64_t n, uint64_t seed) {
    return PyNode{makeShuffle(c.node, n, seed)};
  });
  d.def("repeat", [](const PyNode &c, int64_t n) {
    return PyNode{makeRepeat(c.node, n)};
  });
  d.def("take", [](const PyNode &c, int64_t n) {
    return PyNode{makeTake(c.node, n)};
  });
  d.def("skip", [](const PyNode &c, int64_t n) {
    return PyNode{makeSkip(c.node, n)};
  });
  d.def("project", [](const PyNode &c, std::vector<std::string> columns) {
    return PyNode{unwrap(makeProject(c.node, std::move(columns)))};
  });
  d.def("rename", [](const PyNode &c, std::vector<std::string> inputs,
                     std::vector<std::string> outputs) {
    return PyNode{
        unwrap(makeRename(c.node, std::move(inputs), std::move(outputs)))};
  });
  d.def("zip", [](const std::vector<PyNode> &children) {
    return PyNode{unwrap(makeZip(nodesOf(children)))};
  });
  d.def("concat", [](const std::vector<PyNode> &children) {
    return PyNode{unwrap(makeConcat(nodesOf(children)))};
  });
}

} // namespace

ms::python::BatchSource ms::python::batchSource(py::handle iterator) {
  auto *it = iterator.cast<PyIterator *>();
  return [it](std::vector<ms::runtime::HostTensor> &batch) {
    return it->nextBatch(batch);
  };
}

void ms::python::rethrowPipelineError() {
  if (auto pending = std::move(pendingError()))
    throw std::move(*pending);
}

void ms::python::registerDataset(py::module_ &m) {
  msErrorType = py::object(m.attr("MSError")).release();
  py::module_ d =
      m.def_submodule("data", "C++ dataset pipelines behind msmlir.dataset");
  registerDataClasses(d);
  registerSources(d);
  registerOperations(d);
}
