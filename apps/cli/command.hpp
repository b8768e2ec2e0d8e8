#pragma once
/// A subcommand of `tendril` that registers itself: main.cpp adds it to the app and, after
/// parsing, calls `run` if it was given. Options live in the closure.

#include <functional>

#include <CLI/CLI.hpp>

namespace tendril::cli {

struct Command {
  CLI::App* app = nullptr;   ///< the subcommand (test with `*app` after parsing)
  std::function<int()> run;  ///< runs it; returns the exit code
};

/// Exit codes shared by every command (see main.cpp).
constexpr int kExitFailedRun = 1;
constexpr int kExitBadInput = 2;

/// Refuses an empty `--out ""` (a shell variable that was not set), which would otherwise mean the
/// default folder: `->check(kNonEmptyPath)`.
inline const CLI::Validator kNonEmptyPath(
    [](const std::string& value) {
      return value.empty() ? std::string(
                                 "got \"\" (an empty path); allowed: a folder path, or no --out "
                                 "for the default")
                           : std::string();
    },
    "PATH");

/// `tendril export RUN_DIR --vtk DIR` (export_command.cpp).
Command add_export_command(CLI::App& app);
/// `tendril fit FIT.yaml [--out DIR] [--jobs N]` (fit_command.cpp).
Command add_fit_command(CLI::App& app);
/// `tendril plot RUN_DIR [--out DIR] [--node I]` (plot_command.cpp).
Command add_plot_command(CLI::App& app);
/// `tendril sweep SCENE --set key=v1,v2,... [--out DIR] [--jobs N]` (sweep_command.cpp).
Command add_sweep_command(CLI::App& app);
/// `tendril view RUN_DIR... [--port P] [--host H]` (view_command.cpp).
Command add_view_command(CLI::App& app);
/// `tendril render RUN_DIR --out movie.mp4 | --png frame.png` (render_command.cpp).
Command add_render_command(CLI::App& app);

}  // namespace tendril::cli
