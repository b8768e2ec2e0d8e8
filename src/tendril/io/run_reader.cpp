#include "tendril/io/run_reader.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "tendril/core/bounded_file.hpp"
#include "tendril/core/error.hpp"

namespace tendril::io {

namespace fs = std::filesystem;

const NpyArray& RunData::array(const std::string& name) const {
  const auto it = arrays.find(name);
  if (it == arrays.end())
    throw InputError((directory / "run.json").string(), fmt::format("(no array '{}')", name),
                     "a run that records " + name);
  return it->second;
}

RunData read_run_metadata(const fs::path& directory) {
  const fs::path meta_file = directory / "run.json";
  if (!fs::is_directory(directory))
    throw InputError(directory.string(), "(not a directory)",
                     "a run directory written by tendril (run.json + .npy)");
  if (!fs::is_regular_file(meta_file))
    throw InputError(meta_file.string(), "(missing)",
                     "a run directory written by tendril (run.json + .npy)");
  RunData run;
  run.directory = directory;
  constexpr std::size_t kMaxRunJsonBytes = std::size_t{64} << 20;
  const std::string text =
      read_bounded_file(meta_file, "", "a run.json written by tendril", kMaxRunJsonBytes,
                        fmt::format("a run.json of at most {} bytes", kMaxRunJsonBytes));
  try {
    run.meta = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw InputError(meta_file.string(), fmt::format("(unreadable JSON: {})", e.what()),
                     "valid JSON");
  }
  // the header fields a reader must check first (docs/output_format.md)
  try {
    const std::string format = run.meta["format"].as<std::string>();
    const int version = run.meta["format_version"].as<int>();
    // version 2 added shells (info.triangles, xi); version 1 runs read the same way
    if (format != "tendril-run" || (version != 1 && version != 2))
      throw InputError(meta_file.string(), fmt::format("format '{}' version {}", format, version),
                       "format 'tendril-run' version 1 or 2");
    run.kind = run.meta["kind"].as<std::string>();
    run.status = run.meta["status"].as<std::string>();
    for (const YAML::Node& a : run.meta["arrays"]) {
      std::optional<std::vector<std::size_t>> shape;
      if (a["shape"].IsSequence()) shape = a["shape"].as<std::vector<std::size_t>>();
      run.entries.push_back({a["name"].as<std::string>(), a["file"].as<std::string>(),
                             a["unit"].as<std::string>(""), a["meaning"].as<std::string>(""),
                             std::move(shape)});
    }
  } catch (const YAML::Exception& e) {
    throw InputError(
        meta_file.string(), fmt::format("(missing or mistyped field: {})", e.what()),
        "the fields of docs/output_format.md (format, format_version, kind, status, arrays with "
        "whole-number shapes)");
  }
  for (const RunArrayEntry& e : run.entries)
    if (e.file.empty() || e.file.find('/') != std::string::npos ||
        e.file.find('\\') != std::string::npos || e.file == "." || e.file == "..")
      throw InputError(meta_file.string(), fmt::format("array file '{}'", e.file),
                       "a plain file name inside the run");
  return run;
}

RunData read_run(const fs::path& directory) {
  RunData run = read_run_metadata(directory);
  for (const RunArrayEntry& e : run.entries) {
    NpyArray a = read_npy(directory / e.file);
    // the shape in run.json must be the file's shape (a mismatch means a damaged or foreign file)
    if (e.shape && *e.shape != a.shape)
      throw InputError((directory / e.file).string(),
                       fmt::format("shape ({})", fmt::join(a.shape, ", ")),
                       fmt::format("the shape run.json gives: ({})", fmt::join(*e.shape, ", ")));
    run.arrays.emplace(e.name, std::move(a));
  }
  return run;
}

}  // namespace tendril::io
