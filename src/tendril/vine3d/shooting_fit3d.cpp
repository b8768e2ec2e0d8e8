#include "tendril/vine3d/shooting_fit3d.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/vine3d/step_derivatives3d.hpp"

namespace tendril::vine3d {

MatX joint_points(const Vine3dModel& model, const Vine3dState& state) {
  const std::vector<Vec3> centerline = centerline_points(model, state);
  MatX points(centerline.size(), 3);
  for (std::size_t i = 0; i < centerline.size(); ++i) points.row(i) = centerline[i].transpose();
  return points;
}

namespace {

/// The residuals (simulated - tracked points, frame by frame) at (log K, log C), their Jacobian
/// and the simulated points; ok false (message: which step and why) if a step fails.
struct Residuals3 {
  bool ok = false;
  std::string message;
  VecX r;
  MatX jacobian;
  std::vector<MatX> simulated;
};

/// d(point i)/dx of the joint point i of state `s` (3 x 12 #bodies): zero for the base (i = 0),
/// the proximal end of body i, or the tip for i = #bodies, from the body's dp and dtheta.
MatX point_sensitivity(const Vine3dModel& model, const Vine3dState& s, const MatX& sensitivity,
                       int i) {
  if (i == 0) return MatX::Zero(3, sensitivity.cols());
  const int nb = model.num_bodies, body = std::min(i, nb - 1);
  const double arm = i < nb ? -model.half_length[body] : model.half_length[body];
  const Vec3 e = s.orientation[body] * Vec3::UnitX();
  // d(p + arm e) = dp + arm dtheta x e = dp - arm [e]x dtheta
  return sensitivity.middleRows(12 * body, 3) -
         arm * skew(e) * sensitivity.middleRows(12 * body + 3, 3);
}

Residuals3 residuals(const Vine3dModel& base_model, const Vine3dState& start,
                     const std::vector<TrackedFrame3>& frames, const Vec2& log_params) {
  Residuals3 out;
  Vine3dModel model = base_model;
  const double k = std::exp(log_params(0)), c = std::exp(log_params(1));
  if (!std::isfinite(k) || !std::isfinite(c)) {
    out.message = fmt::format("K = {:.6g}, C = {:.6g}: not finite", k, c);
    return out;
  }
  model.stiffness.assign(model.num_bending(), k);
  model.damping.assign(model.num_bending(), c);
  Vine3dStepper stepper(model);
  Vine3dState s = start;
  const int nb = model.num_bodies, nx = 12 * nb, rows_per_frame = 3 * (nb + 1);
  MatX sensitivity = MatX::Zero(nx, 2);  // d x_k / d(log K, log C)
  out.r.resize(rows_per_frame * static_cast<int>(frames.size()));
  out.jacobian.resize(out.r.size(), 2);
  int step = 0;
  for (std::size_t f = 0; f < frames.size(); ++f) {
    for (; step < frames[f].step; ++step) {
      const Vine3dStepReport report = stepper.step(s);
      const Vine3dStepDerivatives d =
          report.ok() ? step_derivatives(stepper) : Vine3dStepDerivatives{};
      if (!d.ok) {
        out.message = fmt::format("step {} with K = {:.6g}, C = {:.6g}: {}", step + 1, k, c,
                                  report.ok() ? "the step map is not differentiable there"
                                              : "the step failed (QP, joint drift or non-finite)");
        return out;
      }
      MatX next = d.dx_dx * sensitivity;
      next.col(0) += k * d.dx_dK.rowwise().sum();
      next.col(1) += c * d.dx_dC.rowwise().sum();
      sensitivity = std::move(next);
    }
    const MatX points = joint_points(model, s);
    for (int i = 0; i <= nb; ++i) {
      const int row = rows_per_frame * static_cast<int>(f) + 3 * i;
      out.r.segment<3>(row) = (points.row(i) - frames[f].points.row(i)).transpose();
      out.jacobian.middleRows(row, 3) = point_sensitivity(model, s, sensitivity, i);
    }
    out.simulated.push_back(points);
  }
  out.ok = true;
  return out;
}

void check_frames(const Vine3dModel& model, const std::vector<TrackedFrame3>& frames, double k,
                  double c) {
  if (!(k > 0.0 && std::isfinite(k)))
    throw InputError("fit.stiffness", fmt::format("{}", k), "an initial guess > 0 [N m/rad]");
  if (!(c > 0.0 && std::isfinite(c)))
    throw InputError("fit.damping", fmt::format("{}", c), "an initial guess > 0 [N m s/rad]");
  if (frames.empty()) throw InputError("fit.frames", "none", "at least one tracked frame");
  int last = -1;
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

/// K, C and their covariance, the noise and the RMS point error at the fit (log parameters
/// `theta`, residuals `at`).
void set_estimate(const Vec2& theta, const Residuals3& at, ShootingFit3Result& result) {
  result.stiffness = std::exp(theta(0));
  result.damping = std::exp(theta(1));
  const double points = static_cast<double>(at.r.size()) / 3.0;
  result.rms_error = std::sqrt(at.r.squaredNorm() / points);
  // linearised covariance of (ln K, ln C): s^2 (J^T J)^-1, then of (K, C)
  const double variance =
      at.r.squaredNorm() / std::max(1.0, static_cast<double>(at.r.size()) - 2.0);
  result.noise_sigma = std::sqrt(variance);
  const Eigen::Matrix2d scale = Vec2(result.stiffness, result.damping).asDiagonal();
  result.covariance =
      scale * (variance * (at.jacobian.transpose() * at.jacobian).inverse()) * scale;
  result.stiffness_sigma = std::sqrt(result.covariance(0, 0));
  result.damping_sigma = std::sqrt(result.covariance(1, 1));
  result.cost = 0.5 * at.r.squaredNorm();
  result.simulated = at.simulated;
}

}  // namespace

ShootingFit3Result fit_stiffness_damping(const Vine3dModel& model, const Vine3dState& start,
                                         const std::vector<TrackedFrame3>& frames, double stiffness,
                                         double damping, const ShootingFit3Options& options) {
  check_frames(model, frames, stiffness, damping);
  ShootingFit3Result result;
  Vec2 theta(std::log(stiffness), std::log(damping));
  const auto report = [&](bool accepted, double cost, const Vec2& point, double step,
                          double lambda) {
    const ShootingFit3Iteration line{
        result.iterations,        accepted, cost, step, lambda, result.simulations,
        Vec2(point.array().exp())};
    return !options.progress || options.progress(line);
  };
  ++result.simulations;
  Residuals3 at = residuals(model, start, frames, theta);
  if (!at.ok) {
    result.message = "the initial guess does not simulate: " + at.message;
    return result;
  }
  result.initial_cost = 0.5 * at.r.squaredNorm();
  result.message =
      fmt::format("{} iterations without a step below the step tolerance", options.max_iterations);
  double lambda = 1e-3;
  bool go_on = report(true, result.initial_cost, theta, 0.0, 0.0);
  while (go_on && !result.converged && result.iterations < options.max_iterations) {
    const Eigen::Matrix2d normal = at.jacobian.transpose() * at.jacobian;
    const Vec2 gradient = at.jacobian.transpose() * at.r;
    bool accepted = false;
    Vec2 delta = Vec2::Zero();
    Residuals3 trial;
    while (go_on && !accepted && lambda < 1e12) {
      Eigen::Matrix2d damped = normal;
      damped.diagonal() *= 1.0 + lambda;
      delta = damped.ldlt().solve(-gradient);
      ++result.simulations;
      trial = residuals(model, start, frames, theta + delta);
      accepted = trial.ok && trial.r.squaredNorm() <= at.r.squaredNorm();
      if (accepted) ++result.iterations;
      go_on =
          report(accepted,
                 trial.ok ? 0.5 * trial.r.squaredNorm() : std::numeric_limits<double>::infinity(),
                 theta + delta, delta.lpNorm<Eigen::Infinity>(), lambda);
      lambda = accepted ? std::max(lambda / 10.0, 1e-12) : lambda * 10.0;
    }
    if (!accepted) {
      result.message = go_on ? "no step lowers the cost (damping beyond 1e12)" : "interrupted";
      break;
    }
    theta += delta;
    at = std::move(trial);
    if (delta.lpNorm<Eigen::Infinity>() < options.step_tolerance) {
      result.converged = true;
      result.message = "a step below the step tolerance";
    }
  }
  if (!go_on && result.converged == false) result.message = "interrupted";
  set_estimate(theta, at, result);
  return result;
}

}  // namespace tendril::vine3d
