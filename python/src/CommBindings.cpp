//===- CommBindings.cpp - pybind11 bindings of the collectives -------------===//
//
// The submodule `_msmlir.comm`: Runtime/Communication/Communication.h for Python. The
// collectives never write their operand: each returns a new HostTensor (an
// operand's buffer may be shared with other Tensors, and one gradient
// buffer may even be two parameters' gradients). They release the GIL while
// they wait for the other ranks.
//
//===----------------------------------------------------------------------===//

#include "CommBindings.h"

#include "ms/Runtime/Communication/Communication.h"
#include "ms/Runtime/Memory/HostTensor.h"

#include <pybind11/stl.h>

#include <cstring>
#include <string>

namespace py = pybind11;
using namespace ms::runtime;

namespace {

py::handle msErrorType; // A module attribute, alive while the module is.

[[noreturn]] void raiseMSError(llvm::Error error) {
  std::string message = llvm::toString(std::move(error));
  PyErr_SetString(msErrorType.ptr(), message.c_str());
  throw py::error_already_set();
}

void check(llvm::Error error) {
  if (error)
    raiseMSError(std::move(error));
}

template <typename T> T unwrap(llvm::Expected<T> value) {
  if (!value)
    raiseMSError(value.takeError());
  return *value;
}

comm::ReduceOp reduceOp(const std::string &name) {
  std::optional<comm::ReduceOp> op = comm::parseReduceOp(name);
  if (!op)
    throw py::value_error("unknown reduce op '" + name +
                          "'; expected 'sum', 'max', 'min' or 'prod'");
  return *op;
}

HostTensor allReduce(const HostTensor &input, const std::string &opName) {
  comm::ReduceOp op = reduceOp(opName);
  HostTensor result = input.clone();
  llvm::Error error = llvm::Error::success();
  {
    py::gil_scoped_release release;
    error = comm::checkRanksAgree({"all_reduce", input.dtype(), input.shape(),
                                   static_cast<int64_t>(op)});
    if (!error)
      error = comm::allReduce(result.data(), result.numElements(),
                              result.dtype(), op);
  }
  check(std::move(error));
  return result;
}

HostTensor allGather(const HostTensor &input) {
  int size = unwrap(comm::groupSize());
  std::vector<int64_t> shape(input.shape().begin(), input.shape().end());
  if (shape.empty())
    shape.push_back(1); // a scalar gathers into a vector of one per rank
  shape[0] *= size;
  HostTensor result(input.dtype(), shape);
  llvm::Error error = llvm::Error::success();
  {
    py::gil_scoped_release release;
    error = comm::checkRanksAgree({"all_gather", input.dtype(), input.shape()});
    if (!error)
      error = comm::allGather(input.data(), result.data(),
                              input.numElements(), input.dtype());
  }
  check(std::move(error));
  return result;
}

HostTensor broadcast(const HostTensor &input, int root) {
  HostTensor result = input.clone();
  llvm::Error error = llvm::Error::success();
  {
    py::gil_scoped_release release;
    error = comm::checkRanksAgree(
        {"broadcast", input.dtype(), input.shape(), root});
    if (!error)
      error = comm::broadcast(result.data(), result.numElements(),
                              result.dtype(), root);
  }
  check(std::move(error));
  return result;
}

} // namespace

void ms::python::registerCommunication(py::module_ &m) {
  msErrorType = m.attr("MSError");
  py::module_ c = m.def_submodule(
      "comm", "Collectives across ranks over MPI (Runtime/Communication/Communication.h)");
  c.def("built_with_mpi", &comm::builtWithMPI);
  c.def("init", [] { check(comm::init()); });
  c.def("is_initialized", &comm::isInitialized);
  c.def("release", [] { check(comm::release()); });
  c.def("rank", [] { return unwrap(comm::rank()); });
  c.def("group_size", [] { return unwrap(comm::groupSize()); });
  c.def("local_rank", [] { return unwrap(comm::localRank()); });
  c.def("all_reduce", &allReduce, py::arg("tensor"), py::arg("op") = "sum",
        "A new tensor: the elementwise reduction of `tensor` over all ranks");
  c.def("all_gather", &allGather, py::arg("tensor"),
        "A new tensor: every rank's `tensor` concatenated along dim 0");
  c.def("broadcast", &broadcast, py::arg("tensor"), py::arg("root"),
        "A new tensor: rank `root`'s `tensor`");
  c.def("barrier", [] {
    llvm::Error error = llvm::Error::success();
    {
      py::gil_scoped_release release;
      error = comm::barrier();
    }
    check(std::move(error));
  });
  c.def("timeout_seconds", &comm::timeoutSeconds);
  c.def("set_deterministic", &comm::setDeterministic, py::arg("on"));
  c.def("is_deterministic", &comm::isDeterministic);
  c.def("stats", [] {
    comm::Stats s = comm::stats();
    py::dict d;
    d["calls"] = s.calls;
    d["bytes"] = s.bytes;
    d["seconds"] = s.seconds;
    d["shared_steps"] = s.sharedSteps;
    return d;
  });
  c.def("reset_stats", &comm::resetStats);
}
