// `tendril fit FIT.yaml [--out DIR] [--jobs N] [--no-plot]`: fits scene parameters to measurements
// as the fit file says (fit/fit_file.hpp, docs/physics/fitting.md). Prints one line per iteration
// (objective, constraint violation, dual infeasibility, step, damping, runs, values) and writes the
// fit directory atomically with the rules of run directories (io/run_directory.hpp: the same --out
// refusals):
//   DIR/fit.json        method, status and reason, fitted values with one-sigma uncertainties,
//   costs,
//                       and the method's own results (joint_estimation: IPOPT's status, ...)
//   DIR/history.csv     one row per iteration
//   DIR/residuals.csv   measured against simulated at the fitted values, per experiment (the vine
//                       methods: per frame and point, fit/fit_points_csv.hpp)
//   DIR/trajectory/     the vine methods: the fitted run (a vine or vine3d run folder the viewer
//                       opens)
//   DIR/measured/       the vine methods: the measured frames as a vine or vine3d run folder
//   DIR/fit.png         objective per iteration and measured against simulated (plot_fit.py,
//   matplotlib) DIR/points.png      the vine methods: measured and simulated points per frame
//   (plot_fit_points.py) DIR/run.json        the folder's manifest (kind "fit", the resolved fit
//   file as its scene)
// A fit that does not converge keeps what it has in DIR.failed and exits 1 with the solver's
// reason; SIGINT / SIGTERM stop it at its next iteration (DIR.failed, status "interrupted", exit
// 130 / 143); a bad fit file exits 2 naming the key, the value and file:line:column.

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "command.hpp"
#include "share_files.hpp"
#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"
#include "tendril/fit/fit_methods.hpp"
#include "tendril/fit/fitted_trajectory.hpp"
#include "tendril/fit/scene_run_evaluator.hpp"
#include "tendril/fit/vine3d_fit_file.hpp"
#include "tendril/fit/vine3d_fitted_trajectory.hpp"
#include "tendril/io/run_directory.hpp"

