//===- OpCall.h - One op to run, by name and attributes ---------*- C++ -*-===//
//
// What PyNative dispatches: an op independent of any IR. The executor runs
// it and the kernel cache keys on it, so it has a header of its own that
// neither has to include the other for.
//
//===----------------------------------------------------------------------===//
#ifndef MS_RUNTIME_EXECUTION_OPCALL_H
#define MS_RUNTIME_EXECUTION_OPCALL_H

#include <string>

namespace ms {
namespace runtime {

/// One op to run, independent of any IR: its name ("ms.relu") and its
/// attributes as an MLIR attribute dictionary ("" or "{axis = 1 : i64}").
struct OpCall {
  std::string name;
  std::string attributes;
};

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_EXECUTION_OPCALL_H
