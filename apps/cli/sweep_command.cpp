// `tendril sweep SCENE --set key=v1,v2,... [--set key2=a,b] [--out DIR] [--jobs N] [--scheduler
// ADDR] [--python PROGRAM]`: runs one scene over the grid of all combinations of the --set values,
// each point as its own `tendril run` process (up to N at once, default: all local cores), and
// collects what each run wrote:
//   DIR/points/<k>/          the run directory of point k (or <k>.failed), with <k>.log its output
//   DIR/sweep.csv            one row per point: point, the swept keys, status, message, the robot
//                            observables (run.json info.observables: speed, head_rotation_rate,
//                            tail_rotation_rate, efficiency), wall_time [s] and overrides; the
//                            columns of the Python module's sweep (python3 -m tendril sweep);
//                            written to a temporary file and renamed, so it is never half written
//   DIR/sweep.png            granular_flagella Fig. 6 and 7 style plots (speed, head rotation
//                            rate and efficiency against the first swept key, one curve per other
//                            combination), drawn by the shipped plot_sweep.py with
//                            python3-matplotlib (the --python interpreter, which also runs the
//                            Dask sweep)
// With --scheduler the points run as tasks on that Dask cluster through the Python module (the
// scene path made absolute, so workers in other folders find it); the CSV and plot are the same.
// A point that fails (bad value, failed run) is marked failed with its reason; the others complete.
// Exit code: 0 if every point completed, 1 if some failed (all failed: said on stderr), 2 for bad
// input to the sweep itself.

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "command.hpp"
#include "share_files.hpp"
#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"

namespace tendril::cli {

namespace {

namespace fs = std::filesystem;

struct SweepOptions {
  std::string scene, out, python;
  std::string
      scheduler;  ///< Dask scheduler address: the sweep runs through the Python module there
  std::vector<std::string> sets;
  int jobs = 0;
  bool plot = true;
};

struct Axis {
  std::string key;
  std::vector<std::string> values;
};

/// "key=v1,v2,..." split at commas outside brackets (so [0, 0, -9.81] stays one value).
Axis parse_set(const std::string& assignment, std::size_t index) {
  const std::string option = fmt::format("--set[{}]", index);
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError(option, assignment, "key.path=v1,v2,...");
  Axis axis{assignment.substr(0, eq), {}};
  std::string current;
  int depth = 0;
  for (char c : assignment.substr(eq + 1)) {
    if (c == '[' || c == '{') ++depth;
    if (c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      axis.values.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  axis.values.push_back(current);
  for (const std::string& v : axis.values)
    if (v.find_first_not_of(" \t") == std::string::npos)
      throw InputError(option, assignment, "non-empty values");
  return axis;
}

struct Point {
  std::vector<std::string> values;  ///< one per axis
  std::string status = "failed", message;
  double speed = NAN, head_rate = NAN, tail_rate = NAN, efficiency = NAN, wall = NAN;
};

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c == '\n' ? ' ' : c);
  return out + "\"";
}

/// A CSV number: 9 significant digits, empty when not finite (an observable the run did not reach).
std::string number(double v) {
  return std::isfinite(v) ? number_text(v, 9) : "";
}

/// Reads what point k's process left: run.json of the run (or of its .failed directory), else the
/// last "error:" line of its log.
void collect(Point& p, const fs::path& run_dir, const fs::path& log, int exit_code) {
  for (const fs::path& dir : {run_dir, fs::path(run_dir.string() + ".failed")}) {
    if (!fs::exists(dir / "run.json")) continue;
    try {
      const YAML::Node run = YAML::LoadFile((dir / "run.json").string());
      p.status = run["status"].as<std::string>();
      p.message = run["message"] ? run["message"].as<std::string>() : "";
      const YAML::Node o = run["info"]["observables"];
      auto get = [&](const char* key) {
        return o && o[key] && !o[key].IsNull() ? o[key].as<double>() : NAN;
      };
      p.speed = get("speed");
      p.head_rate = get("head_rotation_rate");
      p.tail_rate = get("tail_rotation_rate");
      p.efficiency = get("efficiency");
      if (p.status == "completed" && exit_code != 0) p.status = "failed";
      return;
    } catch (const YAML::Exception& e) {
      p.message = "unreadable run.json: " + std::string(e.what());
      return;
    }
  }
  std::ifstream in(log);
  std::string line, error;
  while (std::getline(in, line))
    if (line.rfind("error:", 0) == 0) error = line.substr(7);
  p.status = "failed";
  p.message = error.empty()
                  ? fmt::format("tendril run exited with code {} (see {})", exit_code, log.string())
                  : error;
}

/// Starts `argv` with stdout and stderr to `log`; returns its pid (-1 on failure).
pid_t spawn(const std::vector<std::string>& argv, const fs::path& log) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid != 0) return pid;
  const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    dup2(fd, 1);
    dup2(fd, 2);
    close(fd);
  }
  execv(args[0], args.data());
  _exit(127);
}

