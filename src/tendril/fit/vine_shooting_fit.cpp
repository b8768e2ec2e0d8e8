#include "tendril/fit/vine_shooting_fit.hpp"

#include <cmath>
#include <limits>

#include <Eigen/Dense>
#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/vine/step_derivatives.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::fit {

namespace {

using vine::VineModel;
using vine::VineState;

void set_parameters(VineModel& model, double stiffness, double damping) {
  std::fill(model.stiffness.begin(), model.stiffness.end(), stiffness);
  std::fill(model.damping.begin(), model.damping.end(), damping);
}

}  // namespace

ShootingResiduals shooting_residuals(VineModel model, const VineState& start, const std::vector<MeasuredFrame>& frames,
                                     Observation observation, double stiffness, double damping, bool with_jacobian) {
  ShootingResiduals out;
  set_parameters(model, stiffness, damping);
  int rows = 0;
  for (const MeasuredFrame& f : frames) rows += 2 * (observation == Observation::tip ? 1 : static_cast<int>(f.points.rows()));
  out.residual.resize(rows);
  if (with_jacobian) out.jacobian.resize(rows, 2);

  vine::VineStepper stepper(model);
  VineState s = start;
  const int n = model.num_dofs();
  // sensitivities d(q, v)/dtheta, theta = (ln K, ln C): zero at the given start
  MatX sq = MatX::Zero(n, 2), sv = MatX::Zero(n, 2);
  const VecX k_weights = VecX::Constant(model.num_pins(), stiffness), c_weights = VecX::Constant(model.num_pins(), damping);
  int step = 0, row = 0;
  for (const MeasuredFrame& frame : frames) {
    TENDRIL_ASSERT(frame.step >= step, "measured frames in increasing step order");
    while (step < frame.step) {
      const vine::VineStepReport report = stepper.step(s);
      if (!report.ok()) {
        out.message = fmt::format("step {} (t = {:.4g} s) with K = {:.6g} N m/rad, C = {:.6g} N m s/rad: {}", step,
                                  s.time, stiffness, damping,
                                  report.status != vine::QpStatus::solved ? std::string(vine::to_string(report.status))
                                                                          : std::string("joint drift or energy blow-up"));
        return out;
      }
      if (with_jacobian) {
        const vine::StepDerivatives d = vine::step_derivatives(stepper);
        if (!d.ok) {
          out.message = fmt::format("step {}: the step map is not differentiable there (singular KKT matrix)", step);
          return out;
        }
        MatX sq_next = d.dq_dq * sq + d.dq_dv * sv, sv_next = d.dv_dq * sq + d.dv_dv * sv;
        // dK_j / dln K = K_j, dC_j / dln C = C_j
        sq_next.col(0) += d.dq_dK * k_weights;
        sq_next.col(1) += d.dq_dC * c_weights;
        sv_next.col(0) += d.dv_dK * k_weights;
        sv_next.col(1) += d.dv_dC * c_weights;
        sq.swap(sq_next);
        sv.swap(sv_next);
      }
      ++step;
    }
    const int measured = static_cast<int>(frame.points.rows());
    MatX points, dpoints;
    observe_vine(model, s.q, observation, measured, points, with_jacobian ? &dpoints : nullptr);
    const MatX target = observation == Observation::tip ? MatX(frame.points.row(measured - 1)) : frame.points;
    for (int k = 0; k < points.rows(); ++k)
      for (int c = 0; c < 2; ++c) out.residual(row + 2 * k + c) = points(k, c) - target(k, c);
    if (with_jacobian) out.jacobian.middleRows(row, 2 * points.rows()) = dpoints * sq;
    row += 2 * static_cast<int>(points.rows());
    out.simulated.push_back(points);
  }
  out.ok = true;
  return out;
}

