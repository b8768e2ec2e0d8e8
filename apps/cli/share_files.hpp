#pragma once
/// Files the `tendril` command uses at run time besides itself: the plot script (plot_run.py), the
/// bundled browser viewer (viewer/) and its render driver. They live in a "share" directory:
/// 1. $TENDRIL_SHARE_DIR if set;
/// 2. <dir of the executable>/../share/tendril (installed: bin/tendril, share/tendril);
/// 3. <dir of the executable>/../../share/tendril (build tree: apps/cli/tendril, share/tendril).

#include <filesystem>
#include <string>
#include <vector>

namespace tendril::cli {

/// The path of `relative` inside the share directory; throws InputError naming the places looked
/// at if none holds it.
std::filesystem::path share_file(const std::string& relative);

/// The Python interpreter with numpy and matplotlib: $TENDRIL_PYTHON, else /usr/bin/python3
/// (Debian's, where python3-matplotlib installs), else python3 on PATH.
std::string python_interpreter();

/// Runs `argv` (no shell) and returns its exit code; -1 if it could not be started.
int run_process(const std::vector<std::string>& argv);

}  // namespace tendril::cli
