//===- DatasetBindings.h - msmlir.dataset's native half ---------*- C++ -*-===//

#ifndef MS_PYTHON_DATASETBINDINGS_H
#define MS_PYTHON_DATASETBINDINGS_H

#include "ms/Runtime/Memory/HostTensor.h"

#include <pybind11/pybind11.h>

#include "llvm/Support/Error.h"

#include <functional>
#include <vector>

namespace ms {
namespace python {

/// Adds the submodule `data` to `m`; call after MSError is registered.
void registerDataset(pybind11::module_ &m);

/// Dataset sink mode's batches from `iterator` (a data.Iterator), every
/// column as a HostTensor, across epoch ends; callable without the GIL
/// while `iterator` lives. Throws (a cast error) for anything else.
using BatchSource = std::function<llvm::Expected<bool>(
    std::vector<ms::runtime::HostTensor> &batch)>;
BatchSource batchSource(pybind11::handle iterator);

/// Raises the exception a Python callback in a pipeline left pending (an
/// error a BatchSource returned may stand for one), if any.
void rethrowPipelineError();

} // namespace python
} // namespace ms

#endif // MS_PYTHON_DATASETBINDINGS_H
