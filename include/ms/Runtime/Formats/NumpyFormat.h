//===- NumpyFormat.h - Print tensors the way NumPy does ---------*- C++ -*-===//
//
// Lets tool output be compared textually with `print(array)` from Python.
//
//===----------------------------------------------------------------------===//

#ifndef MS_RUNTIME_FORMATS_NUMPYFORMAT_H
#define MS_RUNTIME_FORMATS_NUMPYFORMAT_H

#include "ms/Runtime/Memory/HostTensor.h"

#include <string>

namespace ms {
namespace runtime {

/// Returns exactly what `print(a)` (i.e. str(a)) prints for the equivalent
/// NumPy array under NumPy's default print options (precision=8,
/// floatmode='maxprec', linewidth=75, threshold=1000, edgeitems=3), without
/// a trailing newline. Rank-0 tensors print like the NumPy scalar.
///
/// f16 follows float16 semantics: digits are the shortest that round-trip
/// through float16, as NumPy prints them. An invalid tensor prints as "".
std::string formatLikeNumpy(const HostTensor &tensor);

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_FORMATS_NUMPYFORMAT_H
