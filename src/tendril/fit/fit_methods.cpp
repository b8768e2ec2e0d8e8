#include "tendril/fit/fit_methods.hpp"

#include <cmath>
#include <exception>

#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"
#include "tendril/fit/fit_points_csv.hpp"
#include "tendril/vine/vine_scene.hpp"

namespace tendril::fit {

namespace {

std::string number(double v) {
  return std::isfinite(v) ? number_text(v, 9) : "";
}

FitReport finite_difference_lm(const FitFile& file, const FitContext& context) {
  const RunFitResult r =
      fit_runs(file.parameters, file.data, context.evaluate, file.options, context.progress);
  FitReport report;
  report.converged = r.converged;
  report.message = r.message;
  report.iterations = r.iterations;
  report.initial.resize(static_cast<Eigen::Index>(file.parameters.size()));
  for (const FitParameter& p : file.parameters) {
    report.initial[static_cast<Eigen::Index>(report.names.size())] = p.initial;
    report.names.push_back(p.key);
  }
  report.values = r.values;
  report.sigma = r.sigma;
  report.initial_cost = r.initial_cost;
  report.cost = r.cost;
  report.history = r.history;
  report.residuals_csv = run_fit_residuals_csv(file, r.simulated);
  report.runs = r.runs;
  return report;
}

/// Mean over the frames of |simulated - measured| tip x [m] (the paper's error measure; NaN without
/// frames).
double tip_x_mean_absolute_error(const std::vector<MeasuredFrame>& frames,
                                 const std::vector<MatX>& simulated) {
  double sum = 0.0;
  for (std::size_t f = 0; f < simulated.size(); ++f)
    sum += std::abs(simulated[f](simulated[f].rows() - 1, 0) -
                    frames[f].points(frames[f].points.rows() - 1, 0));
  return simulated.empty() ? std::nan("") : sum / static_cast<double>(simulated.size());
}

/// The vine's uniform K and C by single shooting from the scene's start
/// (fit/vine_shooting_fit.hpp).
FitReport vine_shooting(const FitFile& file, const FitContext& context) {
  RunSettings settings = file.data.experiments.front();
  for (const FitParameter& p : file.parameters)
    settings.push_back(vine_parameter_setting(p.key, p.initial));
  const vine::VineScene scene = vine::load_vine_scene_file(file.scene, settings);
  VineFitOptions options;
  options.max_iterations = file.options.max_iterations;
  options.step_tolerance = file.options.step_tolerance;
  options.cost_tolerance = file.options.cost_tolerance;
  options.progress = [&context](const FitIteration& line) {
    if (context.progress) context.progress(line);
    return true;
  };
  const VineFitResult r = fit_stiffness_damping(scene.model, scene.initial, file.frames, options);
  FitReport report;
  report.converged = r.converged;
  report.message = r.message;
  report.iterations = r.iterations;
  report.names = {file.parameters[0].key, file.parameters[1].key};
  report.initial = VecX{{file.parameters[0].initial, file.parameters[1].initial}};
  report.values = VecX{{r.stiffness, r.damping}};
  report.sigma = VecX{{r.stiffness_sigma, r.damping_sigma}};
  report.initial_cost = r.initial_cost;
  report.cost = r.cost;
  report.runs = r.simulations;
  report.history = r.history;
  report.residuals_csv = fit_points_csv(file.frames, r.fitted.simulated);
  report.frame_points = true;
  report.details.emplace_back("tip_x_mean_absolute_error",
                              tip_x_mean_absolute_error(file.frames, r.fitted.simulated));
  return report;
}

io::Json json_object(io::Json::Object members) {
  io::Json j = io::Json::object();
  for (auto& [key, value] : members) j[key] = std::move(value);
  return j;
}

io::Json numbers(const std::vector<double>& v) {
  io::Json a = io::Json::array();
  for (double x : v) a.push_back(std::isfinite(x) ? io::Json(x) : io::Json("undetermined"));
  return a;
}

/// The vine's K and C with its trajectory: the paper's eq. 16 solved by IPOPT
/// (fit/vine_joint_estimation.hpp), one progress line per IPOPT iteration.
FitReport joint_estimation(const FitFile& file, const FitContext& context) {
  RunSettings settings = file.data.experiments.front();
  for (const FitParameter& p : file.parameters)
    settings.push_back(vine_parameter_setting(p.key, p.initial));
  const vine::VineScene scene = vine::load_vine_scene_file(file.scene, settings);
  FitReport report;
  JointEstimationOptions options = file.estimation;
  std::exception_ptr
      stopped;  // the progress callback's exception (an interrupt), rethrown after IPOPT returns
  options.progress = [&](const JointEstimationIteration& i) {
    FitIteration line{
        i.iteration,      i.objective, i.inf_pr,      i.trust_region ? i.d_norm : i.alpha_pr,
        i.regularization, 1,           VecX(),        i.inf_du,
        i.restoration,    i.accepted,  i.trust_region};
    report.history.push_back(line);
    try {
      if (context.progress) context.progress(line);
    } catch (...) {
      stopped = std::current_exception();
      return false;  // IPOPT stops with User_Requested_Stop
    }
    return true;
  };
  // the problem's size as IPOPT sees it (its sparse constraint Jacobian at the initial guess)
  const JointEstimationProblemEvaluation at_guess =
      evaluate_joint_estimation(scene.model, scene.initial, file.frames, file.estimation);
  const JointEstimationResult r =
      estimate_vine_states_and_parameters(scene.model, scene.initial, file.frames, options);
  if (stopped) std::rethrow_exception(stopped);
  report.converged = r.converged;
  report.iterations = r.iterations;
  report.message = fmt::format("IPOPT {} after {} iteration(s)", r.status, r.iterations);
  const auto nk = static_cast<Eigen::Index>(r.stiffness.size());
  report.initial.resize(2 * nk);
  report.values.resize(2 * nk);
  report.sigma.resize(2 * nk);
  // K_0 .. K_{p-1}, then C_0 .. C_{p-1} (one each without per_joint)
  for (int p = 0; p < 2; ++p)
    for (Eigen::Index j = 0; j < nk; ++j) {
      const Eigen::Index e = p * nk + j;
      const auto u = static_cast<std::size_t>(j);
      report.names.push_back(options.per_joint ? fmt::format("{}[{}]", file.parameters[p].key, j)
                                               : file.parameters[p].key);
      report.initial[e] = file.parameters[p].initial;
      report.values[e] = p == 0 ? r.stiffness[u] : r.damping[u];
      report.sigma[e] = p == 0 ? r.stiffness_sigma[u] : r.damping_sigma[u];
    }
  report.initial_cost = r.initial_objective;
  report.cost = r.objective;
  report.runs = 1;  // the simulation of the initial guess; IPOPT evaluates single steps
  report.residuals_csv = fit_points_csv(file.frames, r.simulated);
  report.frame_points = true;
  io::Json::Object& d = report.details;
  d.emplace_back("ipopt_status", r.status);
  d.emplace_back("ipopt_iterations", r.iterations);
  d.emplace_back("ipopt_seconds", r.seconds);
  d.emplace_back("objective", json_object({{"initial", r.initial_objective},
                                           {"final", r.objective},
                                           {"data_term", r.data_term},
                                           {"model_term", r.model_term}}));
  d.emplace_back("constraint_violation", r.constraint_violation);
  d.emplace_back("per_joint", options.per_joint);
  d.emplace_back("stiffness", numbers(r.stiffness));
  d.emplace_back("stiffness_sigma", numbers(r.stiffness_sigma));
  d.emplace_back("damping", numbers(r.damping));
  d.emplace_back("damping_sigma", numbers(r.damping_sigma));
  d.emplace_back(
      "problem",
      json_object(
          {{"variables", static_cast<std::int64_t>(at_guess.x.size())},
           {"constraints", static_cast<std::int64_t>(at_guess.constraints.size())},
           {"jacobian_nonzeros", static_cast<std::int64_t>(at_guess.jacobian.nonZeros())}}));
  d.emplace_back("steps", static_cast<std::int64_t>(r.trajectory.size()) - 1);
  d.emplace_back("first_step", r.first_step);
  if (std::isfinite(r.min_contact_impulse))
    d.emplace_back("min_contact_impulse", r.min_contact_impulse);
  if (options.trust_region_iterations > 0)
    d.emplace_back("trust_region", json_object({{"iterations", r.trust_region_iterations},
                                                {"message", r.trust_region_message},
                                                {"objective", r.trust_region_objective},
                                                {"seconds", r.trust_region_seconds}}));
  d.emplace_back("tip_x_mean_absolute_error", tip_x_mean_absolute_error(file.frames, r.simulated));
  return report;
}

}  // namespace

bool identifiable(bool converged, double value, double sigma) {
  return converged && std::isfinite(sigma) && sigma <= std::abs(value);
}

std::string run_fit_residuals_csv(const FitFile& file, const MatX& simulated) {
  std::string csv = "experiment";
  for (const std::string& v : file.variables) csv += fmt::format(",{}", v);
  for (const std::string& o : file.data.observables)
    csv += fmt::format(",{0}_measured,{0}_simulated,{0}_residual", o);
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
       "bounded Levenberg-Marquardt over whole runs, Jacobian by finite differences of runs in "
       "parallel",
       finite_difference_lm},
      {"vine_shooting",
       "the vine's uniform pin stiffness K and damping C (vine.stiffness, vine.damping) by single "
       "shooting, exact "
       "sensitivities through the step-map derivatives",
       vine_shooting},
      {"joint_estimation",
       "the vine's pin stiffness K and damping C (vine.stiffness, vine.damping; uniform or per "
       "joint) with its "
       "trajectory: the vine paper's joint state and parameter estimation (eq. 16) solved by IPOPT",
       joint_estimation},
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
