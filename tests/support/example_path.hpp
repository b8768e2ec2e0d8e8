#pragma once
/// The path of an example scene in the source tree (examples/<name>).

#include <filesystem>
#include <string>
#include "support/source_tree.hpp"

namespace tendril::testing {

inline std::filesystem::path example_path(const std::string& name) {
  return source_tree() / "examples" / name;
}

}  // namespace tendril::testing
