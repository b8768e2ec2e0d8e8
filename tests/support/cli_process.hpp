#pragma once
/// Runs the `tendril` command as a child process for the robustness tests: exit code, stderr,
/// wall time and peak memory, optionally with a file size limit or a signal sent while it runs.

#include <csignal>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace tendril::robustness {

struct CliResult {
  int exit_code = -1;       ///< exit status, or 128 + signal if killed by one
  std::string err;          ///< stderr and stdout
  double wall_seconds = 0;  ///< wall-clock time of the child
  double cpu_seconds =
      0;  ///< CPU time (user + system) of the child: unlike wall time, not stretched by load
  long peak_kb = 0;  ///< peak resident memory of the child [KiB]
};

struct CliOptions {
  std::string stdin_text;     ///< written to the child's stdin (then closed)
  long file_size_limit = -1;  ///< RLIMIT_FSIZE in bytes (a "full disk" for large files), or -1
  /// Called repeatedly while the child runs (with its pid) until it returns true (e.g. sends a
  /// signal).
  std::function<bool(int pid)> while_running;
  /// The same, with the child's output (stdout and stderr) so far: e.g. a signal once a line
  /// appears.
  std::function<bool(int pid, const std::string& output)> while_output;
};

/// Runs TENDRIL_CLI with `args` in `cwd`.
CliResult run_cli(const std::vector<std::string>& args, const std::filesystem::path& cwd,
                  const CliOptions& options = {});

/// The whole file as text ("" if it is missing).
std::string slurp(const std::filesystem::path& file);
/// Writes `text` to `file`.
void write_text(const std::filesystem::path& file, const std::string& text);
/// Names of the entries of `dir` (sorted).
std::vector<std::string> entries(const std::filesystem::path& dir);

/// A three-node rod, both ends clamped: every DOF is fixed.
inline const char* kFullyFixedRod = R"(duration: 0.01
rods:
  - geometry: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], length: 0.1, num_nodes: 3}
    clamp: both
    material: {E: 1.0e6, nu: 0.5, density: 1000, radius: 0.001}
)";

/// A small cantilever (fast steps).
inline const char* kSmallRod = R"(duration: 0.01
rods:
  - geometry: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], length: 0.1, num_nodes: 5}
    clamp: start
    material: {E: 1.0e6, nu: 0.5, density: 1000, radius: 0.001}
forces:
  gravity: [0, 0, -9.81]
integrator:
  dt: 1.0e-3
)";

/// A fresh folder per test (in the program's scratch folder, removed at exit) holding rod.yaml
/// (kSmallRod) and fixed.yaml (kFullyFixedRod).
class CliTest : public ::testing::Test {
 protected:
  void SetUp() override;
  /// Options that send `signal` to a run to "out" once its temporary folder holds more than 4 KiB
  /// of `array`.
  CliOptions interrupt_once_written(const std::string& array, int signal = SIGINT) const;
  std::filesystem::path dir_;
};

}  // namespace tendril::robustness
