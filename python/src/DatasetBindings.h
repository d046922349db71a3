//===- DatasetBindings.h - msmlir.dataset's native half ---------*- C++ -*-===//

#ifndef MS_PYTHON_DATASETBINDINGS_H
#define MS_PYTHON_DATASETBINDINGS_H

#include <pybind11/pybind11.h>

namespace ms {
namespace python {

/// Adds the submodule `data` to `m`; call after MSError is registered.
void registerDataset(pybind11::module_ &m);

} // namespace python
} // namespace ms

#endif // MS_PYTHON_DATASETBINDINGS_H