namespace tendril::cli {

namespace {

namespace fs = std::filesystem;

struct FitOptions {
  std::string file, out, python;
  int jobs = 0;
  bool plot = true;
};

/// Thrown by the progress callback once SIGINT or SIGTERM requested a stop (io::stop_signal()).
struct FitInterrupted {
  int signal = 0;
  int iteration = 0;  ///< the last iteration reported
};

/// The parameters' names as the history's columns (joint_estimation per joint: known after the fit,
/// so its rows have no values).
std::vector<std::string> parameter_names(const fit::FitFile& file) {
  std::vector<std::string> names;
  for (const fit::FitParameter& p : file.parameters) names.push_back(p.key);
  return names;
}

/// One progress line (kept in `lines`, printed); throws FitInterrupted once SIGINT or SIGTERM
/// asked to stop (the runs in flight stop early; the fit ends there).
void print_line(const fit::FitIteration& h, std::vector<fit::FitIteration>& lines) {
  lines.push_back(h);
  if (io::stop_signal() != 0) throw FitInterrupted{io::stop_signal(), h.iteration};
  std::string values;
  for (Eigen::Index j = 0; j < h.values.size(); ++j) values += " " + number_text(h.values[j], 7);
  const std::string dual =
      std::isnan(h.dual_infeasibility) ? "-" : fmt::format("{:.3e}", h.dual_infeasibility);
  // x: a rejected trial, t: a step of the trust-region pass, r: IPOPT's restoration phase
  const char mark = !h.accepted ? 'x' : h.trust_region ? 't' : h.restoration ? 'r' : ' ';
  std::printf("%4d%c %15.8e %11.3e %11s %11.3e %10.3e %6ld %s\n", h.iteration, mark, h.objective,
              h.constraint_violation, dual.c_str(), h.step_norm, h.damping, h.runs, values.c_str());
  std::fflush(stdout);
}

/// fit.png (plot_fit.py) and, for the vine methods, points.png (plot_fit_points.py) into the fit
/// directory; a plot that fails is a warning.
void draw_plots(io::RunDirectory& dir, const fit::FitReport& report, const std::string& method,
                const std::string& python) {
  const fs::path tmp = dir.temporary_path();
  std::vector<std::pair<std::string, std::vector<std::string>>> plots = {
      {"fit.png",
       {python, share_file("plot_fit.py").string(), tmp.string(), (tmp / "fit.png").string()}}};
  if (report.frame_points)
    plots.push_back({"points.png",
                     {python, share_file("plot_fit_points.py").string(),
                      (tmp / "residuals.csv").string(), (tmp / "points.png").string(), method}});
  for (const auto& [png, command] : plots) {
    const int code = run_process(command);
    if (code == 0 && fs::exists(tmp / png))
      dir.adopt_file(png);
    else
      std::fprintf(stderr, "warning: plotting %s failed: %s\n", png.c_str(),
                   helper_failure(command[1], code,
                                  "numpy and matplotlib: apt-get install python3-matplotlib")
                       .c_str());
  }
}

/// The fitted run `run` (written as DIR/trajectory) adopted into the fit directory, or, if it
/// failed, kept as trajectory.failed with a warning.
void adopt_trajectory(io::RunDirectory& dir, const io::RunResult& run) {
  if (run.ok) {
    dir.adopt_file("trajectory");
    return;
  }
  std::fprintf(stderr, "warning: the fitted trajectory's run failed: %s\n", run.message.c_str());
  if (!run.path.empty()) dir.adopt_file(run.path.filename().string());
}

/// vine3d_shooting's fitted trajectory as DIR/trajectory and its tracked points as DIR/measured
/// (vine3d run folders).
void write_vine3d_trajectory(io::RunDirectory& dir, const fit::FitFile& file,
                             const fit::FitReport& report) {
  fit::write_measured_vine3d_run(file, dir.temporary_path() / "measured");
  dir.adopt_file("measured");
  adopt_trajectory(
      dir, fit::write_fitted_vine3d_trajectory(file, report, dir.temporary_path() / "trajectory"));
}

/// The vine methods' fitted trajectory as DIR/trajectory and the measured frames as DIR/measured
/// (vine run folders); a run that fails is kept as trajectory.failed with a warning.
void write_trajectory(io::RunDirectory& dir, const fit::FitFile& file,
                      const fit::FitReport& report) {
  if (fit::write_measured_run(file, dir.temporary_path() / "measured").empty())
    std::fprintf(stderr,
                 "warning: the measured frames have different numbers of points: no measured/ "
                 "run folder (residuals.csv and points.png hold them)\n");
  else
    dir.adopt_file("measured");
  if (const std::string key = fit::unwritable_trajectory_key(file); !key.empty()) {
    std::fprintf(stderr,
                 "warning: no trajectory/ run folder: this fit estimates %s, a sample of the "
                 "growth table read from vine.growth.table_csv, which no scene override sets\n",
                 key.c_str());
    return;
  }
  adopt_trajectory(dir,
                   fit::write_fitted_trajectory(file, report, dir.temporary_path() / "trajectory"));
}

int fit(const FitOptions& o) {
  io::install_stop_handlers();
  const fit::FitFile file = fit::read_fit_file(o.file);
  const fit::FitMethod& method = fit::fit_method(file.method);
  const fs::path out = o.out.empty() ? fs::path("fits") / fs::path(o.file).stem() : fs::path(o.out);
  const int jobs = o.jobs > 0 ? o.jobs
                   : file.jobs > 0
                       ? file.jobs
                       : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  io::RunDirectory dir(out, "fit", file.resolved);  // checks --out before any run

  std::printf("fitting %zu parameter(s) of %s to %zu experiment(s) of %s by %s on %d thread(s)\n",
              file.parameters.size(), file.scene.string().c_str(), file.data.experiments.size(),
              file.data_csv.string().c_str(), file.method.c_str(), jobs);
  std::printf("%5s %15s %11s %11s %11s %10s %6s  values\n", "iter", "objective", "constr.viol",
              "dual.inf", "step", "lambda", "runs");
  fit::FitContext context;
  context.evaluate = fit::thread_pool_evaluator(file.scene, file.data.observables, jobs);
  context.jobs = jobs;
  std::vector<fit::FitIteration>
      lines;  // every line reported, kept in DIR.failed if the fit stops early
  context.progress = [&lines](const fit::FitIteration& h) { print_line(h, lines); };
  const std::vector<std::string> names = parameter_names(file);
  // a stop requested by SIGINT / SIGTERM, as `tendril run` reports it: status "interrupted" in
  // DIR.failed/run.json with the history so far, exit 128 + signal
  const auto interrupted = [&](FitInterrupted stop) {
    const std::string message =
        fmt::format("interrupted by signal {} after iteration {}", stop.signal, stop.iteration);
    dir.write_text_file("history.csv", fit::history_csv(names, lines));
    const fs::path kept = dir.stop("interrupted", message, stop.iteration, 0.0);
    std::fprintf(stderr, "error: fit %s\n  %s\n", message.c_str(),
                 kept.empty() ? "nothing could be kept"
                              : ("the fit folder is kept in " + kept.string()).c_str());
    return 128 + stop.signal;
  };
  fit::FitReport report;
  try {
    report = method.run(file, context);
  } catch (const FitInterrupted& stop) {
    return interrupted(stop);
  } catch (const InputError&) {
    throw;                             // bad input: exit 2, nothing kept
  } catch (const std::exception& e) {  // a numerical failure: what the fit did is kept
    dir.write_text_file("history.csv", fit::history_csv(names, lines));
    const fs::path kept = dir.fail(e.what());
    std::fprintf(stderr, "error: the fit failed: %s\n  its history is kept in %s\n", e.what(),
                 kept.string().c_str());
    return kExitFailedRun;
  }
  // (the runs in flight stopped early and failed, so the method may have ended before its next
  // report)
  if (io::stop_signal() != 0) return interrupted({io::stop_signal(), report.iterations});

  dir.write_text_file("fit.json", fit::fit_json(file.method, report).dump() + "\n");
  dir.write_text_file("history.csv", fit::history_csv(report.names, report.history));
  dir.write_text_file("residuals.csv", report.residuals_csv);
  if (fit::is_vine_method(file.method)) write_trajectory(dir, file, report);
  if (fit::is_vine3d_method(file.method)) write_vine3d_trajectory(dir, file, report);
  if (o.plot) draw_plots(dir, report, file.method, o.python);
  std::fputs(fit::fit_summary(report).c_str(), stdout);
  if (!report.converged) {
    const fs::path kept = dir.fail(report.message);
    std::fprintf(stderr, "error: the fit failed: %s\n  what it reached is kept in %s\n",
                 report.message.c_str(), kept.string().c_str());
    return kExitFailedRun;
  }
  std::printf("fit written to %s\n", dir.finish().string().c_str());
  return 0;
}

}  // namespace

Command add_fit_command(CLI::App& app) {
  auto o = std::make_shared<FitOptions>();
  std::string methods;
  for (const fit::FitMethod& m : fit::fit_methods()) methods += "\n  " + m.name + ": " + m.summary;
  CLI::App* cmd = app.add_subcommand(
      "fit",
      "Fit scene parameters to measurements (FIT.yaml: scene, parameters, data CSV, method; "
      "docs/physics/"
      "fitting.md); writes fitted values with uncertainties, history, residuals and a plot");
  cmd->footer("Methods:" + methods);
  cmd->add_option("fit_file", o->file,
                  "Fit file (YAML; keys in docs/scene_reference.md, \"Fit files\")")
      ->required();
  cmd->add_option("--out", o->out,
                  "Fit directory (default: fits/<fit file name>); the rules of tendril run --out")
      ->check(kNonEmptyPath);
  cmd->add_option("--jobs", o->jobs,
                  "Runs at once on worker threads (default: options.jobs, else all local cores)");
  cmd->add_flag("!--no-plot", o->plot, "Do not draw fit.png");
  add_python_option(*cmd, o->python);
  return {cmd, [o] { return fit(*o); }};
}

}  // namespace tendril::cli
