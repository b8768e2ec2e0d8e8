#include "tendril/fit/vine_shooting_fit.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <Eigen/Dense>

#include "tendril/core/error.hpp"
#include "tendril/fit/sparse_levenberg_marquardt.hpp"
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

ShootingResiduals shooting_residuals(VineModel model, const VineState& start,
                                     const std::vector<MeasuredFrame>& frames,
                                     Observation observation, double stiffness, double damping,
                                     bool with_jacobian) {
  ShootingResiduals out;
  if (!std::isfinite(stiffness) ||
      !std::isfinite(damping)) {  // a step that overflowed exp(ln K): a failed trial
    out.message =
        fmt::format("K = {:.6g} N m/rad, C = {:.6g} N m s/rad: not finite", stiffness, damping);
    return out;
  }
  set_parameters(model, stiffness, damping);
  int rows = 0;
  for (const MeasuredFrame& f : frames)
    rows += 2 * (observation == Observation::tip ? 1 : static_cast<int>(f.points.rows()));
  out.residual.resize(rows);
  if (with_jacobian) out.jacobian.resize(rows, 2);

  vine::VineStepper stepper(model);
  VineState s = start;
  const int n = model.num_dofs();
  // sensitivities d(q, v)/dtheta, theta = (ln K, ln C): zero at the given start
  MatX sq = MatX::Zero(n, 2), sv = MatX::Zero(n, 2);
  const VecX k_weights = VecX::Constant(model.num_pins(), stiffness),
             c_weights = VecX::Constant(model.num_pins(), damping);
  int step = 0, row = 0;
  for (const MeasuredFrame& frame : frames) {
    TENDRIL_ASSERT(frame.step >= step, "measured frames in increasing step order");
    while (step < frame.step) {
      const vine::VineStepReport report = stepper.step(s);
      if (!report.ok()) {
        out.message = fmt::format(
            "step {} (t = {:.4g} s) with K = {:.6g} N m/rad, C = {:.6g} N m s/rad: {}", step,
            s.time, stiffness, damping,
            report.status != vine::QpStatus::solved ? std::string(vine::to_string(report.status))
                                                    : std::string("joint drift or energy blow-up"));
        return out;
      }
      if (with_jacobian) {
        const vine::StepDerivatives d = vine::step_derivatives(stepper);
        if (!d.ok) {
          out.message = fmt::format(
              "step {}: the step map is not differentiable there (singular KKT matrix)", step);
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
    const MatX target =
        observation == Observation::tip ? MatX(frame.points.row(measured - 1)) : frame.points;
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
                                    const std::vector<MeasuredFrame>& frames,
                                    const VineFitOptions& options) {
  VineFitResult result;
  if (model.stiffness.empty() || !(model.stiffness[0] > 0.0) || !(model.damping[0] > 0.0))
    throw InputError("vine.stiffness",
                     model.stiffness.empty() ? "[]" : fmt::format("{}", model.stiffness[0]),
                     "an initial guess K > 0 and C > 0 (the fit works on ln K, ln C)");
  const Vec2 theta0(std::log(model.stiffness[0]), std::log(model.damping[0]));
  int simulations = 0;
  ShootingResiduals
      fitted;           // at the last point evaluated with its Jacobian (the last accepted one)
  std::string failure;  // why the last failed simulation failed
  const auto residuals = [&](const VecX& t, bool with_jacobian) {
    ++simulations;
    ShootingResiduals r = shooting_residuals(model, start, frames, options.observation,
                                             std::exp(t[0]), std::exp(t[1]), with_jacobian);
    SparseResiduals out{r.ok, r.message, r.residual, {}};
    if (!r.ok) failure = r.message;
    if (r.ok && with_jacobian) {
      out.jacobian = r.jacobian.sparseView(0.0, 0.0);
      fitted = std::move(r);
    }
    return out;
  };
  const auto line = [&](const SparseLmIteration& i) {
    FitIteration h{
        i.iteration, i.cost, 0.0, i.step, i.damping, simulations, i.y->array().exp().matrix()};
    h.accepted = i.accepted;
    result.history.push_back(h);
    return !options.progress || options.progress(h);
  };
  const VecX unbounded = VecX::Constant(2, std::numeric_limits<double>::infinity());
  SparseLmResult lm;
  try {
    lm = minimise_sparse_least_squares(residuals, theta0, -unbounded, unbounded,
                                       {.max_iterations = options.max_iterations,
                                        .step_tolerance = options.step_tolerance,
                                        .cost_tolerance = options.cost_tolerance},
                                       {}, line);
  } catch (const std::runtime_error&) {
    result.message = "the initial guess does not simulate: " + failure;
    return result;
  }
  result.converged = lm.converged;
  result.message = lm.message;
  result.iterations = lm.iterations;
  result.simulations = simulations;
  result.stiffness = std::exp(lm.y[0]);
  result.damping = std::exp(lm.y[1]);
  result.initial_cost = lm.initial_cost;
  result.cost = lm.cost;
  // sigma from the Gauss-Newton covariance in ln units: a parameter the residual no longer depends
  // on (K -> 0 leaves ln K free) is undetermined, +inf
  const Eigen::Index dof = fitted.residual.size() - 2;
  if (dof > 0) {
    const MatX covariance =
        least_squares_covariance(fitted.jacobian, 2.0 * lm.cost / static_cast<double>(dof));
    const auto sigma = [&](int j, double value) {
      return std::isfinite(covariance(j, j)) ? value * std::sqrt(covariance(j, j))
                                             : std::numeric_limits<double>::infinity();
    };
    result.stiffness_sigma = sigma(0, result.stiffness);
    result.damping_sigma = sigma(1, result.damping);
  }
  result.fitted = std::move(fitted);
  return result;
}

}  // namespace tendril::fit
