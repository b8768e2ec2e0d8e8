#include "share_files.hpp"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "command.hpp"
#include "tendril/core/error.hpp"

namespace tendril::cli {

namespace fs = std::filesystem;

std::filesystem::path share_file(const std::string& relative) {
  std::vector<fs::path> roots;
  std::error_code ec;
  const fs::path exe_dir = fs::read_symlink("/proc/self/exe", ec).parent_path();
  if (!ec) {
    roots.push_back(exe_dir / ".." / "share" / "tendril");
    roots.push_back(exe_dir / ".." / ".." / "share" / "tendril");
  }
  std::string looked;
  for (const fs::path& root : roots) {
    const fs::path candidate = (root / relative).lexically_normal();
    if (fs::exists(candidate)) return candidate;
    looked += (looked.empty() ? "" : ", ") + candidate.string();
  }
  throw InputError(relative, fmt::format("(not found; looked in {})", looked),
                   "an installed or built tendril (bin/tendril beside share/tendril)");
}

std::string default_python() {
  return access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
}

void add_python_option(CLI::App& command, std::string& python) {
  python = default_python();
  command
      .add_option("--python", python,
                  "Python interpreter with numpy and matplotlib that draws the plots")
      ->capture_default_str();
}

int run_process(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    execvp(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return -1;
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string helper_failure(const std::string& program, int code, const std::string& needs) {
  if (code == 127 || code == kExitMissingTool)
    return program + " could not run (exit " + std::to_string(code) + "): it needs " + needs;
  if (code > 128)
    return program + " was killed by signal " + std::to_string(code - 128) +
           (code - 128 == SIGKILL ? " (out of memory? the kernel's OOM killer sends SIGKILL)" : "");
  return program + " failed (exit " + std::to_string(code) + "): its message is above";
}

int helper_exit_code(const std::string& task, const std::string& program, int code,
                     const std::string& needs) {
  if (code == 0) return 0;
  std::fprintf(stderr, "error: %s failed: %s\n", task.c_str(),
               helper_failure(program, code, needs).c_str());
  return kExitFailedRun;
}

}  // namespace tendril::cli
