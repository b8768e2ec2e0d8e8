#include "tendril/fit/fit_methods.hpp"

#include <cmath>
#include <exception>
#include <limits>

#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"
#include "tendril/fit/fit_points_csv.hpp"
#include "tendril/fit/run_derivatives.hpp"
#include "tendril/fit/shape_error.hpp"
#include "tendril/fit/vine3d_shooting.hpp"
#include "tendril/vine/vine_scene.hpp"

namespace tendril::fit {

namespace {

/// The vine methods' scene with the parameters at their initial values.
vine::VineScene initial_vine_scene(const FitFile& file) {
  return vine_scene_at_initial_values(file, file.data.experiments.front());
}

/// The vine methods' shape error per frame at the fitted values (`fitted`: the simulated points per
/// frame) and at the initial guess (the simulation from the scene's start), and the track import's
/// record.
void add_frame_report(const FitFile& file, const vine::VineScene& scene,
                      const std::vector<MatX>& fitted, FitReport& report) {
  VecX initial(static_cast<Eigen::Index>(file.parameters.size()));
  for (std::size_t k = 0; k < file.parameters.size(); ++k)
    initial[static_cast<Eigen::Index>(k)] = file.parameters[k].initial;
  const ShootingResiduals guess =
      shooting_residuals(scene.model, scene.initial, file.frames, Observation::points,
                         file.vine_parameters, initial, false);
  report.shape_error = shape_errors(file.frames, fitted);
  report.guess_shape_error = shape_errors(file.frames, guess.simulated);
  if (!file.track.is_null()) report.details.emplace_back("track", file.track);
}

/// fit.json's `start` of a fit that estimates its measured start: q and the coordinates (pin
/// angles [rad], prismatic extensions [m]) with their sigmas.
io::Json start_json(const vine::VineModel& model, const VineFitResult& r) {
  const auto list = [](const VecX& v) {
    io::Json a = io::Json::array();
    for (double x : v) a.push_back(std::isfinite(x) ? io::Json(x) : io::Json("undetermined"));
    return a;
  };
  io::Json j = io::Json::object();
  j["q"] = list(r.start.q);
  j["pin_angles"] = list(r.start_coordinates.head(model.num_pins()));
  j["pin_angles_sigma"] = list(r.start_sigma.head(model.num_pins()));
  j["prismatic_extensions"] = list(r.start_coordinates.tail(model.num_prismatic()));
  j["prismatic_extensions_sigma"] = list(r.start_sigma.tail(model.num_prismatic()));
  return j;
}

/// The report of a fit over whole runs (finite_difference_lm, adjoint_lm).
FitReport run_fit_report(const FitFile& file, const RunFitResult& r) {
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

FitReport finite_difference_lm(const FitFile& file, const FitContext& context) {
  return run_fit_report(
      file, fit_runs(file.parameters, file.data, context.evaluate, file.options, context.progress));
}

/// The same Levenberg-Marquardt with the Jacobian from the runs' exact derivatives
/// (fit/run_derivatives.hpp): each point's runs give their observables and derivatives at once.
FitReport adjoint_lm(const FitFile& file, const FitContext& context) {
  std::vector<std::string> keys;
  for (const FitParameter& p : file.parameters) keys.push_back(p.key);
  const RunBatchEvaluator derivatives =
      derivative_evaluator(file.scene, keys, file.data.observables, context.jobs);
  return run_fit_report(file, fit_runs(file.parameters, file.data, context.evaluate, file.options,
                                       context.progress, derivatives));
}

/// The vine's parameters (uniform K and C, growth rates, heading, contact radius, the
/// inflated-beam law's M_c and theta_w) by single shooting from the scene's start
/// (fit/vine_shooting_fit.hpp).
FitReport vine_shooting(const FitFile& file, const FitContext& context) {
  const vine::VineScene scene = initial_vine_scene(file);
  VineFitOptions options;
  options.max_iterations = file.options.max_iterations;
  options.step_tolerance = file.options.step_tolerance;
  options.cost_tolerance = file.options.cost_tolerance;
  options.estimate_start = file.measured_start;
  options.pointwise_errors = !file.track.is_null();  // resampled tracked points: every frame P
  options.progress = [&context](const FitIteration& line) {
    if (context.progress) context.progress(line);
    return true;
  };
  const VineFitResult r =
      fit_vine_parameters(scene.model, scene.initial, file.frames, file.vine_parameters, options);
  FitReport report;
  report.converged = r.converged;
  report.message = r.message;
  report.iterations = r.iterations;
  const auto np = static_cast<Eigen::Index>(file.parameters.size());
  report.initial.resize(np);
  for (Eigen::Index k = 0; k < np; ++k) {
    report.names.push_back(file.parameters[static_cast<std::size_t>(k)].key);
    report.initial(k) = file.parameters[static_cast<std::size_t>(k)].initial;
  }
  // a guess that does not simulate leaves no values: the initial ones, undetermined
  report.values = r.values.size() == np ? r.values : report.initial;
  report.sigma =
      r.sigma.size() == np ? r.sigma : VecX::Constant(np, std::numeric_limits<double>::infinity());
  report.initial_cost = r.initial_cost;
  report.cost = r.cost;
  report.runs = r.simulations;
  report.history = r.history;
  report.residuals_csv = fit_points_csv(file.frames, r.fitted.simulated);
  report.frame_points = true;
  report.details.emplace_back("tip_x_mean_absolute_error",
                              tip_x_mean_absolute_error(file.frames, r.fitted.simulated));
  if (options.estimate_start && r.start_coordinates.size() > 0) {
    report.start = r.start.q;
    report.details.emplace_back("start", start_json(scene.model, r));
  }
  add_frame_report(file, scene, r.fitted.simulated, report);
  return report;
}

/// The vine's K and C with its trajectory: the paper's eq. 16 solved by IPOPT
/// (fit/vine_joint_estimation.hpp), one progress line per IPOPT iteration.
FitReport joint_estimation(const FitFile& file, const FitContext& context) {
  const vine::VineScene scene = initial_vine_scene(file);
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
  // then the growth rates, the heading and the contact radius
  const auto ne = static_cast<Eigen::Index>(r.parameter_values.size());
  report.initial.conservativeResize(2 * nk + ne);
  report.values.conservativeResize(2 * nk + ne);
  report.sigma.conservativeResize(2 * nk + ne);
  for (Eigen::Index e = 0; e < ne; ++e) {
    const auto u = static_cast<std::size_t>(e);
    report.names.push_back(file.parameters[u + 2].key);
    report.initial[2 * nk + e] = file.parameters[u + 2].initial;
    report.values[2 * nk + e] = r.parameter_values[u];
    report.sigma[2 * nk + e] = r.parameter_sigmas[u];
  }
  report.initial_cost = r.initial_objective;
  report.cost = r.objective;
  report.runs = 1;  // the simulation of the initial guess; IPOPT evaluates single steps
  report.residuals_csv = fit_points_csv(file.frames, r.simulated);
  report.frame_points = true;
  report.details = joint_estimation_details(r, at_guess, options, file.frames);
  add_frame_report(file, scene, r.simulated, report);
  return report;
}

}  // namespace

const std::vector<FitMethod>& fit_methods() {
  static const std::vector<FitMethod> methods = {
      {"finite_difference_lm",
       "bounded Levenberg-Marquardt over whole runs, Jacobian by finite differences of runs in "
       "parallel",
       finite_difference_lm},
      {"adjoint_lm",
       "the same bounded Levenberg-Marquardt with the exact Jacobian of each run (forward "
       "sensitivities of implicit Euler runs, the adjoint of midpoint runs) for the rod and shell "
       "keys docs/physics/fitting.md lists",
       adjoint_lm},
      {"vine_shooting",
       "the vine's uniform pin stiffness K and damping C (or the inflated-beam law's M_c, "
       "theta_w), growth rates, base heading and contact radius by single shooting, exact "
       "sensitivities through the step-map derivatives",
       vine_shooting},
      {"joint_estimation",
       "the vine's pin stiffness K and damping C (vine.stiffness, vine.damping; uniform or per "
       "joint) with its "
       "trajectory: the vine paper's joint state and parameter estimation (eq. 16) solved by IPOPT",
       joint_estimation},
      {"vine3d_shooting",
       "a 3D vine's uniform bending stiffness K and damping C (vine3d.stiffness, vine3d.damping) "
       "from tracked 3D joint points by single shooting, exact sensitivities through the 3D step "
       "derivatives",
       vine3d_shooting},
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