VineFitResult fit_stiffness_damping(const VineModel& model, const VineState& start,
                                    const std::vector<MeasuredFrame>& frames, const VineFitOptions& options) {
  TENDRIL_ASSERT(options.max_iterations >= 1, "at least one iteration");
  VineFitResult result;
  if (model.stiffness.empty() || !(model.stiffness[0] > 0.0) || !(model.damping[0] > 0.0))
    throw InputError("vine.stiffness", model.stiffness.empty() ? "[]" : fmt::format("{}", model.stiffness[0]),
                     "an initial guess K > 0 and C > 0 (the fit works on ln K, ln C)");
  Vec2 theta(std::log(model.stiffness[0]), std::log(model.damping[0]));
  const auto evaluate = [&](const Vec2& t, bool jacobian) {
    return shooting_residuals(model, start, frames, options.observation, std::exp(t[0]), std::exp(t[1]), jacobian);
  };
  ShootingResiduals current = evaluate(theta, true);
  if (!current.ok) {
    result.message = "the initial guess does not simulate: " + current.message;
    return result;
  }
  double cost = 0.5 * current.residual.squaredNorm();
  result.initial_cost = cost;
  // Levenberg-Marquardt with Marquardt's diagonal scaling
  double lambda = 1e-3;
  for (int iteration = 1; iteration <= options.max_iterations; ++iteration) {
    result.iterations = iteration;
    const MatN<2> jtj = current.jacobian.transpose() * current.jacobian;
    const Vec2 gradient = current.jacobian.transpose() * current.residual;
    bool accepted = false;
    Vec2 delta = Vec2::Zero();
    while (lambda < 1e12) {
      MatN<2> a = jtj;
      a.diagonal() += lambda * jtj.diagonal().cwiseMax(1e-30);
      delta = -a.ldlt().solve(gradient);
      ShootingResiduals trial = evaluate(theta + delta, true);
      const double trial_cost = trial.ok ? 0.5 * trial.residual.squaredNorm() : std::numeric_limits<double>::infinity();
      if (trial_cost < cost) {
        const double decrease = (cost - trial_cost) / cost;
        theta += delta;
        current = std::move(trial);
        cost = trial_cost;
        lambda = std::max(lambda / 3.0, 1e-12);
        accepted = true;
        result.history.push_back(cost);
        if (delta.norm() < options.step_tolerance || decrease < options.cost_tolerance) {
          result.converged = true;
          result.message = delta.norm() < options.step_tolerance ? "step below step_tolerance"
                                                                   : "cost decrease below cost_tolerance";
        }
        break;
      }
      lambda *= 4.0;
    }
    if (!accepted) {
      // no decrease in any direction the damping allows: a minimum if the residual is orthogonal to
      // the Jacobian's columns (to round-off), else the Jacobian does not describe the cost
      result.converged = gradient.norm() <= 1e-8 * current.jacobian.norm() * current.residual.norm();
      result.message = result.converged ? "no further decrease (at the minimum)"
                                        : "Levenberg-Marquardt found no decrease along the Jacobian's directions";
      break;
    }
    if (result.converged) break;
  }
  if (!result.converged && result.message.empty()) result.message = "max_iterations reached";

  result.stiffness = std::exp(theta[0]);
  result.damping = std::exp(theta[1]);
  result.cost = cost;
  const Eigen::Index dof = current.residual.size() - 2;
  if (dof > 0) {
    // a parameter the residual no longer depends on (a column of J near zero: K -> 0 leaves ln K
    // free) has no finite uncertainty: +inf, and the other is taken with it held fixed
    const MatX& jac = current.jacobian;
    const double variance = 2.0 * cost / static_cast<double>(dof);
    const double scale = std::max(jac.col(0).norm(), jac.col(1).norm());
    const bool free_k = jac.col(0).norm() <= 1e-8 * scale, free_c = jac.col(1).norm() <= 1e-8 * scale;
    const double inf = std::numeric_limits<double>::infinity();
    if (free_k || free_c) {
      result.stiffness_sigma = free_k ? inf : result.stiffness * std::sqrt(variance / jac.col(0).squaredNorm());
      result.damping_sigma = free_c ? inf : result.damping * std::sqrt(variance / jac.col(1).squaredNorm());
    } else {
      const MatN<2> covariance = variance * (jac.transpose() * jac).inverse();
      result.stiffness_sigma = result.stiffness * std::sqrt(covariance(0, 0));
      result.damping_sigma = result.damping * std::sqrt(covariance(1, 1));
    }
  }
  result.fitted = std::move(current);
  return result;
}

}  // namespace tendril::fit
