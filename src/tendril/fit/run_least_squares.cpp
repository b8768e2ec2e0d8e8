#include "tendril/fit/run_least_squares.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Dense>
#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"

namespace tendril::fit {

std::string parameter_setting(const std::string& key, double value) { return key + "=" + number_text(value, 17); }

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// The runs of all experiments at one parameter point.
struct PointResult {
  bool ok = false;
  std::string message;
  MatX simulated;  ///< (#i x #k)
  VecX residual;   ///< (#measured entries), (y - m) / sigma
  double cost() const { return ok ? 0.5 * residual.squaredNorm() : kInf; }
};

class Problem {
 public:
  Problem(const std::vector<FitParameter>& parameters, const MeasurementTable& data, const RunBatchEvaluator& evaluate)
      : parameters_(parameters), data_(data), evaluate_(evaluate) {}

  /// Runs every experiment at each theta in one batch.
  std::vector<PointResult> at(const std::vector<VecX>& thetas) {
    const std::size_t n_exp = data_.experiments.size();
    std::vector<RunSettings> batch;
    for (const VecX& theta : thetas)
      for (const RunSettings& experiment : data_.experiments) {
        RunSettings s = experiment;
        for (std::size_t j = 0; j < parameters_.size(); ++j)
          s.push_back(parameter_setting(parameters_[j].key, theta[static_cast<Eigen::Index>(j)]));
        batch.push_back(std::move(s));
      }
    const std::vector<RunOutcome> outcomes = evaluate_(batch);
    TENDRIL_ASSERT(outcomes.size() == batch.size(), "the evaluator returned a wrong number of outcomes");
    runs_ += static_cast<long>(batch.size());
    std::vector<PointResult> results;
    const auto n_obs = static_cast<Eigen::Index>(data_.observables.size());
    for (std::size_t p = 0; p < thetas.size(); ++p) {
      PointResult r;
      r.ok = true;
      r.simulated = MatX::Constant(static_cast<Eigen::Index>(n_exp), n_obs, std::nan(""));
      std::vector<double> residual;
      for (std::size_t i = 0; i < n_exp && r.ok; ++i) {
        const RunOutcome& o = outcomes[p * n_exp + i];
        if (!o.ok || static_cast<Eigen::Index>(o.values.size()) != n_obs) {
          r.ok = false;
          r.message = fmt::format("the run of experiment {} at {} failed: {}", i + 1, describe(thetas[p]),
                                  o.ok ? "wrong number of observables" : o.message);
          break;
        }
        for (Eigen::Index k = 0; k < n_obs; ++k) {
          const double m = data_.measured(static_cast<Eigen::Index>(i), k), y = o.values[static_cast<std::size_t>(k)];
          r.simulated(static_cast<Eigen::Index>(i), k) = y;
          if (!std::isfinite(m)) continue;
          if (!std::isfinite(y)) {
            r.ok = false;
            r.message = fmt::format("the run of experiment {} at {} gave {} = {}", i + 1, describe(thetas[p]),
                                    data_.observables[static_cast<std::size_t>(k)], y);
            break;
          }
          residual.push_back((y - m) / data_.sigma[k]);
        }
      }
      r.residual = Eigen::Map<VecX>(residual.data(), static_cast<Eigen::Index>(residual.size()));
      results.push_back(std::move(r));
    }
    return results;
  }

  std::string describe(const VecX& theta) const {
    std::string s;
    for (std::size_t j = 0; j < parameters_.size(); ++j)
      s += (j ? ", " : "") + parameters_[j].key + " = " + number_text(theta[static_cast<Eigen::Index>(j)], 9);
    return s;
  }

  long runs() const { return runs_; }

 private:
  const std::vector<FitParameter>& parameters_;
  const MeasurementTable& data_;
  const RunBatchEvaluator& evaluate_;
  long runs_ = 0;
};

}  // namespace

