#include "support/cli_process.hpp"

#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <fstream>
#include <sstream>

#include "support/scratch_dir.hpp"

namespace tendril::robustness {

CliResult run_cli(const std::vector<std::string>& args, const std::filesystem::path& cwd,
                  const CliOptions& options) {
  int in_pipe[2], err_pipe[2];
  if (::pipe(in_pipe) != 0 || ::pipe(err_pipe) != 0) return {};
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(in_pipe[0], STDIN_FILENO);
    ::dup2(err_pipe[1], STDERR_FILENO);
    ::dup2(err_pipe[1], STDOUT_FILENO);
    ::close(in_pipe[1]);
    ::close(err_pipe[0]);
    if (::chdir(cwd.c_str()) != 0) ::_exit(126);
    if (options.file_size_limit >= 0) {
      const rlimit limit{static_cast<rlim_t>(options.file_size_limit),
                         static_cast<rlim_t>(options.file_size_limit)};
      ::setrlimit(RLIMIT_FSIZE, &limit);
    }
    std::vector<char*> argv;
    std::string program = TENDRIL_CLI;
    argv.push_back(program.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(program.c_str(), argv.data());
    ::_exit(127);
  }
  ::close(in_pipe[0]);
  ::close(err_pipe[1]);
  // the scene texts are small: they fit the pipe buffer
  if (!options.stdin_text.empty()) {
    const ssize_t written =
        ::write(in_pipe[1], options.stdin_text.data(), options.stdin_text.size());
    (void)written;
  }
  ::close(in_pipe[1]);
  CliResult r;
  bool signalled = !options.while_running && !options.while_output;
  char buffer[4096];
  for (;;) {
    if (!signalled)
      signalled =
          options.while_running ? options.while_running(pid) : options.while_output(pid, r.err);
    pollfd p{err_pipe[0], POLLIN, 0};
    if (::poll(&p, 1, 10) > 0) {
      const ssize_t got = ::read(err_pipe[0], buffer, sizeof buffer);
      if (got <= 0) break;
      r.err.append(buffer, static_cast<std::size_t>(got));
    }
  }
  ::close(err_pipe[0]);
  int status = 0;
  rusage usage{};
  ::wait4(pid, &status, 0, &usage);
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.peak_kb = usage.ru_maxrss;
  r.cpu_seconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                  1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

void CliTest::SetUp() {
  dir_ = testing::scratch_dir("robustness") /
         ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::filesystem::remove_all(dir_);
  std::filesystem::create_directories(dir_);
  write_text(dir_ / "rod.yaml", kSmallRod);
  write_text(dir_ / "fixed.yaml", kFullyFixedRod);
}

CliOptions CliTest::interrupt_once_written(const std::string& array, int signal) const {
  CliOptions o;
  o.while_running = [this, array, signal](int pid) {
    for (const std::string& e : entries(dir_))
      if (e.find("out.tmp-") == 0 && std::filesystem::exists(dir_ / e / array) &&
          std::filesystem::file_size(dir_ / e / array) > 4096) {
        ::kill(pid, signal);
        return true;
      }
    return false;
  };
  return o;
}

std::string slurp(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text(const std::filesystem::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary) << text;
}

std::vector<std::string> entries(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace tendril::robustness