/// The sweep on a Dask cluster: the Python module's sweep (tendril.sweep, docs/python.md) with the
/// same grid and CSV columns. Its exit code: 0, kExitFailedRun (some or all points failed) or
/// kExitBadInput.
int sweep_on_dask(const SweepOptions& o, const fs::path& out) {
  std::vector<std::string> command = {
      o.python, "-m",         "tendril",     "sweep",    fs::absolute(o.scene).string(),
      "--out",  out.string(), "--scheduler", o.scheduler};
  for (const std::string& set : o.sets) command.insert(command.end(), {"--set", set});
  const int code = run_process(command);
  return code == 0 ? 0 : code == 1 ? kExitFailedRun : kExitBadInput;
}

/// "k1=v1;k2=v2": the point's overrides, as the Python sweep writes them (how it resumes a sweep).
std::string overrides_text(const std::vector<Axis>& axes, const Point& p) {
  std::string text;
  for (std::size_t a = 0; a < axes.size(); ++a)
    text += (a ? ";" : "") + axes[a].key + "=" + p.values[a];
  return text;
}

/// Writes DIR/sweep.csv whole, then renames it into place.
void write_csv(const fs::path& out, const std::vector<Axis>& axes,
               const std::vector<Point>& points) {
  const fs::path csv = out / "sweep.csv", tmp = out / "sweep.csv.tmp";
  {
    std::ofstream f(tmp);
    f << "point";
    for (const Axis& a : axes) f << "," << csv_field(a.key);
    f << ",status,message,speed,head_rotation_rate,tail_rotation_rate,efficiency,wall_time,"
         "overrides\n";
    for (std::size_t k = 0; k < points.size(); ++k) {
      const Point& p = points[k];
      f << k;
      for (const std::string& v : p.values) f << "," << csv_field(v);
      f << "," << p.status << "," << csv_field(p.message) << "," << number(p.speed) << ","
        << number(p.head_rate) << "," << number(p.tail_rate) << "," << number(p.efficiency) << ","
        << number(p.wall) << "," << csv_field(overrides_text(axes, p)) << "\n";
    }
    if (!f.flush()) throw InputError("--out", tmp.string(), "a writable directory");
  }
  fs::rename(tmp, csv);
}

