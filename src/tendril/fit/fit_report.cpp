#include "tendril/fit/fit_report.hpp"

#include <cmath>
#include <cstdint>
#include <utility>

#include <fmt/format.h>

#include "tendril/core/number_text.hpp"

namespace tendril::fit {

namespace {

std::string number(double v) {
  return std::isfinite(v) ? number_text(v, 9) : "";
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

}  // namespace

bool identifiable(bool converged, double value, double sigma) {
  return converged && std::isfinite(sigma) && sigma <= std::abs(value);
}

std::string fit_summary(const FitReport& report) {
  std::string text;
  for (std::size_t k = 0; k < report.names.size(); ++k) {
    const auto e = static_cast<Eigen::Index>(k);
    const std::string flag = identifiable(report.converged, report.values[e], report.sigma[e]) ? ""
                             : !report.converged ? "  (not identifiable: the fit failed)"
                             : std::isfinite(report.sigma[e])
                                 ? "  (not identifiable: sigma exceeds the value)"
                                 : "  (not identifiable: the problem is rank-deficient in it)";
    text += fmt::format(
        "{} = {} +- {}{}\n", report.names[k], number_text(report.values[e], 7),
        std::isfinite(report.sigma[e]) ? number_text(report.sigma[e], 3) : "(undetermined)", flag);
  }
  text += fmt::format("cost {} -> {} after {} iteration(s), {} runs: {}\n",
                      number_text(report.initial_cost, 6), number_text(report.cost, 6),
                      report.iterations, report.runs, report.message);
  if (!report.shape_error.empty())
    text += shape_error_summary(report.shape_error, report.guess_shape_error);
  return text;
}

io::Json fit_json(const std::string& method, const FitReport& r) {
  io::Json j = io::Json::object();
  j["method"] = method;
  j["converged"] = r.converged;
  j["message"] = r.message;
  j["iterations"] = r.iterations;
  j["runs"] = static_cast<std::int64_t>(r.runs);
  j["initial_cost"] = r.initial_cost;
  j["cost"] = r.cost;
  io::Json parameters = io::Json::array();
  for (std::size_t k = 0; k < r.names.size(); ++k) {
    io::Json p = io::Json::object();
    const auto e = static_cast<Eigen::Index>(k);
    p["key"] = r.names[k];
    p["value"] = r.values[e];
    p["sigma"] = std::isfinite(r.sigma[e]) ? io::Json(r.sigma[e]) : io::Json("undetermined");
    p["initial"] = r.initial[e];
    p["identifiable"] = identifiable(r.converged, r.values[e], r.sigma[e]);
    parameters.push_back(std::move(p));
  }
  j["parameters"] = std::move(parameters);
  if (!r.shape_error.empty())
    j["shape_error"] = shape_error_json(r.shape_error, r.guess_shape_error);
  for (const auto& [key, value] : r.details) j[key] = value;
  return j;
}

std::string history_csv(const std::vector<std::string>& names,
                        const std::vector<FitIteration>& history) {
  std::string csv =
      "iteration,accepted,trust_region,restoration,objective,constraint_violation,dual_"
      "infeasibility,step,damping,runs";
  for (const std::string& name : names) csv += fmt::format(",{}", name);
  csv += "\n";
  for (const FitIteration& h : history) {
    csv +=
        fmt::format("{},{:d},{:d},{:d},{},{},{},{},{},{}", h.iteration, h.accepted, h.trust_region,
                    h.restoration, number(h.objective), number(h.constraint_violation),
                    number(h.dual_infeasibility), number(h.step_norm), number(h.damping), h.runs);
    for (std::size_t j = 0; j < names.size(); ++j)
      csv += fmt::format(",{}", std::cmp_less(j, h.values.size())
                                    ? number(h.values[static_cast<Eigen::Index>(j)])
                                    : "");
    csv += "\n";
  }
  return csv;
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

double tip_x_mean_absolute_error(const std::vector<MeasuredFrame>& frames,
                                 const std::vector<MatX>& simulated) {
  double sum = 0.0;
  for (std::size_t f = 0; f < simulated.size(); ++f)
    sum += std::abs(simulated[f](simulated[f].rows() - 1, 0) -
                    frames[f].points(frames[f].points.rows() - 1, 0));
  return simulated.empty() ? std::nan("") : sum / static_cast<double>(simulated.size());
}

io::Json::Object joint_estimation_details(const JointEstimationResult& r,
                                          const JointEstimationProblemEvaluation& at_guess,
                                          const JointEstimationOptions& options,
                                          const std::vector<MeasuredFrame>& frames) {
  io::Json::Object d;
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
  d.emplace_back("tip_x_mean_absolute_error", tip_x_mean_absolute_error(frames, r.simulated));
  return d;
}

}  // namespace tendril::fit
