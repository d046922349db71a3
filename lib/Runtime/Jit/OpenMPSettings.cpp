//===- OpenMPSettings.cpp - How O2's OpenMP threads wait ------------------===//

#include "ms/Runtime/Jit/OpenMPSettings.h"

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
  return missingDefaults(openMPDefaults(), lookup);
}

void configureOpenMPRuntime() {
  static std::once_flag once;
  std::call_once(once, [] { setMissingDefaults(openMPDefaults()); });
}

} // namespace runtime
} // namespace ms
