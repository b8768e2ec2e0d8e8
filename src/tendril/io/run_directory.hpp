#pragma once
/// A run directory in the "tendril-run 2" format (docs/output_format.md): .npy arrays appended
/// frame by frame plus run.json (format name and version, tendril version, status, the resolved
/// scene, units, and the list of arrays with shapes and meaning).
///
/// Everything is written into "<out>.tmp-<pid>" and renamed at the end:
/// - finish(): status "completed"; an existing <out> is replaced (only now, on success);
///   <out> and <out>.failed must be new, empty, or earlier runs, else the constructor throws
///   InputError("--out", ...), as it does for the current directory or one of its parents;
/// - fail(message): status "failed" and the message in run.json; the partial directory is renamed
///   to "<out>.failed" (replacing an earlier one), and <out> itself is left untouched;
/// - destroyed without either (an exception unwound through the run): like fail("interrupted").
///
///   io::RunDirectory run("runs/x", "tendril-run", scene.resolved());
///   auto& x = run.add_array("positions", io::NpyType::Float64, {N, 3}, "m", "node positions per saved frame");
///   x.append(q_span);  ...  run.finish();

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "tendril/io/json.hpp"
#include "tendril/io/npy.hpp"

namespace tendril::io {

/// The version string written to run.json ("tendril_version").
const char* tendril_version();

/// Reported after every step of a run (rod or vine simulation).
struct RunProgress {
  long step = 0;          ///< steps done
  long total_steps = 0;   ///< steps planned
  double time = 0.0;      ///< t [s]
  double duration = 0.0;  ///< T [s]
  int iterations = 0;     ///< solver iterations of the last step (Newton for rods, QP for vines)
};

/// How a run ended.
struct RunResult {
  bool ok = false;
  std::string message;          ///< why the run failed (empty on success)
  std::filesystem::path path;   ///< the run directory written (<out> or <out>.failed); empty if none
  long steps = 0;               ///< steps completed
  long frames = 0;              ///< frames saved
};

class RunDirectory {
 public:
  /// Starts a run that will end up in `out`. `kind` names the producer (e.g. "rod", "vine");
  /// `scene` is the resolved scene. Throws InputError if the temporary directory cannot be made.
  RunDirectory(std::filesystem::path out, std::string kind, Json scene);
  RunDirectory(const RunDirectory&) = delete;
  RunDirectory& operator=(const RunDirectory&) = delete;
  ~RunDirectory();

  /// Adds an array "<name>.npy" of shape (frames, frame_shape...) with its unit and meaning.
  /// `frames_axis` names what the first axis counts ("saved frame" or "step").
  NpyAppender& add_array(const std::string& name, NpyType type, std::vector<std::size_t> frame_shape,
                         std::string unit, std::string meaning, std::string frames_axis = "saved frame");
  NpyAppender& array(const std::string& name);
  /// Extra metadata stored under run.json["info"][key] (e.g. node count, topology).
  void set_info(const std::string& key, Json value);
  /// Writes a small extra file (e.g. edges.json) into the run directory.
  void write_text_file(const std::string& name, const std::string& text);

  /// Closes everything with status "completed" and renames to `out` (replacing it). Returns `out`.
  std::filesystem::path finish();
  /// Closes everything with status "failed" and renames to "<out>.failed". Returns that path.
  std::filesystem::path fail(const std::string& message);

  /// The directory being written ("<out>.tmp-<pid>").
  const std::filesystem::path& temporary_path() const { return tmp_; }
  const std::filesystem::path& final_path() const { return out_; }
  bool open() const { return open_; }

 private:
  std::filesystem::path close(const std::string& status, const std::string& message,
                              const std::filesystem::path& destination);
  struct ArrayInfo {
    std::string name, unit, meaning, frames_axis;
    std::unique_ptr<NpyAppender> file;
  };
  std::filesystem::path out_, tmp_;
  std::string kind_;
  Json scene_;
  Json info_ = Json::object();
  std::vector<ArrayInfo> arrays_;
  bool open_ = true;
};

}  // namespace tendril::io
