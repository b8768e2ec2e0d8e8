#include "tendril/fit/run_least_squares.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <Eigen/Dense>

#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"
#include "tendril/fit/sparse_levenberg_marquardt.hpp"

namespace tendril::fit {

std::string parameter_setting(const std::string& key, double value) {
  return key + "=" + number_text(value, 17);
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// The runs of all experiments at one parameter point.
struct PointResult {
  bool ok = false;
  std::string message;
  MatX simulated;  ///< (#i x #k)
  VecX residual;   ///< (#measured entries), (y - m) / sigma
  MatX jacobian;   ///< d residual / d theta (#measured entries x #parameters), with derivatives
  double cost() const { return ok ? 0.5 * residual.squaredNorm() : kInf; }
};

class Problem {
 public:
  Problem(const std::vector<FitParameter>& parameters, const MeasurementTable& data,
          const RunBatchEvaluator& evaluate, const RunBatchEvaluator& derivatives)
      : parameters_(parameters), data_(data), evaluate_(evaluate), derivatives_(derivatives) {}

  /// True if points are evaluated with their derivatives (fit_runs' `derivatives`).
  bool exact() const { return static_cast<bool>(derivatives_); }

  /// Runs every experiment at each theta in one batch (with their derivatives if exact()).
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
    const std::vector<RunOutcome> outcomes = exact() ? derivatives_(batch) : evaluate_(batch);
    TENDRIL_ASSERT(outcomes.size() == batch.size(),
                   "the evaluator returned a wrong number of outcomes");
    runs_ += static_cast<long>(batch.size());
    std::vector<PointResult> results;
    const auto n_obs = static_cast<Eigen::Index>(data_.observables.size());
    for (std::size_t p = 0; p < thetas.size(); ++p) {
      PointResult r;
      r.ok = true;
      r.simulated = MatX::Constant(static_cast<Eigen::Index>(n_exp), n_obs, std::nan(""));
      std::vector<double> residual;
      std::vector<VecX> rows;  // d residual / d theta, with derivatives
      for (std::size_t i = 0; i < n_exp && r.ok; ++i) {
        const RunOutcome& o = outcomes[p * n_exp + i];
        const bool shaped =
            static_cast<Eigen::Index>(o.values.size()) == n_obs &&
            (!exact() || (o.derivatives.rows() == n_obs &&
                          o.derivatives.cols() == static_cast<Eigen::Index>(parameters_.size())));
        if (!o.ok || !shaped) {
          r.ok = false;
          r.message =
              fmt::format("the run of experiment {} at {} failed: {}", i + 1, describe(thetas[p]),
                          o.ok ? "wrong number of observables or derivatives" : o.message);
          break;
        }
        for (Eigen::Index k = 0; k < n_obs; ++k) {
          const double m = data_.measured(static_cast<Eigen::Index>(i), k),
                       y = o.values[static_cast<std::size_t>(k)];
          r.simulated(static_cast<Eigen::Index>(i), k) = y;
          if (!std::isfinite(m)) continue;
          if (!std::isfinite(y)) {
            r.ok = false;
            r.message =
                fmt::format("the run of experiment {} at {} gave {} = {}", i + 1,
                            describe(thetas[p]), data_.observables[static_cast<std::size_t>(k)], y);
            break;
          }
          residual.push_back((y - m) / data_.sigma[k]);
          if (exact()) rows.push_back(o.derivatives.row(k).transpose() / data_.sigma[k]);
        }
      }
      r.residual = Eigen::Map<VecX>(residual.data(), static_cast<Eigen::Index>(residual.size()));
      r.jacobian.resize(static_cast<Eigen::Index>(rows.size()),
                        static_cast<Eigen::Index>(parameters_.size()));
      for (std::size_t row = 0; row < rows.size(); ++row)
        r.jacobian.row(static_cast<Eigen::Index>(row)) = rows[row].transpose();
      results.push_back(std::move(r));
    }
    return results;
  }

  std::string describe(const VecX& theta) const {
    std::string s;
    for (std::size_t j = 0; j < parameters_.size(); ++j)
      s += (j ? ", " : "") + parameters_[j].key + " = " +
           number_text(theta[static_cast<Eigen::Index>(j)], 9);
    return s;
  }

  long runs() const { return runs_; }

 private:
  const std::vector<FitParameter>& parameters_;
  const MeasurementTable& data_;
  const RunBatchEvaluator& evaluate_;
  const RunBatchEvaluator& derivatives_;
  long runs_ = 0;
};

}  // namespace

