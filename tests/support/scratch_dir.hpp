#pragma once
/// A folder of the test program's own in the system temp folder ("tendril_<tag>_<pid>"), removed
/// with everything in it when the program ends (also after failed tests), so tests leave nothing
/// behind in the temp folder.
///
///   const fs::path out = tendril::testing::scratch_dir("sim") / "run";

#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>
#include <system_error>

namespace tendril::testing {

/// The folder for `tag` (created on first use; one per tag and process).
inline std::filesystem::path scratch_dir(const std::string& tag) {
  struct Folders {
    std::map<std::string, std::filesystem::path> paths;
    ~Folders() {
      std::error_code ec;
      for (const auto& [unused, path] : paths) std::filesystem::remove_all(path, ec);
    }
  };
  static Folders folders;
  auto [it, inserted] =
      folders.paths.try_emplace(tag, std::filesystem::temp_directory_path() /
                                         ("tendril_" + tag + "_" + std::to_string(::getpid())));
  std::filesystem::create_directories(it->second);
  return it->second;
}

}  // namespace tendril::testing
