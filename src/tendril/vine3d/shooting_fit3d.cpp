#include "tendril/vine3d/shooting_fit3d.hpp"

#include <cmath>

#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/vine3d/step_derivatives3d.hpp"

namespace tendril::vine3d {

MatX joint_points(const Vine3dModel& model, const Vine3dState& state) {
  const int nb = model.num_bodies;
  MatX points(nb + 1, 3);
  for (int i = 0; i < nb; ++i)
    points.row(i) =
        state.position[i] - model.half_length[i] * (state.orientation[i] * Vec3::UnitX());
  points.row(nb) = state.position[nb - 1] +
                   model.half_length[nb - 1] * (state.orientation[nb - 1] * Vec3::UnitX());
  return points;
}

namespace {

/// Residuals (simulated - tracked points, frame by frame) and their Jacobian w.r.t. (log K, log C).
/// False if a step fails.
bool residuals(const Vine3dModel& base_model, const Vine3dState& start,
               const std::vector<TrackedFrame3>& frames, const Vec2& log_params, VecX& r,
               MatX& jacobian) {
  Vine3dModel model = base_model;
  const double k = std::exp(log_params(0)), c = std::exp(log_params(1));
  model.stiffness.assign(model.num_bending(), k);
  model.damping.assign(model.num_bending(), c);
  Vine3dStepper stepper(model);
  Vine3dState s = start;
  const int nb = model.num_bodies, nx = 12 * nb, rows_per_frame = 3 * (nb + 1);
  MatX sensitivity = MatX::Zero(nx, 2);  // d x_k / d(log K, log C)
  r.resize(rows_per_frame * static_cast<int>(frames.size()));
  jacobian.resize(r.size(), 2);
  int step = 0;
  for (std::size_t f = 0; f < frames.size(); ++f) {
    for (; step < frames[f].step; ++step) {
      if (!stepper.step(s).ok()) return false;
      const Vine3dStepDerivatives d = step_derivatives(stepper);
      if (!d.ok) return false;
      MatX next = d.dx_dx * sensitivity;
      next.col(0) += k * d.dx_dK.rowwise().sum();
      next.col(1) += c * d.dx_dC.rowwise().sum();
      sensitivity = std::move(next);
    }
    const MatX points = joint_points(model, s);
    for (int i = 0; i <= nb; ++i) {
      const int body = std::min(i, nb - 1);
      const double arm = i < nb ? -model.half_length[body] : model.half_length[body];
      const Vec3 e = s.orientation[body] * Vec3::UnitX();
      // d(p + arm e) = dp + arm dtheta x e = dp - arm [e]x dtheta
      const MatX d_point = sensitivity.middleRows(12 * body, 3) -
                           arm * skew(e) * sensitivity.middleRows(12 * body + 3, 3);
      const int row = rows_per_frame * static_cast<int>(f) + 3 * i;
      r.segment<3>(row) = (points.row(i) - frames[f].points.row(i)).transpose();
      jacobian.middleRows(row, 3) = d_point;
    }
  }
  return true;
}

void check_frames(const Vine3dModel& model, const std::vector<TrackedFrame3>& frames, double k,
                  double c) {
  if (!(k > 0.0 && std::isfinite(k)))
    throw InputError("fit.stiffness", fmt::format("{}", k), "an initial guess > 0 [N m/rad]");
  if (!(c > 0.0 && std::isfinite(c)))
    throw InputError("fit.damping", fmt::format("{}", c), "an initial guess > 0 [N m s/rad]");
  if (frames.empty()) throw InputError("fit.frames", "none", "at least one tracked frame");
  int last = 0;
  for (std::size_t f = 0; f < frames.size(); ++f) {
    if (frames[f].step <= last)
      throw InputError(fmt::format("fit.frames[{}].step", f), fmt::format("{}", frames[f].step),
                       fmt::format("a step > {} (frames in increasing order)", last));
    last = frames[f].step;
    if (frames[f].points.rows() != model.num_bodies + 1 || frames[f].points.cols() != 3 ||
        !frames[f].points.allFinite())
      throw InputError(fmt::format("fit.frames[{}].points", f),
                       fmt::format("{} x {}", frames[f].points.rows(), frames[f].points.cols()),
                       fmt::format("{} x 3 finite points [m] (base .. tip)", model.num_bodies + 1));
  }
}

}  // namespace

ShootingFit3Result fit_stiffness_damping(const Vine3dModel& model, const Vine3dState& start,
                                         const std::vector<TrackedFrame3>& frames, double stiffness,
                                         double damping, const ShootingFit3Options& options) {
  check_frames(model, frames, stiffness, damping);
  ShootingFit3Result result;
  Vec2 theta(std::log(stiffness), std::log(damping));
  VecX r, trial_r;
  MatX jacobian, trial_jacobian;
  if (!residuals(model, start, frames, theta, r, jacobian)) return result;
  double lambda = 1e-3;
  for (result.iterations = 0; result.iterations < options.max_iterations; ++result.iterations) {
    const Eigen::Matrix2d normal = jacobian.transpose() * jacobian;
    const Vec2 gradient = jacobian.transpose() * r;
    bool accepted = false;
    Vec2 delta = Vec2::Zero();
    while (!accepted && lambda < 1e12) {
      Eigen::Matrix2d damped = normal;
      damped.diagonal() *= 1.0 + lambda;
      delta = damped.ldlt().solve(-gradient);
      accepted = residuals(model, start, frames, theta + delta, trial_r, trial_jacobian) &&
                 trial_r.squaredNorm() <= r.squaredNorm();
      lambda = accepted ? std::max(lambda / 10.0, 1e-12) : lambda * 10.0;
    }
    if (!accepted) break;
    theta += delta;
    r.swap(trial_r);
    jacobian.swap(trial_jacobian);
    if (delta.lpNorm<Eigen::Infinity>() < options.step_tolerance) {
      result.converged = true;
      ++result.iterations;
      break;
    }
  }
  result.stiffness = std::exp(theta(0));
  result.damping = std::exp(theta(1));
  result.rms_error = std::sqrt(r.squaredNorm() / (static_cast<double>(r.size()) / 3.0));
  // linearised covariance of (ln K, ln C): s^2 (J^T J)^-1
  const double variance = r.squaredNorm() / std::max(1.0, static_cast<double>(r.size()) - 2.0);
  const Eigen::Matrix2d covariance = variance * (jacobian.transpose() * jacobian).inverse();
  result.stiffness_sigma = result.stiffness * std::sqrt(covariance(0, 0));
  result.damping_sigma = result.damping * std::sqrt(covariance(1, 1));
  return result;
}

}  // namespace tendril::vine3d