namespace {

/// The residuals in z = theta / scale for the Levenberg-Marquardt: the value at a point (its runs
/// in one batch), and with the Jacobian the forward differences (backward at an upper bound) of
/// every parameter in one more batch, or the runs' derivatives (Problem::exact(): evaluated with
/// the value). The last point's runs are kept, so the LM's re-evaluation of an accepted point with
/// its Jacobian runs only the differences.
class RunResiduals {
 public:
  RunResiduals(Problem& problem, const VecX& scale, const VecX& upper, double difference_step)
      : problem_(problem), scale_(scale), upper_(upper), difference_step_(difference_step) {}

  SparseResiduals operator()(const VecX& z, bool with_jacobian) {
    SparseResiduals out;
    if (!(z.size() == last_z_.size() && z == last_z_)) {
      last_z_ = z;
      last_ = std::move(problem_.at({theta(z)}).front());
      last_jacobian_ = SparseMatrix();
    }
    out.ok = last_.ok;
    out.message = last_.message;
    out.residual = last_.residual;
    if (!out.ok || !with_jacobian) return out;
    if (last_jacobian_.size() > 0) {
      out.jacobian = last_jacobian_;
      return out;
    }
    if (problem_.exact()) {
      out.jacobian = last_jacobian_ = (last_.jacobian * scale_.asDiagonal()).sparseView(0.0, 0.0);
      accepted_ = last_;
      return out;
    }
    const Eigen::Index n = z.size();
    VecX h(n);
    std::vector<VecX> shifted;
    for (Eigen::Index j = 0; j < n; ++j) {
      h[j] = difference_step_ * std::max(std::abs(z[j]), 1.0);
      if (z[j] + h[j] > upper_[j]) h[j] = -h[j];
      VecX zj = z;
      zj[j] += h[j];
      shifted.push_back(theta(zj));
    }
    const std::vector<PointResult> columns = problem_.at(shifted);
    MatX jacobian(out.residual.size(), n);
    for (Eigen::Index j = 0; j < n; ++j) {
      const PointResult& c = columns[static_cast<std::size_t>(j)];
      if (!c.ok || c.residual.size() != out.residual.size()) {
        out.ok = false;
        out.message = "a finite-difference run failed: " + c.message;
        return out;
      }
      jacobian.col(j) = (c.residual - out.residual) / h[j];
    }
    out.jacobian = last_jacobian_ = jacobian.sparseView(0.0, 0.0);
    accepted_ = last_;
    return out;
  }

  /// The runs of the last point evaluated with its Jacobian (the LM's last accepted point).
  const PointResult& accepted() const { return accepted_; }
  VecX theta(const VecX& z) const { return z.cwiseProduct(scale_); }

 private:
  Problem& problem_;
  const VecX& scale_;
  const VecX& upper_;
  double difference_step_;
  VecX last_z_;
  PointResult last_, accepted_;
  SparseMatrix last_jacobian_;
};

/// After a stall of the Levenberg-Marquardt (its steps shrink under growing damping without
/// lowering the cost, as where the finite-difference Jacobian cannot resolve the gradient): true if
/// the runs at z +- h_j e_j within the bounds (h_j the difference steps) all cost at least C(z),
/// i.e. z is a minimum to the finite differences' resolution, checked by runs rather than assumed.
bool no_neighbour_lowers(Problem& problem, const RunResiduals& residuals, const VecX& z,
                         double cost, const VecX& lower, const VecX& upper,
                         double difference_step) {
  std::vector<VecX> neighbours;
  for (Eigen::Index j = 0; j < z.size(); ++j)
    for (const double sign : {1.0, -1.0}) {
      VecX zj = z;
      zj[j] += sign * difference_step * std::max(std::abs(z[j]), 1.0);
      if (zj[j] >= lower[j] && zj[j] <= upper[j]) neighbours.push_back(residuals.theta(zj));
    }
  for (const PointResult& p : problem.at(neighbours))
    if (p.cost() < cost) return false;
  return true;
}

/// Sigma and covariance of the fit from the Jacobian at its optimum (fit_runs' header).
void fill_uncertainty(const MatX& jacobian, double cost, const VecX& scale,
                      const RunFitOptions& options, RunFitResult& result) {
  const Eigen::Index n = scale.size(), m = jacobian.rows();
  result.sigma = VecX::Constant(n, kInf);
  if (jacobian.cols() != n || !(m > n || (options.absolute_sigma && m == n))) {
    result.covariance = MatX::Constant(n, n, std::nan(""));
    return;
  }
  const double s2 = options.absolute_sigma ? 1.0 : 2.0 * cost / static_cast<double>(m - n);
  result.covariance =
      scale.asDiagonal() * least_squares_covariance(jacobian, s2) * scale.asDiagonal();
  for (Eigen::Index j = 0; j < n; ++j)
    if (std::isfinite(result.covariance(j, j)))
      result.sigma[j] = std::sqrt(result.covariance(j, j));
}

}  // namespace

