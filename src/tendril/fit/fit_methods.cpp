#include "tendril/fit/fit_methods.hpp"

#include <cmath>

#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"
#include "tendril/vine/vine_scene.hpp"

namespace tendril::fit {

namespace {

std::string number(double v) { return std::isfinite(v) ? number_text(v, 9) : ""; }

FitReport finite_difference_lm(const FitFile& file, const FitContext& context) {
  const RunFitResult r = fit_runs(file.parameters, file.data, context.evaluate, file.options, context.progress);
  FitReport report;
  report.converged = r.converged;
  report.message = r.message;
  report.iterations = r.iterations;
  for (const FitParameter& p : file.parameters) report.names.push_back(p.key);
  report.values = r.values;
  report.sigma = r.sigma;
  report.initial_cost = r.initial_cost;
  report.cost = r.cost;
  report.history = r.history;
  report.residuals_csv = run_fit_residuals_csv(file, r.simulated);
  report.runs = r.runs;
  return report;
}

/// The vine's uniform K and C by single shooting from the scene's start (fit/vine_shooting_fit.hpp).
FitReport vine_shooting(const FitFile& file, const FitContext& context) {
  RunSettings settings = file.data.experiments.front();
  for (const FitParameter& p : file.parameters) settings.push_back(vine_parameter_setting(p.key, p.initial));
  const vine::VineScene scene = vine::load_vine_scene_file(file.scene, settings);
  VineFitOptions options;
  options.max_iterations = file.options.max_iterations;
  options.step_tolerance = file.options.step_tolerance;
  options.cost_tolerance = file.options.cost_tolerance;
  const VineFitResult r = fit_stiffness_damping(scene.model, scene.initial, file.frames, options);
  FitReport report;
  report.converged = r.converged;
  report.message = r.message;
  report.iterations = r.iterations;
  report.names = {file.parameters[0].key, file.parameters[1].key};
  report.values = Vec2(r.stiffness, r.damping);
  report.sigma = Vec2(r.stiffness_sigma, r.damping_sigma);
  report.initial_cost = r.initial_cost;
  report.cost = r.cost;
  report.runs = r.iterations + 1;
  for (std::size_t k = 0; k < r.history.size(); ++k) {
    FitIteration line{static_cast<int>(k) + 1, r.history[k], 0.0, 0.0, 0.0, 0, VecX()};
    if (context.progress) context.progress(line);
    report.history.push_back(line);
  }
  // per frame and point: measured and simulated x, y [m]
  report.residuals_csv = "step,point,x_measured,y_measured,x_simulated,y_simulated\n";
  for (std::size_t f = 0; f < file.frames.size(); ++f) {
    const MeasuredFrame& m = file.frames[f];
    for (Eigen::Index p = 0; p < m.points.rows(); ++p) {
      const bool have = f < r.fitted.simulated.size() && p < r.fitted.simulated[f].rows();
      report.residuals_csv += fmt::format("{},{},{},{},{},{}\n", m.step, p, number(m.points(p, 0)), number(m.points(p, 1)),
                                          have ? number(r.fitted.simulated[f](p, 0)) : "",
                                          have ? number(r.fitted.simulated[f](p, 1)) : "");
    }
  }
  return report;
}

}  // namespace

std::string run_fit_residuals_csv(const FitFile& file, const MatX& simulated) {
  std::string csv = "experiment";
  for (const std::string& v : file.variables) csv += fmt::format(",{}", v);
  for (const std::string& o : file.data.observables) csv += fmt::format(",{0}_measured,{0}_simulated,{0}_residual", o);
  csv += "\n";
  for (std::size_t i = 0; i < file.data.experiments.size(); ++i) {
    csv += std::to_string(i + 1);
    // the experiment's own settings are the last ones (after the fit file's fixed `settings`)
    const RunSettings& e = file.data.experiments[i];
    for (std::size_t v = e.size() - file.variables.size(); v < e.size(); ++v)
      csv += fmt::format(",{}", e[v].substr(e[v].find('=') + 1));
    for (Eigen::Index k = 0; k < file.data.measured.cols(); ++k) {
      const auto row = static_cast<Eigen::Index>(i);
      const double m = file.data.measured(row, k);
      const double y = simulated.rows() > row ? simulated(row, k) : std::nan("");
      csv += fmt::format(",{},{},{}", number(m), number(y), number((y - m) / file.data.sigma[k]));
    }
    csv += "\n";
  }
  return csv;
}

const std::vector<FitMethod>& fit_methods() {
  static const std::vector<FitMethod> methods = {
      {"finite_difference_lm",
       "bounded Levenberg-Marquardt over whole runs, Jacobian by finite differences of runs in parallel",
       finite_difference_lm},
      {"vine_shooting",
       "the vine's uniform pin stiffness K and damping C (vine.stiffness, vine.damping) by single shooting, exact "
       "sensitivities through the step-map derivatives",
       vine_shooting},
  };
  return methods;
}

const FitMethod& fit_method(const std::string& name) {
  std::string names;
  for (const FitMethod& m : fit_methods()) {
    if (m.name == name) return m;
    names += (names.empty() ? "" : ", ") + m.name;
  }
  throw InputError("method", name, "one of " + names);
}

}  // namespace tendril::fit
