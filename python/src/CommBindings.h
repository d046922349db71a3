//===- CommBindings.h - msmlir.communication's native half ------*- C++ -*-===//

#ifndef MS_PYTHON_COMMBINDINGS_H
#define MS_PYTHON_COMMBINDINGS_H

#include <pybind11/pybind11.h>

namespace ms {
namespace python {

/// Adds the submodule `comm` to `m`; call after MSError and HostTensor are
/// registered.
void registerCommunication(pybind11::module_ &m);

} // namespace python
} // namespace ms

#endif // MS_PYTHON_COMMBINDINGS_H
