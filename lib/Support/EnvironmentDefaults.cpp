//===- EnvironmentDefaults.cpp - Runtime settings read from the environment ===//

#include "ms/Support/EnvironmentDefaults.h"

#include <cstdlib>

namespace ms {
namespace runtime {

std::vector<std::pair<std::string, std::string>>
missingDefaults(llvm::ArrayRef<EnvironmentDefault> defaults,
                llvm::function_ref<const char *(const char *)> lookup) {
  std::vector<std::pair<std::string, std::string>> missing;
  for (const EnvironmentDefault &setting : defaults)
    if (!lookup(setting.name))
      missing.emplace_back(setting.name, setting.value);
  return missing;
}

void setMissingDefaults(llvm::ArrayRef<EnvironmentDefault> defaults) {
  for (const auto &[name, value] :
       missingDefaults(defaults, [](const char *n) { return std::getenv(n); }))
    // overwrite = 0: a value set meanwhile (or by the user) wins.
    setenv(name.c_str(), value.c_str(), /*overwrite=*/0);
}

} // namespace runtime
} // namespace ms
