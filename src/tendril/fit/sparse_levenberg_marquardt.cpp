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

/// The loop's state: the result so far, lambda and its growth factor, the rejections in a row.
class LevenbergMarquardt {
 public:
  LevenbergMarquardt(const SparseResidualFunction& residuals, const VecX& lower, const VecX& upper,
                     const SparseLmOptions& options, const SparseCurvatureFunction& curvature,
                     const SparseLmProgress& progress)
      : residuals_(residuals),
        lower_(lower),
        upper_(upper),
        options_(options),
        curvature_(curvature),
        progress_(progress),
        lambda_(options.initial_damping) {}

  SparseLmResult run(const VecX& y0) {
    out_.y = y0.cwiseMax(lower_).cwiseMin(upper_);
    out_.at = residuals_(out_.y, true);
    ++out_.evaluations;
    if (!out_.at.ok)
      throw std::runtime_error("Levenberg-Marquardt: the residuals are not defined at the start: " +
                               out_.at.message);
    out_.initial_cost = out_.cost = 0.5 * out_.at.residual.squaredNorm();
    if (stop_after(true, out_.cost, 0.0, out_.y, "")) return out_;
    while (out_.iterations < options_.max_iterations) {
      const DampedStep d = damped_step_parts(out_.at, out_.y, lower_, upper_, curvature_);
      if (gradient_converged(d)) return out_;
      VecX trial_y;
      if (damped_trial(d, trial_y)) {
        const Trial trial = try_step(d, trial_y);
        if (trial == Trial::done) return out_;
        if (trial == Trial::accepted) continue;
      }
      if (++rejections_ > options_.max_rejections) {
        out_.stalled = true;
        out_.message =
            fmt::format("{} rejected steps in a row (lambda {:.3g}): a stall, not a minimum",
                        rejections_ - 1, lambda_);
        return out_;
      }
      lambda_ *= growth_;
      growth_ *= 2.0;
    }
    out_.message = fmt::format("not converged after {} iterations", options_.max_iterations);
    return out_;
  }

 private:
  enum class Trial { accepted, rejected, done };

  /// Reports a trial to the progress callback; true if it asks to stop.
  bool stop_after(bool accepted, double cost, double step, const VecX& y,
                  const std::string& failure) {
    if (!progress_ ||
        progress_({out_.iterations, accepted, cost, step, lambda_, out_.evaluations, &y, failure}))
      return false;
    out_.interrupted = true;
    out_.message = "interrupted";
    return true;
  }

  /// Converged when the projected gradient is below its tolerance or round-off.
  bool gradient_converged(const DampedStep& d) {
    const double projected_gradient = d.free.cwiseProduct(d.gradient).lpNorm<Eigen::Infinity>();
    const double round_off =
        options_.relative_gradient_tolerance * out_.at.jacobian.norm() * out_.at.residual.norm();
    if (projected_gradient > std::max(options_.gradient_tolerance, round_off)) return false;
    out_.converged = true;
    out_.message =
        fmt::format("projected gradient {:.3g} <= max({:.1e}, {:.1e} |J| |r|)", projected_gradient,
                    options_.gradient_tolerance, options_.relative_gradient_tolerance);
    return true;
  }

  /// The damped step's trial point, projected onto the bounds; false if there is none (the damped
  /// matrix, with S, not positive definite: lambda grows as after a rejected step).
  bool damped_trial(const DampedStep& d, VecX& trial_y) {
    SparseMatrix damped = d.free.asDiagonal() * d.normal * d.free.asDiagonal();
    for (int j = 0; j < damped.cols(); ++j)
      damped.coeffRef(j, j) += d.free(j) > 0.0 ? lambda_ * d.diagonal(j) : 1.0;
    // analysed every iteration: J's pattern follows the state (the data rows keep only the bodies a
    // measured point lies on), and an analysis is cheap beside the residual evaluations
    ldlt_.compute(damped);
    if (ldlt_.info() != Eigen::Success || (curvature_ && !(ldlt_.vectorD().minCoeff() > 0.0)))
      return false;
    trial_y =
        (out_.y + ldlt_.solve(-d.free.cwiseProduct(d.gradient))).cwiseMax(lower_).cwiseMin(upper_);
    return trial_y.allFinite();
  }

