//===- Npy.h - NumPy .npy file reading and writing --------------*- C++ -*-===//
//
// Reads and writes the NumPy .npy format (versions 1.0, 2.0 and 3.0) for the
// dtypes HostTensor supports. Only little-endian, C-order arrays are handled.
// Every error is a single line starting with the file path.
//
//===----------------------------------------------------------------------===//

#ifndef MS_RUNTIME_FORMATS_NPY_H
#define MS_RUNTIME_FORMATS_NPY_H

#include "ms/Runtime/Memory/HostTensor.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace ms {
namespace runtime {

/// Reads a .npy file holding a '<f4', '<f2', '<i4' or '<i8' C-order array.
llvm::Expected<HostTensor> readNpy(llvm::StringRef path);

/// Writes `tensor` as a version 1.0 .npy file (2.0 if the header would not
/// fit), readable by numpy.load.
llvm::Error writeNpy(llvm::StringRef path, const HostTensor &tensor);

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_FORMATS_NPY_H
