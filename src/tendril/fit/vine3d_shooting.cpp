#include "tendril/fit/vine3d_shooting.hpp"

#include <cmath>

#include <fmt/format.h>

#include "tendril/core/number_text.hpp"
#include "tendril/fit/vine3d_fit_file.hpp"

namespace tendril::fit {

namespace {

/// Index of (K, C) of each fitted parameter, in the fit file's order.
std::vector<Eigen::Index> parameter_order(const FitFile& file) {
  std::vector<Eigen::Index> order;
  for (const FitParameter& p : file.parameters)
    order.push_back(p.key == "vine3d.stiffness" ? 0 : 1);
  return order;
}

/// fit.json's own fields: the covariance and correlation of the parameters (in the fit file's
/// order), the noise of a tracked coordinate the residuals imply and the RMS point error [m].
io::Json::Object vine3d_details(const vine3d::ShootingFit3Result& r,
                                const std::vector<Eigen::Index>& order) {
  io::Json covariance = io::Json::array(), correlation = io::Json::array();
  for (const Eigen::Index a : order) {
    io::Json cov_row = io::Json::array(), cor_row = io::Json::array();
    for (const Eigen::Index b : order) {
      cov_row.push_back(r.covariance(a, b));
      cor_row.push_back(r.covariance(a, b) / std::sqrt(r.covariance(a, a) * r.covariance(b, b)));
    }
    covariance.push_back(std::move(cov_row));
    correlation.push_back(std::move(cor_row));
  }
  return {{"covariance", std::move(covariance)},
          {"correlation", std::move(correlation)},
          {"noise_sigma", r.noise_sigma},
          {"point_rms_error", r.rms_error}};
}

}  // namespace

std::string tracked_points_csv(const std::vector<vine3d::TrackedFrame3>& frames,
                               const std::vector<MatX>& simulated) {
  std::string csv =
      "frame,step,point,measured_x,measured_y,measured_z,simulated_x,simulated_y,simulated_z\n";
  for (std::size_t f = 0; f < std::min(frames.size(), simulated.size()); ++f)
    for (Eigen::Index k = 0; k < frames[f].points.rows(); ++k) {
      csv += fmt::format("{},{},{}", f, frames[f].step, k);
      for (const MatX* m : {&frames[f].points, &simulated[f]})
        for (int c = 0; c < 3; ++c) csv += fmt::format(",{}", number_text((*m)(k, c), 17));
      csv += "\n";
    }
  return csv;
}

FitReport vine3d_shooting(const FitFile& file, const FitContext& context) {
  const vine3d::Vine3dScene scene =
      vine3d_scene_at_initial_values(file, file.data.experiments.front());
  const std::vector<Eigen::Index> order = parameter_order(file);
  const auto np = static_cast<Eigen::Index>(order.size());
  FitReport report;
  const auto in_file_order = [&](const Vec2& k_c) {
    VecX v(np);
    for (Eigen::Index e = 0; e < np; ++e) v(e) = k_c(order[static_cast<std::size_t>(e)]);
    return v;
  };
  vine3d::ShootingFit3Options options;
  options.max_iterations = file.options.max_iterations;
  options.step_tolerance = file.options.step_tolerance;
  options.progress = [&](const vine3d::ShootingFit3Iteration& i) {
    FitIteration line{
        i.iteration, i.cost, 0.0, i.step, i.lambda, i.simulations, in_file_order(i.values)};
    line.accepted = i.accepted;
    report.history.push_back(line);
    if (context.progress) context.progress(line);
    return true;
  };
  Vec2 guess;
  for (Eigen::Index e = 0; e < np; ++e)
    guess(order[static_cast<std::size_t>(e)]) =
        file.parameters[static_cast<std::size_t>(e)].initial;
  const vine3d::ShootingFit3Result r = vine3d::fit_stiffness_damping(
      scene.model, scene.initial, file.tracked_points, guess(0), guess(1), options);
  report.converged = r.converged;
  report.message = r.message;
  report.iterations = r.iterations;
  for (const FitParameter& p : file.parameters) report.names.push_back(p.key);
  report.initial = in_file_order(guess);
  const bool simulated = !r.simulated.empty();  // the guess ran
  report.values = simulated ? in_file_order(Vec2(r.stiffness, r.damping)) : report.initial;
  report.sigma = simulated ? in_file_order(Vec2(r.stiffness_sigma, r.damping_sigma))
                           : VecX::Constant(np, std::numeric_limits<double>::infinity());
  for (Eigen::Index e = 0; e < np; ++e)
    if (!std::isfinite(report.sigma(e))) report.sigma(e) = std::numeric_limits<double>::infinity();
  report.initial_cost = r.initial_cost;
  report.cost = r.cost;
  report.runs = r.simulations;
  report.residuals_csv = tracked_points_csv(file.tracked_points, r.simulated);
  if (simulated) report.details = vine3d_details(r, order);
  return report;
}

}  // namespace tendril::fit
