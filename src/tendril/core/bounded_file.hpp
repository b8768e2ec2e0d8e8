#pragma once
/// Reading a file the user names (a scene, a geometry file, a CSV table) with the limits of
/// docs/limits.md: at most a given number of bytes (so /dev/zero is refused, not read for ever)
/// and, for a pipe, FIFO or device, at most read_timeout_seconds without data (a FIFO without a
/// writer). A leading UTF-8 byte-order mark is skipped.
///
///   std::string text = read_data_file(path, "shells[0].geometry.file", "a MAT-DiSMech geometry
///   text file");

#include <cstddef>
#include <filesystem>
#include <string>

namespace tendril {

/// Limits on every file read (process-wide; the command line may change them before anything is
/// read).
struct InputFileLimits {
  std::size_t max_data_file_bytes = std::size_t{128}
                                    << 20;  ///< a file named by a scene or fit file (128 MiB)
  int read_timeout_seconds = 10;  ///< a pipe or device that sends nothing for this long is refused
};
InputFileLimits& input_file_limits();

/// The bytes of `file` (named at `key`, e.g. a scene key path), read once. InputError naming the
/// key, the file and what is wrong if it cannot be opened, is a directory, holds more than
/// `max_bytes`
/// (`limit_text` says which limit, e.g. "a scene file of at most 16777216 bytes
/// (--max-scene-bytes)"), or is a pipe or device that sends nothing for read_timeout_seconds.
/// `allowed` says what the file should be.
std::string read_bounded_file(const std::filesystem::path& file, const std::string& key,
                              const std::string& allowed, std::size_t max_bytes,
                              const std::string& limit_text);

/// read_bounded_file with the data-file limit (max_data_file_bytes).
std::string read_data_file(const std::filesystem::path& file, const std::string& key,
                           const std::string& allowed);

}  // namespace tendril