RunFitResult fit_runs(const std::vector<FitParameter>& parameters, const MeasurementTable& data,
                      const RunBatchEvaluator& evaluate, const RunFitOptions& options,
                      const std::function<void(const FitIteration&)>& progress,
                      const RunBatchEvaluator& derivatives) {
  const auto n = static_cast<Eigen::Index>(parameters.size());
  TENDRIL_ASSERT(n > 0, "a fit needs parameters");
  TENDRIL_ASSERT(data.measured.rows() == static_cast<Eigen::Index>(data.experiments.size()) &&
                     data.measured.cols() == static_cast<Eigen::Index>(data.observables.size()) &&
                     data.sigma.size() == data.measured.cols(),
                 "measurement table shapes do not match");
  VecX scale(n), lo(n), hi(n), z(n);
  for (Eigen::Index j = 0; j < n; ++j) {
    const FitParameter& p = parameters[static_cast<std::size_t>(j)];
    TENDRIL_ASSERT(p.scale > 0.0 && p.lower <= p.initial && p.initial <= p.upper,
                   "parameter checked by the caller");
    scale[j] = p.scale;
    lo[j] = p.lower / p.scale;
    hi[j] = p.upper / p.scale;
    z[j] = p.initial / p.scale;
  }
  Problem problem(parameters, data, evaluate, derivatives);
  RunResiduals residuals(problem, scale, hi, options.difference_step);
  RunFitResult result;
  const SparseResiduals start = residuals(z, true);
  if (!start.ok) {
    result.runs = problem.runs();
    result.message = "the start failed: " + start.message;
    result.values = residuals.theta(z);
    result.sigma = VecX::Constant(n, kInf);
    return result;
  }
  result.initial_cost = 0.5 * start.residual.squaredNorm();
  const auto line = [&](const SparseLmIteration& i) {
    FitIteration h{i.iteration,          i.cost, 0.0, i.step, i.damping, problem.runs(),
                   residuals.theta(*i.y)};
    h.accepted = i.accepted;
    result.history.push_back(h);
    if (progress) progress(h);
    return true;
  };
  const SparseLmResult lm =
      minimise_sparse_least_squares(std::ref(residuals), z, lo, hi,
                                    {.max_iterations = options.max_iterations,
                                     .initial_damping = options.initial_damping,
                                     .step_tolerance = options.step_tolerance,
                                     .cost_tolerance = options.cost_tolerance,
                                     .gradient_tolerance = options.gradient_tolerance,
                                     .max_rejections = options.max_rejections},
                                    {}, line);
  result.converged = lm.converged;
  result.message = lm.converged ? "converged: " + lm.message : lm.message;
  if (lm.stalled && !problem.exact() &&
      no_neighbour_lowers(problem, residuals, lm.y, lm.cost, lo, hi, options.difference_step)) {
    result.converged = true;
    result.message = "converged: " + lm.message +
                     "; no run within the difference steps lowers the cost (a minimum to "
                     "the finite differences' resolution)";
  }
  result.iterations = lm.iterations;
  result.runs = problem.runs();
  result.values = residuals.theta(lm.y);
  result.cost = lm.cost;
  result.simulated = residuals.accepted().simulated;
  fill_uncertainty(MatX(lm.at.jacobian), lm.cost, scale, options, result);
  return result;
}

}  // namespace tendril::fit
