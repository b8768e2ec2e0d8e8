#include "tendril/fit/joint_estimation_setup.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <Eigen/SparseLU>

#include "tendril/core/error.hpp"

namespace tendril::fit::detail {

void check_estimation_input(const vine::VineModel& model, const std::vector<MeasuredFrame>& frames,
                            const JointEstimationOptions& options) {
  const std::string key = "joint_estimation";
  if (frames.empty()) throw InputError(key + ".frames", "[]", "at least one measured frame");
  for (std::size_t f = 1; f < frames.size(); ++f)
    if (frames[f].step <= frames[f - 1].step)
      throw InputError(fmt::format("{}.frames[{}].step", key, f), std::to_string(frames[f].step),
                       fmt::format("steps increasing (> {})", frames[f - 1].step));
  if (frames.front().step < 0)
    throw InputError(key + ".frames[0].step", std::to_string(frames.front().step), "a step >= 0");
  for (const auto& [name, value] :
       {std::pair{"measurement_sigma", options.measurement_sigma},
        {"model_sigma_position", options.model_sigma_position},
        {"model_sigma_angle", options.model_sigma_angle},
        {"model_sigma_velocity", options.model_sigma_velocity},
        {"model_sigma_angular_velocity", options.model_sigma_angular_velocity},
        {"tolerance", options.tolerance}})
    if (!(value > 0.0) || !std::isfinite(value))
      throw InputError(fmt::format("{}.{}", key, name), fmt::format("{}", value),
                       "a finite number > 0");
  if (model.stiffness.empty() || !(model.stiffness[0] > 0.0) || !(model.damping[0] > 0.0))
    throw InputError("vine.stiffness",
                     model.stiffness.empty() ? "[]" : fmt::format("{}", model.stiffness[0]),
                     "an initial guess K > 0 and C > 0");
  if (options.hessian == EstimationHessian::exact && options.eliminate_model_residuals)
    throw InputError(key + ".hessian", "exact", "gauss_newton with eliminate_model_residuals");
  if (model.growth_control != vine::GrowthControl::rate)
    throw InputError("vine.growth_control", "force_limited",
                     "rate (the step map is differentiated for it)");
  if (!options.contacts.empty() && model.contact_model != vine::ContactModel::point)
    throw InputError(key + ".contacts", "body contact",
                     "the model's point contact (vine.contact_model: point)");
  for (std::size_t c = 0; c < options.contacts.size(); ++c) {
    const KnownContact& k = options.contacts[c];
    const std::string ck = fmt::format("{}.contacts[{}]", key, c);
    if (k.point < 0 || k.point >= static_cast<int>(model.contact_points.size()))
      throw InputError(
          ck + ".point", std::to_string(k.point),
          fmt::format("a contact point index 0 .. {}", model.contact_points.size() - 1));
    if (k.obstacle < 0 || k.obstacle >= static_cast<int>(model.obstacles.size()))
      throw InputError(ck + ".obstacle", std::to_string(k.obstacle),
                       fmt::format("an obstacle index 0 .. {}", model.obstacles.size() - 1));
    if (k.last_step < k.first_step)
      throw InputError(ck + ".last_step", std::to_string(k.last_step),
                       fmt::format(">= first_step {}", k.first_step));
  }
}

VecX model_residual_weights(const vine::VineModel& model, const JointEstimationOptions& options) {
  const int n = model.num_dofs();
  VecX weights(2 * n);
  for (int b = 0; b < model.num_bodies; ++b) {
    weights.segment<3>(3 * b) << 1.0 / std::pow(options.model_sigma_position, 2),
        1.0 / std::pow(options.model_sigma_position, 2),
        1.0 / std::pow(options.model_sigma_angle, 2);
    weights.segment<3>(n + 3 * b) << 1.0 / std::pow(options.model_sigma_velocity, 2),
        1.0 / std::pow(options.model_sigma_velocity, 2),
        1.0 / std::pow(options.model_sigma_angular_velocity, 2);
  }
  return weights;
}

double damping_upper_bound(const vine::VineModel& model, const JointEstimationOptions& options) {
  if (options.damping_max > 0.0) return options.damping_max;
  return model.springs == vine::SpringIntegration::explicit_forces
             ? *std::min_element(model.inertia.begin(), model.inertia.end()) / model.dt
             : std::numeric_limits<double>::infinity();
}

VecX frame_residual(const vine::VineModel& model, const VecX& q, Observation observation,
                    const MeasuredFrame& frame, MatX* dpoints) {
  MatX points;
  observe_vine(model, q, observation, static_cast<int>(frame.points.rows()), points, dpoints);
  const MatX measured =
      observation == Observation::tip ? MatX(frame.points.bottomRows(1)) : frame.points;
  VecX e(2 * points.rows());
  for (int p = 0; p < points.rows(); ++p)
    for (int d = 0; d < 2; ++d) e(2 * p + d) = points(p, d) - measured(p, d);
  return e;
}

double estimation_objective(const vine::VineModel& model, const std::vector<MeasuredFrame>& frames,
                            const JointEstimationOptions& options, const VecX& weights, int steps,
                            int first_residual, const VecX& x, VecX* gradient, double* data,
                            double* model_term) {
  const int n = model.num_dofs();
  if (gradient) gradient->setZero(x.size());
  const double w = 1.0 / (options.measurement_sigma * options.measurement_sigma);
  double fd = 0.0, fm = 0.0;
  for (const MeasuredFrame& frame : frames) {
    const int z = 2 * n * (frame.step - frames.front().step);
    MatX dpoints;
    const VecX e = frame_residual(model, x.segment(z, n), options.observation, frame,
                                  gradient ? &dpoints : nullptr);
    fd += w * e.squaredNorm();
    if (gradient) gradient->segment(z, n) += 2.0 * w * dpoints.transpose() * e;
  }
  for (int i = 0; i < steps; ++i) {
    const auto ri = x.segment(first_residual + 2 * n * i, 2 * n);
    fm += ri.dot(weights.cwiseProduct(ri));
    if (gradient)
      gradient->segment(first_residual + 2 * n * i, 2 * n) = 2.0 * weights.cwiseProduct(ri);
  }
  if (data) *data = fd;
  if (model_term) *model_term = fm;
  return fd + fm;
}

VecX constrained_sigmas(int nv, int nc,
                        const std::vector<Eigen::Triplet<double, int>>& hessian_lower,
                        const std::vector<Eigen::Triplet<double, int>>& jacobian,
                        const std::vector<int>& inactive_rows, int first_parameter, int count) {
  std::vector<Eigen::Triplet<double, int>> t;
  for (const auto& h : hessian_lower) {
    t.push_back(h);
    if (h.row() != h.col()) t.emplace_back(h.col(), h.row(), h.value());
  }
  std::vector<char> inactive(nc, 0);
  for (int row : inactive_rows) inactive[row] = 1;
  for (const auto& a : jacobian) {
    if (inactive[a.row()]) continue;
    t.emplace_back(nv + a.row(), a.col(), a.value());
    t.emplace_back(a.col(), nv + a.row(), a.value());
  }
  for (int row : inactive_rows) t.emplace_back(nv + row, nv + row, 1.0);
  SparseMatrix kkt(nv + nc, nv + nc);
  kkt.setFromTriplets(t.begin(), t.end());
  Eigen::SparseLU<SparseMatrix> lu(kkt);
  VecX sigma = VecX::Constant(count, std::numeric_limits<double>::infinity());
  if (lu.info() != Eigen::Success) return sigma;
  for (int p = 0; p < count; ++p) {
    VecX e = VecX::Zero(nv + nc);
    e(first_parameter + p) = 1.0;
    const VecX col = lu.solve(e);
    const double variance = col(first_parameter + p);
    if (lu.info() == Eigen::Success && variance > 0.0 && std::isfinite(variance))
      sigma(p) = std::sqrt(variance);
  }
  return sigma;
}

}  // namespace tendril::fit::detail
