#pragma once
/// Files of one fuzzer process (a folder under /tmp, removed at exit): the harnesses write each
/// input into the files a scene or fit file names and read them through the real loaders.

#include <filesystem>
#include <string>

namespace tendril::fuzz {

/// The process's folder ("/tmp/tendril-fuzz-<pid>"), created on first use and removed at exit.
const std::filesystem::path& fuzz_folder();

/// Writes `text` to `name` in fuzz_folder() and returns its path.
std::filesystem::path write_fuzz_file(const std::string& name, const std::string& text);

}  // namespace tendril::fuzz
