#pragma once
/// The joint estimation's exact Hessian of the Lagrangian f + lambda . g
/// (fit/vine_joint_estimation.hpp, EstimationHessian::exact) against central differences of the
/// Lagrangian's gradient grad f + J^T lambda, at a random point near the guess and random
/// multipliers.

#include <algorithm>
#include <random>

#include "tendril/fit/vine_joint_estimation.hpp"

namespace tendril::testing {

struct LagrangianHessianCheck {
  VecX x, lambda;        ///< where: the guess + x_noise N(0, 1), multipliers lambda_size N(0, 1)
  SparseMatrix hessian;  ///< the analytic Hessian there
  double worst = 0.0;    ///< worst |fd - column| / (1 + |column|) over the columns checked
  int checked = 0;       ///< columns checked
};

/// `evaluate(x, multipliers)` evaluates the problem (fit::evaluate_joint_estimation with the exact
/// Hessian); every `stride`-th column and the last `last` (K, C and any further parameters) are
/// checked with step h.
template <class Evaluate>
LagrangianHessianCheck check_lagrangian_hessian(Evaluate evaluate, double x_noise,
                                                double lambda_size, double h, int stride,
                                                unsigned seed, int last = 2) {
  LagrangianHessianCheck out;
  const fit::JointEstimationProblemEvaluation guess = evaluate(VecX(), VecX());
  std::mt19937 rng(seed);
  std::normal_distribution<double> gauss(0.0, 1.0);
  out.x = guess.x;
  out.lambda.resize(guess.constraints.size());
  for (int i = 0; i < out.x.size(); ++i) out.x(i) += x_noise * gauss(rng);
  for (int i = 0; i < out.lambda.size(); ++i) out.lambda(i) = lambda_size * gauss(rng);
  const auto lagrangian_gradient = [&](const VecX& at) {
    const fit::JointEstimationProblemEvaluation e = evaluate(at, VecX());
    return VecX(e.gradient + e.jacobian.transpose() * out.lambda);
  };
  out.hessian = evaluate(out.x, out.lambda).hessian;
  const int n = static_cast<int>(out.x.size());
  for (int j = 0; j < n; j += (j + last >= n ? 1 : stride)) {
    VecX plus = out.x, minus = out.x;
    plus(j) += h;
    minus(j) -= h;
    const VecX column = VecX(out.hessian.col(j));
    const VecX fd = (lagrangian_gradient(plus) - lagrangian_gradient(minus)) / (2 * h);
    out.worst = std::max(out.worst, (fd - column).norm() / (1.0 + column.norm()));
    ++out.checked;
  }
  return out;
}

}  // namespace tendril::testing
