#pragma once
/// Reads a run directory in the "tendril-run" format (version 1 or 2) (docs/output_format.md) back:
/// run.json and every array it lists. Used by the CLI's export, plot and view commands. A damaged
/// run (missing or unparsable run.json, a different format or version, a missing or truncated .npy,
/// an array whose shape disagrees with run.json) throws InputError naming the file and what is
/// wrong.
///
///   const io::RunData run = io::read_run("runs/cantilever_gravity");
///   const io::NpyArray& x = run.array("positions");   // (F, N, 3) [m]

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "tendril/io/npy.hpp"

namespace tendril::io {

/// One entry of run.json["arrays"].
struct RunArrayEntry {
  std::string name;  ///< e.g. "positions"
  std::string file;  ///< file name inside the run directory, e.g. "positions.npy"
  std::string unit;
  std::string meaning;
  std::optional<std::vector<std::size_t>> shape;  ///< as run.json gives it (absent in older runs)
};

struct RunData {
  std::filesystem::path directory;
  YAML::Node meta;                         ///< the whole run.json
  std::string kind;                        ///< "rod" or "vine"
  std::string status;                      ///< "completed" or "failed"
  std::vector<RunArrayEntry> entries;      ///< in run.json order
  std::map<std::string, NpyArray> arrays;  ///< by name

  bool has(const std::string& name) const { return arrays.count(name) != 0; }
  /// The array `name`; throws InputError if the run does not record it.
  const NpyArray& array(const std::string& name) const;
};

/// Reads run.json and its header fields only (no arrays). Throws InputError if it is missing,
/// unparsable, or not "tendril-run" version 1.
RunData read_run_metadata(const std::filesystem::path& directory);

/// Reads run.json and every array it lists, checking each array's shape against run.json.
RunData read_run(const std::filesystem::path& directory);

}  // namespace tendril::io
