#pragma once
/// The source tree of this build (examples/, docs/, and ../shared beside it), compiled into every
/// test by tendril_add_test (tests/CMakeLists.txt), so a test finds it however it is started.

#include <filesystem>

namespace tendril::testing {

inline std::filesystem::path source_tree() {
  return TENDRIL_SOURCE_TREE;
}

}  // namespace tendril::testing
