#pragma once
/// The path of an example scene in the source tree (examples/<name>), found through the
/// TENDRIL_SOURCE_DIR environment variable that ctest sets for every test (tests/CMakeLists.txt).

#include <cstdlib>
#include <filesystem>
#include <string>

namespace tendril::testing {

inline std::filesystem::path example_path(const std::string& name) {
  const char* source = std::getenv("TENDRIL_SOURCE_DIR");
  return std::filesystem::path(source ? source : ".") / "examples" / name;
}

}  // namespace tendril::testing
