#pragma once
/// Files the `tendril` command uses at run time besides itself: the plot script (plot_run.py), the
/// bundled browser viewer (viewer/) and its render driver. They live in a "share" directory:
/// 1. <dir of the executable>/../share/tendril (installed: bin/tendril, share/tendril);
/// 2. <dir of the executable>/../../share/tendril (build tree: apps/cli/tendril, share/tendril).

#include <filesystem>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace tendril::cli {

/// The path of `relative` inside the share directory; throws InputError naming the places looked
/// at if none holds it.
std::filesystem::path share_file(const std::string& relative);

/// The default Python interpreter for the plot scripts: /usr/bin/python3 (Debian's, where
/// python3-matplotlib installs), else python3 on PATH.
std::string default_python();

/// Adds `--python PROGRAM` (default: default_python()) to `command`, stored in `python`.
void add_python_option(CLI::App& command, std::string& python);

/// Exit code of a helper script that found a tool or module missing (it says which on stderr).
constexpr int kExitMissingTool = 3;

/// Runs `argv` (no shell) and returns its exit code: 127 if it could not be started, 128 + n if
/// signal n killed it, -1 if it could not be waited for.
int run_process(const std::vector<std::string>& argv);

/// The error line after helper `program` (e.g. "plot_run.py") ended with `code` (run_process): a
/// missing program or tool (127, kExitMissingTool) names `needs` (what to install), a signal says
/// so (SIGKILL: perhaps out of memory), anything else points to the helper's own message above.
std::string helper_failure(const std::string& program, int code, const std::string& needs);

/// The command's exit code after helper `program` ended with `code`: 0 if it succeeded, else
/// kExitFailedRun after "error: <task> failed: <helper_failure(...)>" on stderr.
int helper_exit_code(const std::string& task, const std::string& program, int code,
                     const std::string& needs);

}  // namespace tendril::cli
