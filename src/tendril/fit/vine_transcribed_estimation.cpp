#include "tendril/fit/vine_transcribed_estimation.hpp"

#include <algorithm>
#include <chrono>
#include <limits>

#include "tendril/fit/ipopt_nlp.hpp"
#include "tendril/fit/sparse_levenberg_marquardt.hpp"
#include "tendril/fit/transcribed_problem.hpp"

namespace tendril::fit::detail {

namespace {

using vine::VineModel;
using vine::VineState;

/// The pass's trials as progress lines (options.progress; trust_region set, the objective the
/// pass's least squares |e|^2, d_norm its step, regularization its lambda, the infeasibilities
/// NaN); the callback's false stops the pass.
SparseLmProgress trust_region_progress(const JointEstimationOptions& options) {
  if (!options.progress) return {};
  return [&options](const SparseLmIteration& i) {
    JointEstimationIteration line;
    line.iteration = i.iteration;
    line.objective = 2.0 * i.cost;
    line.inf_pr = line.inf_du = std::numeric_limits<double>::quiet_NaN();
    line.d_norm = i.step;
    line.regularization = i.damping;
    line.trust_region = true;
    line.accepted = i.accepted;
    return options.progress(line);
  };
}

/// IPOPT's warm start at x after the pass: the multipliers at which the least squares are
/// stationary (2 weights^2 times the rows' gaps), the bound multipliers from the Lagrangian's
/// gradient at the bounded variables.
IpoptWarmStart stationary_multipliers(TranscribedProblem& problem, const VecX& x,
                                      const JointEstimationProblemEvaluation& at,
                                      const VecX& weights) {
  const int nv = problem.num_variables(), nc = problem.num_constraints();
  VecX x_l(nv), x_u(nv), g_l(nc), g_u(nc);
  problem.bounds(x_l.data(), x_u.data(), g_l.data(), g_u.data());
  IpoptWarmStart warm;
  warm.lambda = 2.0 * weights.cwiseAbs2().cwiseProduct(problem.gaps(at.constraints));
  VecX gradient;
  problem.objective(x, &gradient);
  const VecX lagrangian_gradient =
      gradient + at.jacobian.transpose() * warm.lambda;  // J does not depend on r
  warm.z_lower = VecX::Zero(nv);
  warm.z_upper = VecX::Zero(nv);
  for (int j = 0; j < nv; ++j) {
    if (x_l(j) > -1e19) warm.z_lower(j) = std::max(0.0, lagrangian_gradient(j));
    if (x_u(j) < 1e19) warm.z_upper(j) = std::max(0.0, -lagrangian_gradient(j));
  }
  return warm;
}

/// The trust-region pass (options.trust_region_iterations accepted steps): bounded sparse
/// Levenberg-Marquardt on the problem as least squares over w = [Z, y, K, C] (r eliminated as the
/// dynamics defects, the other rows as penalties with weight 1 / (kPenaltySigma sigma_v)), from the
/// simulated guess; then options.trust_region_newton_iterations steps with the residuals'
/// curvature. Returns IPOPT's start: x with r = the defects, and in `warm` the multipliers at which
/// the least squares are stationary.
VecX least_squares_pass(TranscribedProblem& problem, const JointEstimationOptions& options,
                        JointEstimationResult& result, IpoptWarmStart& warm) {
  const int nv = problem.num_variables(), nc = problem.num_constraints();
  VecX x_l(nv), x_u(nv), g_l(nc), g_u(nc);
  problem.bounds(x_l.data(), x_u.data(), g_l.data(), g_u.data());
  const VecX weights = problem.row_weights(1.0 / (kPenaltySigma * options.model_sigma_velocity));
  const auto residuals = [&](const VecX& w, bool with_jacobian) {
    return problem.least_squares(w, with_jacobian, weights);
  };
  const VecX w_lower = problem.reduced(x_l), w_upper = problem.reduced(x_u);
  const auto t0 = std::chrono::steady_clock::now();
  const SparseLmProgress progress = trust_region_progress(options);
  SparseLmResult lm = minimise_sparse_least_squares(
      residuals, problem.reduced(problem.initial_guess()), w_lower, w_upper,
      {.max_iterations = options.trust_region_iterations}, {}, progress);
  if (options.trust_region_newton_iterations > 0 &&
      !lm.interrupted) {  // then with the residuals' curvature S
    const int gauss_newton_steps = lm.iterations;
    lm = minimise_sparse_least_squares(
        residuals, lm.y, w_lower, w_upper,
        {.max_iterations = options.trust_region_newton_iterations},
        [&](const VecX& w, const VecX&) { return problem.least_squares_curvature(w, weights); },
        progress);
    lm.iterations += gauss_newton_steps;
  }
  result.trust_region_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  result.trust_region_iterations = lm.iterations;
  result.trust_region_message = lm.message;
  result.trust_region_interrupted = lm.interrupted;
  // g at r = 0 holds the defects in the dynamics rows; with r = the defects the dynamics hold
  const JointEstimationProblemEvaluation at =
      evaluate_nlp(problem, problem.with_zero_residuals(lm.y));
  VecX x = at.x;
  for (int i = 0; i < problem.steps(); ++i)
    x.segment(problem.r(i), 2 * problem.dofs()) =
        at.constraints.segment(problem.row(i), 2 * problem.dofs());
  result.trust_region_objective = problem.objective(x, nullptr);
  warm = stationary_multipliers(problem, x, at, weights);
  return x;
}

}  // namespace

JointEstimationResult estimate_transcribed(const VineModel& model, const VineState& start,
                                           const std::vector<MeasuredFrame>& frames,
                                           const JointEstimationOptions& options) {
  TranscribedProblem problem(model, start, frames, options);
  JointEstimationResult result;
  result.first_step = problem.first_step();
  result.initial_objective = problem.objective(problem.initial_guess(), nullptr);
  IpoptWarmStart warm;
  const VecX x_start = options.trust_region_iterations > 0
                           ? least_squares_pass(problem, options, result, warm)
                           : problem.initial_guess();
  VecX x = result.trust_region_interrupted
               ? x_start
               : solve_with_ipopt(problem, options, x_start, result, warm);
  if (result.trust_region_interrupted) result.status = "User_Requested_Stop";
  if (x.size() == 0) x = x_start;
  report_estimate(problem, x, result);
  return result;
}

JointEstimationProblemEvaluation evaluate_transcribed(const VineModel& model,
                                                      const VineState& start,
                                                      const std::vector<MeasuredFrame>& frames,
                                                      const JointEstimationOptions& options,
                                                      const VecX& x, const VecX& multipliers) {
  TranscribedProblem problem(model, start, frames, options);
  return evaluate_nlp(problem, x.size() > 0 ? x : problem.initial_guess(), multipliers);
}

}  // namespace tendril::fit::detail
