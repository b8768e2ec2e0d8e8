#include "fuzz_files.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>

namespace tendril::fuzz {

const std::filesystem::path& fuzz_folder() {
  static const std::filesystem::path folder = [] {
    const std::filesystem::path f =
        std::filesystem::temp_directory_path() / ("tendril-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(f);
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(fuzz_folder(), ec);
    });
    return f;
  }();
  return folder;
}

std::filesystem::path write_fuzz_file(const std::string& name, const std::string& text) {
  const std::filesystem::path file = fuzz_folder() / name;
  std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
  return file;
}

}  // namespace tendril::fuzz