RunFitResult fit_runs(const std::vector<FitParameter>& parameters, const MeasurementTable& data,
                      const RunBatchEvaluator& evaluate, const RunFitOptions& options,
                      const std::function<void(const FitIteration&)>& progress) {
  const auto n = static_cast<Eigen::Index>(parameters.size());
  TENDRIL_ASSERT(n > 0, "a fit needs parameters");
  TENDRIL_ASSERT(data.measured.rows() == static_cast<Eigen::Index>(data.experiments.size()) &&
                     data.measured.cols() == static_cast<Eigen::Index>(data.observables.size()) &&
                     data.sigma.size() == data.measured.cols(),
                 "measurement table shapes do not match");
  VecX scale(n), lo(n), hi(n), z(n);
  for (Eigen::Index j = 0; j < n; ++j) {
    const FitParameter& p = parameters[static_cast<std::size_t>(j)];
    TENDRIL_ASSERT(p.scale > 0.0 && p.lower <= p.initial && p.initial <= p.upper, "parameter checked by the caller");
    scale[j] = p.scale;
    lo[j] = p.lower / p.scale;
    hi[j] = p.upper / p.scale;
    z[j] = p.initial / p.scale;
  }
  auto theta = [&](const VecX& zz) -> VecX { return zz.cwiseProduct(scale); };

  Problem problem(parameters, data, evaluate);
  RunFitResult result;
  PointResult current = std::move(problem.at({theta(z)}).front());
  result.runs = problem.runs();
  if (!current.ok) {
    result.message = "the start failed: " + current.message;
    result.values = theta(z);
    result.sigma = VecX::Constant(n, kInf);
    return result;
  }
  const auto m = current.residual.size();
  result.initial_cost = current.cost();
  double lambda = options.initial_damping, last_step = 0.0;
  bool small_change = false;
  std::string reason, failed_run;
  MatX J;
  for (int iteration = 0;; ++iteration) {
    // the Jacobian by forward differences (backward at an upper bound), all runs in one batch
    VecX h(n);
    std::vector<VecX> shifted;
    for (Eigen::Index j = 0; j < n; ++j) {
      h[j] = options.difference_step * std::max(std::abs(z[j]), 1.0);
      if (z[j] + h[j] > hi[j]) h[j] = -h[j];
      VecX zj = z;
      zj[j] += h[j];
      shifted.push_back(theta(zj));
    }
    const std::vector<PointResult> columns = problem.at(shifted);
    result.runs = problem.runs();
    J.resize(m, n);
    for (Eigen::Index j = 0; j < n; ++j) {
      const PointResult& c = columns[static_cast<std::size_t>(j)];
      if (!c.ok || c.residual.size() != m) {
        failed_run = c.message;
        break;
      }
      J.col(j) = (c.residual - current.residual) / h[j];
    }
    if (!failed_run.empty()) {
      reason = "a finite-difference run failed: " + failed_run;
      result.converged = false;
      J.resize(0, 0);
      break;
    }
    const VecX g = J.transpose() * current.residual;
    // variables on a bound whose gradient pushes them out stay fixed this iteration
    std::vector<Eigen::Index> free;
    double projected_gradient = 0.0;
    for (Eigen::Index j = 0; j < n; ++j) {
      const bool held = (z[j] <= lo[j] && g[j] > 0.0) || (z[j] >= hi[j] && g[j] < 0.0);
      if (!held) {
        free.push_back(j);
        projected_gradient = std::max(projected_gradient, std::abs(g[j]));
      }
    }
    FitIteration line{iteration, current.cost(), 0.0, last_step, lambda, problem.runs(), theta(z)};
    result.history.push_back(line);
    result.iterations = iteration;
    if (progress) progress(line);
    if (small_change) {
      result.converged = true;
      break;
    }
    if (projected_gradient < options.gradient_tolerance) {
      result.converged = true;
      reason = fmt::format("converged: projected gradient {} < {}", number_text(projected_gradient, 3),
                           number_text(options.gradient_tolerance, 3));
      break;
    }
    if (iteration >= options.max_iterations) {
      reason = fmt::format("not converged after {} iterations (cost {})", options.max_iterations,
                           number_text(current.cost(), 6));
      break;
    }
    // damped Gauss-Newton steps on the free variables until one lowers the cost
    const auto nf = static_cast<Eigen::Index>(free.size());
    MatX Jf(m, nf);
    for (Eigen::Index a = 0; a < nf; ++a) Jf.col(a) = J.col(free[static_cast<std::size_t>(a)]);
    const MatX A = Jf.transpose() * Jf;
    VecX gf(nf);
    for (Eigen::Index a = 0; a < nf; ++a) gf[a] = g[free[static_cast<std::size_t>(a)]];
    const double diagonal_floor = 1e-12 * std::max(1.0, A.diagonal().maxCoeff());
    bool accepted = false;
    std::string last_failure;
    for (int attempt = 0; attempt < options.max_rejections && !accepted; ++attempt) {
      MatX damped = A;
      for (Eigen::Index a = 0; a < nf; ++a) damped(a, a) += lambda * std::max(A(a, a), diagonal_floor);
      const VecX dzf = damped.ldlt().solve(-gf);
      VecX trial = z;
      for (Eigen::Index a = 0; a < nf; ++a) {
        const Eigen::Index j = free[static_cast<std::size_t>(a)];
        trial[j] = std::clamp(z[j] + dzf[a], lo[j], hi[j]);
      }
      const VecX step = trial - z;
      PointResult next = std::move(problem.at({theta(trial)}).front());
      result.runs = problem.runs();
      if (next.ok && next.cost() < current.cost()) {
        const double decrease = (current.cost() - next.cost()) / std::max(current.cost(), 1e-300);
        last_step = step.lpNorm<Eigen::Infinity>();
        z = trial;
        current = std::move(next);
        lambda = std::max(lambda / 3.0, 1e-12);
        accepted = true;
        if (last_step < options.step_tolerance * (1.0 + z.lpNorm<Eigen::Infinity>())) {
          small_change = true;
          reason = fmt::format("converged: step {} below the step tolerance", number_text(last_step, 3));
        } else if (decrease < options.cost_tolerance) {
          small_change = true;
          reason = fmt::format("converged: relative cost decrease {} below the cost tolerance", number_text(decrease, 3));
        }
      } else if (next.ok && (step.array().abs() <= h.array().abs()).all()) {
        // steps within the difference steps do not lower the cost: a minimum to the accuracy of the
        // finite-difference Jacobian (e.g. on a bound, where the residual does not vanish)
        small_change = true;
        reason = "converged: no step lowers the cost, the last tried is within the finite-difference steps";
        break;
      } else {
        if (!next.ok) last_failure = next.message;
        lambda *= 4.0;
      }
    }
    if (small_change && !accepted) {
      result.converged = true;
      break;
    }
    if (!accepted) {
      reason = fmt::format("no step lowered the cost in {} tries (lambda {}){}", options.max_rejections,
                           number_text(lambda, 3), last_failure.empty() ? "" : "; last failed run: " + last_failure);
      break;
    }
  }
  result.message = reason;
  result.values = theta(z);
  result.cost = current.cost();
  result.simulated = current.simulated;
  result.sigma = VecX::Constant(n, kInf);
  if (J.rows() == m && J.cols() == n && (m > n || (options.absolute_sigma && m == n))) {
    // s^2 (J^T J)^-1 by eigen-decomposition: directions with (numerically) zero curvature are undetermined
    const double s2 = options.absolute_sigma ? 1.0 : 2.0 * current.cost() / static_cast<double>(m - n);
    Eigen::SelfAdjointEigenSolver<MatX> eig(J.transpose() * J);
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
    result.covariance = s2 * scale.asDiagonal() * inverse * scale.asDiagonal();
    for (Eigen::Index j = 0; j < n; ++j) {
      if (!undetermined[static_cast<std::size_t>(j)]) {
        result.sigma[j] = std::sqrt(result.covariance(j, j));
      } else {
        result.covariance.row(j).setConstant(std::nan(""));
        result.covariance.col(j).setConstant(std::nan(""));
      }
    }
  } else {
    result.covariance = MatX::Constant(n, n, std::nan(""));
  }
  return result;
}

}  // namespace tendril::fit