/// The sweep on local processes: one `tendril run` per point, at most `jobs` at once.
int sweep_locally(const SweepOptions& o, const std::vector<Axis>& axes, const fs::path& out) {
  const int jobs = o.jobs > 0 ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  const fs::path points_dir = out / "points";
  fs::create_directories(points_dir);

  // the grid: the last axis varies fastest
  std::vector<Point> points(1);
  for (const Axis& axis : axes) {
    std::vector<Point> grown;
    for (const Point& p : points)
      for (const std::string& v : axis.values) {
        Point q = p;
        q.values.push_back(v);
        grown.push_back(q);
      }
    points = std::move(grown);
  }
  std::error_code ec;
  const std::string self = fs::read_symlink("/proc/self/exe", ec).string();
  if (ec)
    throw InputError("tendril", "(cannot find its own executable)", "a readable /proc/self/exe");

  // run the points, at most `jobs` at once
  std::map<pid_t, std::pair<std::size_t, std::chrono::steady_clock::time_point>> running;
  std::size_t next = 0, done = 0;
  auto name = [](std::size_t k) { return fmt::format("{:04d}", k); };
  while (done < points.size()) {
    while (next < points.size() && static_cast<int>(running.size()) < jobs) {
      std::vector<std::string> argv = {self, "run", o.scene, "--out",
                                       (points_dir / name(next)).string()};
      for (std::size_t a = 0; a < axes.size(); ++a) {
        argv.push_back("--set");
        argv.push_back(axes[a].key + "=" + points[next].values[a]);
      }
      const pid_t pid = spawn(argv, points_dir / (name(next) + ".log"));
      if (pid < 0) {
        points[next].message = "could not start a process";
        ++done;
      } else {
        running[pid] = {next, std::chrono::steady_clock::now()};
      }
      ++next;
    }
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) break;
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    const auto [k, start] = it->second;
    running.erase(it);
    Point& p = points[k];
    p.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    collect(p, points_dir / name(k), points_dir / (name(k) + ".log"), code);
    ++done;
    std::printf("point %s (%zu/%zu): %s%s\n", name(k).c_str(), done, points.size(),
                p.status.c_str(), p.status == "completed" ? "" : (": " + p.message).c_str());
    std::fflush(stdout);
  }

  write_csv(out, axes, points);
  std::size_t failed = 0;
  for (const Point& p : points) failed += p.status != "completed";
  std::printf("%zu points (%zu failed) in %s\n", points.size(), failed,
              (out / "sweep.csv").string().c_str());
  if (failed == points.size())
    std::fprintf(stderr, "error: all %zu points of the sweep failed; the first: %s\n",
                 points.size(), points.front().message.c_str());
  return failed == 0 ? 0 : kExitFailedRun;
}

/// DIR/sweep.png from DIR/sweep.csv (a warning if matplotlib is missing).
void plot(const fs::path& out, const std::string& python) {
  const fs::path csv = out / "sweep.csv", png = out / "sweep.png";
  const int code =
      run_process({python, share_file("plot_sweep.py").string(), csv.string(), png.string()});
  if (code != 0)
    std::fprintf(stderr, "warning: plotting failed (%s exited with %d; it needs matplotlib)\n",
                 python.c_str(), code);
  else
    std::printf("plot: %s\n", png.string().c_str());
}

int sweep(const SweepOptions& o) {
  if (!fs::exists(o.scene)) throw InputError("scene", o.scene, "an existing scene file");
  if (o.sets.empty()) throw InputError("--set", "(absent)", "at least one key.path=v1,v2,...");
  std::vector<Axis> axes;
  for (std::size_t i = 0; i < o.sets.size(); ++i) axes.push_back(parse_set(o.sets[i], i));
  const fs::path out =
      o.out.empty() ? fs::path("sweeps") / fs::path(o.scene).stem() : fs::path(o.out);
  const int code = o.scheduler.empty() ? sweep_locally(o, axes, out) : sweep_on_dask(o, out);
  if (o.plot && code != kExitBadInput && fs::exists(out / "sweep.csv")) plot(out, o.python);
  return code;
}

}  // namespace

Command add_sweep_command(CLI::App& app) {
  auto o = std::make_shared<SweepOptions>();
  CLI::App* cmd = app.add_subcommand("sweep",
                                     "Run a scene over a grid of --set values on all local cores; "
                                     "one CSV of the observables and a plot");
  cmd->add_option("scene", o->scene, "Scene file (YAML or JSON)")->required();
  cmd->add_option("--set", o->sets, "key.path=v1,v2,... (one axis of the grid; repeat for more)");
  cmd->add_option("--out", o->out, "Output directory (default: sweeps/<scene name>)")
      ->check(kNonEmptyPath);
  cmd->add_option("--jobs", o->jobs, "Processes at once (default: all local cores)");
  cmd->add_flag("!--no-plot", o->plot, "Do not draw sweep.png");
  cmd->add_option(
      "--scheduler", o->scheduler,
      "Dask scheduler address (tcp://HOST:PORT): run the points on that cluster through the Python "
      "module (python3 -m tendril sweep); the same CSV and plot");
  add_python_option(*cmd, o->python);
  return {cmd, [o] { return sweep(*o); }};
}

}  // namespace tendril::cli
