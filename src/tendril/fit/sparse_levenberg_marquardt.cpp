#include "tendril/fit/sparse_levenberg_marquardt.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>
#include <Eigen/Dense>
#include <Eigen/SparseCholesky>

namespace tendril::fit {

namespace {

/// The damped step's matrix and right-hand side at the current point; false if it is not usable.
struct DampedStep {
  VecX gradient;        ///< dC/dy
  VecX free;            ///< 1 for a free variable, 0 for one held at its bound
  SparseMatrix normal;  ///< J^T J [+ S]
  VecX diagonal;        ///< Marquardt's scaling
};

DampedStep damped_step_parts(const SparseResiduals& at, const VecX& y, const VecX& lower,
                             const VecX& upper, const SparseCurvatureFunction& curvature) {
  DampedStep d;
  const SparseMatrix jt = at.jacobian.transpose();
  d.gradient = jt * at.residual;
  // variables at a bound that the gradient pushes outwards are held (the active set); the others
  // take the damped step
  d.free = VecX::Ones(d.gradient.size());
  for (Eigen::Index j = 0; j < d.free.size(); ++j)
    if ((y(j) <= lower(j) && d.gradient(j) > 0.0) || (y(j) >= upper(j) && d.gradient(j) < 0.0))
      d.free(j) = 0.0;
  d.normal = jt * at.jacobian;
  d.diagonal = d.normal.diagonal().cwiseMax(1e-12 * std::max(1.0, d.normal.diagonal().maxCoeff()));
  if (curvature) d.normal += curvature(y, at.residual);  // the full Hessian J^T J + S
  return d;
}

}  // namespace

SparseLmResult minimise_sparse_least_squares(const SparseResidualFunction& residuals,
                                             const VecX& y0, const VecX& lower, const VecX& upper,
                                             const SparseLmOptions& options,
                                             const SparseCurvatureFunction& curvature,
                                             const SparseLmProgress& progress) {
  SparseLmResult out;
  out.y = y0.cwiseMax(lower).cwiseMin(upper);
  out.at = residuals(out.y, true);
  ++out.evaluations;
  if (!out.at.ok)
    throw std::runtime_error("Levenberg-Marquardt: the residuals are not defined at the start: " +
                             out.at.message);
  out.initial_cost = out.cost = 0.5 * out.at.residual.squaredNorm();
  double lambda = options.initial_damping, growth = 2.0;
  // reports a trial to `progress`; true if it asks to stop
  const auto stop_after = [&](bool accepted, double cost, double step, const VecX& y,
                              const std::string& failure) {
    if (!progress ||
        progress({out.iterations, accepted, cost, step, lambda, out.evaluations, &y, failure}))
      return false;
    out.interrupted = true;
    out.message = "interrupted";
    return true;
  };
  if (stop_after(true, out.cost, 0.0, out.y, "")) return out;
  int rejections = 0;
  Eigen::SimplicialLDLT<SparseMatrix> ldlt;
  while (out.iterations < options.max_iterations) {
    const DampedStep d = damped_step_parts(out.at, out.y, lower, upper, curvature);
    const double projected_gradient = d.free.cwiseProduct(d.gradient).lpNorm<Eigen::Infinity>();
    const double round_off =
        options.relative_gradient_tolerance * out.at.jacobian.norm() * out.at.residual.norm();
    if (projected_gradient <= std::max(options.gradient_tolerance, round_off)) {
      out.converged = true;
      out.message = fmt::format("projected gradient {:.3g} <= max({:.1e}, {:.1e} |J| |r|)",
                                projected_gradient, options.gradient_tolerance,
                                options.relative_gradient_tolerance);
      return out;
    }
    SparseMatrix damped = d.free.asDiagonal() * d.normal * d.free.asDiagonal();
    for (int j = 0; j < damped.cols(); ++j)
      damped.coeffRef(j, j) += d.free(j) > 0.0 ? lambda * d.diagonal(j) : 1.0;
    // analysed every iteration: J's pattern follows the state (the data rows keep only the bodies a
    // measured point lies on), and an analysis is cheap beside the residual evaluations
    ldlt.compute(damped);
    // with S the damped matrix may be indefinite: then lambda grows as after a rejected step
    bool have_step =
        ldlt.info() == Eigen::Success && (!curvature || ldlt.vectorD().minCoeff() > 0.0);
    VecX trial_y;
    if (have_step) {
      trial_y =
          (out.y + ldlt.solve(-d.free.cwiseProduct(d.gradient))).cwiseMax(lower).cwiseMin(upper);
      have_step = trial_y.allFinite();
    }
    if (have_step) {
      const VecX step = trial_y - out.y;
      const double step_norm = step.lpNorm<Eigen::Infinity>();
      // short even undamped (the damping shortens a step by about 1 / (1 + lambda)): converged,
      // after taking it if it lowers the cost
      const bool short_step = (1.0 + lambda) * step_norm <
                              options.step_tolerance * (1.0 + out.y.lpNorm<Eigen::Infinity>());
      const auto converged = [&](const std::string& why) {
        out.converged = true;
        out.message = fmt::format("{} at lambda {:.3g}", why, lambda);
        return out;
      };
      const std::string short_step_reason =
          fmt::format("step below {:.1e} (relative)", options.step_tolerance);
      // predicted decrease of the quadratic model -(J^T r . step + 1/2 step^T (J^T J [+ S]) step)
      const double predicted = -(d.gradient.dot(step) + 0.5 * step.dot(d.normal * step));
      SparseResiduals trial = residuals(trial_y, false);
      ++out.evaluations;
      const double trial_cost = trial.ok ? 0.5 * trial.residual.squaredNorm() : INFINITY;
      const double rho = predicted > 0.0 ? (out.cost - trial_cost) / predicted : -1.0;
      bool failed = !trial.ok;
      std::string failure = trial.message;
      if (trial.ok && std::isfinite(trial_cost) &&
          (rho > 1e-4 || (short_step && trial_cost < out.cost))) {
        SparseResiduals accepted = residuals(trial_y, true);
        ++out.evaluations;
        if (accepted.ok) {
          const double decrease = (out.cost - trial_cost) / out.cost;
          out.y = trial_y;
          out.cost = trial_cost;
          out.at = std::move(accepted);
          ++out.iterations;
          rejections = 0;
          if (stop_after(true, out.cost, step_norm, out.y, "")) return out;
          if (short_step) return converged(short_step_reason);
          if ((1.0 + lambda) * decrease < options.cost_tolerance)
            return converged(
                fmt::format("relative cost decrease below {:.1e}", options.cost_tolerance));
          lambda *= std::max(1.0 / 3.0, 1.0 - std::pow(2.0 * rho - 1.0, 3));
          growth = 2.0;
          continue;
        }
        failed = true;  // the value was defined, its Jacobian is not: reject as well
        failure = accepted.message;
      }
      if (failed) ++out.failed_evaluations;
      if (stop_after(false, trial_cost, step_norm, trial_y, failure)) return out;
      if (short_step && !failed) return converged(short_step_reason);
    }
    if (++rejections > options.max_rejections) {
      out.stalled = true;
      out.message =
          fmt::format("{} rejected steps in a row (lambda {:.3g}): a stall, not a minimum",
                      rejections - 1, lambda);
      return out;
    }
    lambda *= growth;
    growth *= 2.0;
  }
  out.message = fmt::format("not converged after {} iterations", options.max_iterations);
  return out;
}

MatX least_squares_covariance(const MatX& jacobian, double s2) {
  const Eigen::Index n = jacobian.cols();
  Eigen::SelfAdjointEigenSolver<MatX> eig(jacobian.transpose() * jacobian);
  const VecX& ev = eig.eigenvalues();
  const double cutoff = 1e-12 * std::max(ev.maxCoeff(), 1e-300);
  MatX inverse = MatX::Zero(n, n);
  std::vector<bool> undetermined(static_cast<std::size_t>(n), false);
  for (Eigen::Index e = 0; e < n; ++e) {
    const VecX v = eig.eigenvectors().col(e);
    if (ev[e] <= cutoff) {
      for (Eigen::Index j = 0; j < n; ++j)
        if (std::abs(v[j]) > 1e-8) undetermined[static_cast<std::size_t>(j)] = true;
    } else {
      inverse += v * v.transpose() / ev[e];
    }
  }
  MatX covariance = s2 * inverse;
  for (Eigen::Index j = 0; j < n; ++j)
    if (undetermined[static_cast<std::size_t>(j)]) {
      covariance.row(j).setConstant(std::nan(""));
      covariance.col(j).setConstant(std::nan(""));
    }
  return covariance;
}

}  // namespace tendril::fit