  void converged(const std::string& why) {
    out_.converged = true;
    out_.message = fmt::format("{} at lambda {:.3g}", why, lambda_);
  }

  /// Evaluates the trial: accepted (when the cost falls by more than 1e-4 of the predicted
  /// decrease, or a short step lowers it), rejected, or done (converged or stopped).
  Trial try_step(const DampedStep& d, const VecX& trial_y) {
    const VecX step = trial_y - out_.y;
    const double step_norm = step.lpNorm<Eigen::Infinity>();
    // short even undamped (the damping shortens a step by about 1 / (1 + lambda)): converged,
    // after taking it if it lowers the cost
    const bool short_step = (1.0 + lambda_) * step_norm <
                            options_.step_tolerance * (1.0 + out_.y.lpNorm<Eigen::Infinity>());
    const std::string short_step_reason =
        fmt::format("step below {:.1e} (relative)", options_.step_tolerance);
    // predicted decrease of the quadratic model -(J^T r . step + 1/2 step^T (J^T J [+ S]) step)
    const double predicted = -(d.gradient.dot(step) + 0.5 * step.dot(d.normal * step));
    SparseResiduals trial = residuals_(trial_y, false);
    ++out_.evaluations;
    const double trial_cost = trial.ok ? 0.5 * trial.residual.squaredNorm() : INFINITY;
    const double rho = predicted > 0.0 ? (out_.cost - trial_cost) / predicted : -1.0;
    bool failed = !trial.ok;
    std::string failure = trial.message;
    if (trial.ok && std::isfinite(trial_cost) &&
        (rho > 1e-4 || (short_step && trial_cost < out_.cost))) {
      SparseResiduals accepted = residuals_(trial_y, true);
      ++out_.evaluations;
      if (accepted.ok) {
        const double decrease = (out_.cost - trial_cost) / out_.cost;
        out_.y = trial_y;
        out_.cost = trial_cost;
        out_.at = std::move(accepted);
        ++out_.iterations;
        rejections_ = 0;
        if (stop_after(true, out_.cost, step_norm, out_.y, "")) return Trial::done;
        if (short_step) {
          converged(short_step_reason);
          return Trial::done;
        }
        if ((1.0 + lambda_) * decrease < options_.cost_tolerance) {
          converged(fmt::format("relative cost decrease below {:.1e}", options_.cost_tolerance));
          return Trial::done;
        }
        lambda_ *= std::max(1.0 / 3.0, 1.0 - std::pow(2.0 * rho - 1.0, 3));
        growth_ = 2.0;
        return Trial::accepted;
      }
      failed = true;  // the value was defined, its Jacobian is not: reject as well
      failure = accepted.message;
    }
    if (failed) ++out_.failed_evaluations;
    if (stop_after(false, trial_cost, step_norm, trial_y, failure)) return Trial::done;
    if (short_step && !failed) {
      converged(short_step_reason);
      return Trial::done;
    }
    return Trial::rejected;
  }

  const SparseResidualFunction& residuals_;
  const VecX& lower_;
  const VecX& upper_;
  const SparseLmOptions& options_;
  const SparseCurvatureFunction& curvature_;
  const SparseLmProgress& progress_;
  SparseLmResult out_;
  double lambda_, growth_ = 2.0;
  int rejections_ = 0;
  Eigen::SimplicialLDLT<SparseMatrix> ldlt_;
};

}  // namespace

SparseLmResult minimise_sparse_least_squares(const SparseResidualFunction& residuals,
                                             const VecX& y0, const VecX& lower, const VecX& upper,
                                             const SparseLmOptions& options,
                                             const SparseCurvatureFunction& curvature,
                                             const SparseLmProgress& progress) {
  return LevenbergMarquardt(residuals, lower, upper, options, curvature, progress).run(y0);
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
