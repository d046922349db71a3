//===- EnvironmentDefaults.h - Runtime settings read from the environment -*- C++ -*-===//
//
// libomp and OpenMPI read their tuning from environment variables when they
// initialize. ms sets a few such variables to the values it was measured
// with (OpenMPSettings.h, Communication.h say which and why), before the
// library initializes, and never overrides a variable the user set, even
// to an empty value.
//
//===----------------------------------------------------------------------===//

#ifndef MS_SUPPORT_ENVIRONMENTDEFAULTS_H
#define MS_SUPPORT_ENVIRONMENTDEFAULTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>
#include <utility>
#include <vector>

namespace ms {
namespace runtime {

struct EnvironmentDefault {
  const char *name;
  const char *value;
};

/// The entries of `defaults` that `lookup` (getenv, or a stand-in in tests)
/// does not already set, as (name, value) pairs.
std::vector<std::pair<std::string, std::string>>
missingDefaults(llvm::ArrayRef<EnvironmentDefault> defaults,
                llvm::function_ref<const char *(const char *)> lookup);

/// Sets the entries of `defaults` the process environment lacks.
void setMissingDefaults(llvm::ArrayRef<EnvironmentDefault> defaults);

} // namespace runtime
} // namespace ms

#endif // MS_SUPPORT_ENVIRONMENTDEFAULTS_H
