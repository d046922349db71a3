//===- OpenMPSettings.cpp - How O2's OpenMP threads wait ------------------===//

#include "ms/Runtime/OpenMPSettings.h"

#include <cstdlib>
#include <mutex>

namespace ms {
namespace runtime {

llvm::ArrayRef<OpenMPSetting> openMPDefaults() {
  // See the header: spin without yielding unless oversubscribed.
  static const OpenMPSetting defaults[] = {{"KMP_USE_YIELD", "2"}};
  return defaults;
}

std::vector<std::pair<std::string, std::string>>
missingOpenMPDefaults(llvm::function_ref<const char *(const char *)> lookup) {
  std::vector<std::pair<std::string, std::string>> missing;
  for (const OpenMPSetting &setting : openMPDefaults())
    if (!lookup(setting.name))
      missing.emplace_back(setting.name, setting.value);
  return missing;
}

void configureOpenMPRuntime() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (const auto &[name, value] :
         missingOpenMPDefaults([](const char *n) { return std::getenv(n); }))
      // overwrite = 0: a value set meanwhile (or by the user) wins.
      setenv(name.c_str(), value.c_str(), /*overwrite=*/0);
  });
}

} // namespace runtime
} // namespace ms
