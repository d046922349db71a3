//===- OpenMPSettingsTest.cpp - libomp defaults ms sets -------------------===//

#include "ms/Runtime/Jit/OpenMPSettings.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

using namespace ms::runtime;

namespace {

TEST(OpenMPSettings, SpinsWithoutYieldingByDefault) {
  bool found = false;
  for (const OpenMPSetting &setting : openMPDefaults())
    if (std::strcmp(setting.name, "KMP_USE_YIELD") == 0) {
      EXPECT_STREQ(setting.value, "2");
      found = true;
    }
  EXPECT_TRUE(found);
}

TEST(OpenMPSettings, SetsOnlyWhatTheEnvironmentLacks) {
  std::map<std::string, std::string> env;
  auto lookup = [&](const char *name) -> const char * {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  auto missing = missingOpenMPDefaults(lookup);
  ASSERT_EQ(missing.size(), openMPDefaults().size());
  EXPECT_EQ(missing.front().first, openMPDefaults().front().name);
  EXPECT_EQ(missing.front().second, openMPDefaults().front().value);

  // A user's own value, even an empty one, is kept.
  for (const OpenMPSetting &setting : openMPDefaults())
    env[setting.name] = "";
  EXPECT_TRUE(missingOpenMPDefaults(lookup).empty());
}

TEST(OpenMPSettings, ConfigureKeepsTheUsersValue) {
  // Runs once per process (perhaps already, for another test); either way
  // the value the user set survives.
  setenv("KMP_USE_YIELD", "1", 1);
  configureOpenMPRuntime();
  EXPECT_STREQ(std::getenv("KMP_USE_YIELD"), "1");
  unsetenv("KMP_USE_YIELD");
}

} // namespace
