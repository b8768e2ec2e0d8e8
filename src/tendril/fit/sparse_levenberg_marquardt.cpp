#include "tendril/fit/sparse_levenberg_marquardt.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <Eigen/SparseCholesky>
#include <fmt/format.h>

namespace tendril::fit {

SparseLmResult minimise_sparse_least_squares(const SparseResidualFunction& residuals, const VecX& y0,
                                             const VecX& lower, const VecX& upper, const SparseLmOptions& options,
                                             const SparseCurvatureFunction& curvature) {
  SparseLmResult out;
  out.y = y0.cwiseMax(lower).cwiseMin(upper);
  SparseResiduals current = residuals(out.y, true);
  ++out.evaluations;
  if (!current.ok) throw std::runtime_error("Levenberg-Marquardt: the residuals are not defined at the start: " + current.message);
  out.initial_cost = out.cost = 0.5 * current.residual.squaredNorm();
  double lambda = options.initial_damping, growth = 2.0;
  int rejections = 0;
  Eigen::SimplicialLDLT<SparseMatrix> ldlt;
  while (out.iterations < options.max_iterations) {
    const SparseMatrix jt = current.jacobian.transpose();
    const VecX gradient = jt * current.residual;  // dC/dy
    // variables at a bound that the gradient pushes outwards are held (the active set); the
    // others take the damped Gauss-Newton step
    VecX free = VecX::Ones(gradient.size());
    for (Eigen::Index j = 0; j < free.size(); ++j)
      if ((out.y(j) <= lower(j) && gradient(j) > 0.0) || (out.y(j) >= upper(j) && gradient(j) < 0.0)) free(j) = 0.0;
    SparseMatrix normal = jt * current.jacobian;
    const VecX diagonal = normal.diagonal().cwiseMax(1e-12 * std::max(1.0, normal.diagonal().maxCoeff()));
    if (curvature) normal += curvature(out.y, current.residual);  // the full Hessian J^T J + S
    SparseMatrix damped = free.asDiagonal() * normal * free.asDiagonal();
    for (int j = 0; j < damped.cols(); ++j) damped.coeffRef(j, j) += free(j) > 0.0 ? lambda * diagonal(j) : 1.0;
    // analysed every iteration: J's pattern follows the state (the data rows keep only the bodies a
    // measured point lies on), and an analysis is cheap beside the residual evaluations
    ldlt.compute(damped);
    VecX trial_y;
    // with S the damped matrix may be indefinite: then lambda grows as after a rejected step
    bool have_step = ldlt.info() == Eigen::Success && (!curvature || ldlt.vectorD().minCoeff() > 0.0);
    if (have_step) {
      const VecX dy = ldlt.solve(-free.cwiseProduct(gradient));
      trial_y = (out.y + dy).cwiseMax(lower).cwiseMin(upper);
      have_step = trial_y.allFinite();
    }
    if (have_step) {
      const VecX step = trial_y - out.y;
      if (step.lpNorm<Eigen::Infinity>() < options.step_tolerance * (1.0 + out.y.lpNorm<Eigen::Infinity>())) {
        out.converged = true;
        out.message = fmt::format("step below {:.1e} (relative)", options.step_tolerance);
        return out;
      }
      // predicted decrease of the quadratic model -(J^T r . step + 1/2 step^T (J^T J [+ S]) step)
      const double predicted = -(gradient.dot(step) + 0.5 * step.dot(normal * step));
      SparseResiduals trial = residuals(trial_y, false);
      ++out.evaluations;
      if (!trial.ok) ++out.failed_evaluations;
      const double trial_cost = trial.ok ? 0.5 * trial.residual.squaredNorm() : INFINITY;
      const double rho = predicted > 0.0 ? (out.cost - trial_cost) / predicted : -1.0;
      if (trial.ok && std::isfinite(trial_cost) && rho > 1e-4) {
        SparseResiduals accepted = residuals(trial_y, true);
        ++out.evaluations;
        if (accepted.ok) {
          const double decrease = (out.cost - trial_cost) / out.cost;
          out.y = trial_y;
          out.cost = trial_cost;
          current = std::move(accepted);
          ++out.iterations;
          rejections = 0;
          lambda *= std::max(1.0 / 3.0, 1.0 - std::pow(2.0 * rho - 1.0, 3));
          growth = 2.0;
          if (decrease < options.cost_tolerance) {
            out.converged = true;
            out.message = fmt::format("relative cost decrease below {:.1e}", options.cost_tolerance);
            return out;
          }
          continue;
        }
        ++out.failed_evaluations;  // the value was defined, its Jacobian is not: reject as well
      }
    }
    if (++rejections > options.max_rejections) {
      out.message = fmt::format("{} rejected steps in a row (lambda {:.3g})", rejections - 1, lambda);
      return out;
    }
    lambda *= growth;
    growth *= 2.0;
  }
  out.message = fmt::format("{} iterations without convergence", options.max_iterations);
  return out;
}

}  // namespace tendril::fit
