#pragma once
/// A run directory in the "tendril-run 2" format (docs/output_format.md): .npy arrays appended
/// frame by frame plus run.json (format name and version, tendril version, status, the resolved
/// scene, units, and the list of arrays with shapes and meaning).
///
/// Everything is written into "<out>.tmp-<pid>-<n>" (a name that did not exist: mkdir fails on an
/// existing one, which is never touched) and renamed at the end; run.json, written last, lists
/// every file of the run and is the marker that a folder is a run's:
/// - finish(): status "completed"; an existing <out> is swapped out atomically and removed;
/// - fail(message) / stop(...): status "failed" or "interrupted" with the step and time reached;
///   the partial directory becomes "<out>.failed" (replacing an earlier one), <out> is untouched;
/// - destroyed without either (an exception unwound through the run): like stop("failed", ...).
/// <out> and <out>.failed must each be a new path, an empty directory, or a run folder holding
/// exactly the files its run.json lists (nothing else, no subfolder except folders of `tendril
/// plot` output holding exactly what their plots.json lists, replaced with the run); a symbolic
/// link is never followed or replaced. Anything else, and the current directory or one of its
/// parents, makes the constructor throw InputError("--out", what is in the way, ...), and nothing
/// is created. A run that is killed (SIGKILL) leaves its "<out>.tmp-<pid>-<n>"; the next run to the
/// same <out> removes it if process <pid> is gone and it holds only *.npy and *.json files, and
/// lists it in run.json's info.removed_temporaries_of_killed_runs.
///
///   io::RunDirectory run("runs/x", "tendril-run", scene.resolved());
///   auto& x = run.add_array("positions", io::NpyType::Float64, {N, 3}, "m", "node positions per
///   saved frame"); x.append(q_span);  ...  run.finish();

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "tendril/io/json.hpp"
#include "tendril/io/npy.hpp"

namespace tendril::io {

/// The version string written to run.json ("tendril_version").
const char* tendril_version();

/// Makes SIGINT, SIGTERM, SIGHUP and SIGPIPE request a stop instead of killing the process: a run
/// then ends after its current step with status "interrupted" (the `tendril run` command installs
/// this).
void install_stop_handlers();
/// The signal that requested a stop (SIGINT, SIGTERM, SIGHUP, SIGPIPE), or 0.
int stop_signal();

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
  std::string message;         ///< why the run failed (empty on success)
  std::filesystem::path path;  ///< the run directory written (<out> or <out>.failed); empty if none
  long steps = 0;              ///< steps completed
  long frames = 0;             ///< frames saved
  int signal = 0;              ///< the signal that interrupted the run (0: it was not interrupted)
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
  NpyAppender& add_array(const std::string& name, NpyType type,
                         std::vector<std::size_t> frame_shape, std::string unit,
                         std::string meaning, std::string frames_axis = "saved frame");
  NpyAppender& array(const std::string& name);
  /// Extra metadata stored under run.json["info"][key] (e.g. node count, topology).
  void set_info(const std::string& key, Json value);
  /// Writes a small extra file (e.g. edges.json) into the run directory.
  void write_text_file(const std::string& name, const std::string& text);
  /// Lists a file that another program wrote into temporary_path() (e.g. a plot), so it belongs to
  /// the run.
  void adopt_file(const std::string& name);

  /// Closes everything with status "completed" and renames to `out` (replacing it). Returns `out`.
  std::filesystem::path finish();
  /// Closes everything with status "failed" and renames to "<out>.failed". Returns that path.
  std::filesystem::path fail(const std::string& message);
  /// Ends a run that stopped early: `status` "failed" or "interrupted", `message`, and the steps
  /// done and time reached [s] in run.json, renamed to "<out>.failed". Never throws: if even that
  /// cannot be written (a full disk), the temporary directory is removed and the path is empty.
  std::filesystem::path stop(const std::string& status, const std::string& message, long steps_done,
                             double time_reached) noexcept;

  /// Bytes the arrays will hold after `steps` steps and `frames` saved frames (each array by its
  /// frames axis).
  double estimated_bytes(long steps, long frames) const;

  /// The directory being written ("<out>.tmp-<pid>-<n>").
  const std::filesystem::path& temporary_path() const { return tmp_; }
  const std::filesystem::path& final_path() const { return out_; }
  bool open() const { return open_; }

 private:
  std::filesystem::path close(const std::string& status, const std::string& message,
                              const std::filesystem::path& destination, Json progress = Json());
  /// Closes the arrays and writes run.json (`meta` completed with arrays, files, info, scene).
  void write_metadata(Json meta);
  struct ArrayInfo {
    std::string name, unit, meaning, frames_axis;
    std::unique_ptr<NpyAppender> file;
  };
  std::filesystem::path out_, tmp_;
  std::string kind_;
  Json scene_;
  Json info_ = Json::object();
  std::vector<ArrayInfo> arrays_;
  std::vector<std::string> text_files_;
  bool open_ = true;
};

}  // namespace tendril::io
