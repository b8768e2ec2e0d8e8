#include "tendril/fit/vine_joint_estimation.hpp"

#include <limits>
#include <string>

#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/fit/eliminated_problem.hpp"
#include "tendril/fit/ipopt_nlp.hpp"
#include "tendril/fit/step_map_problem.hpp"
#include "tendril/fit/vine_transcribed_estimation.hpp"

namespace tendril::fit {

namespace {

using vine::VineModel;
using vine::VineState;

/// InputError for the options a formulation does not take (the trust-region pass, the multipliers'
/// prior and the length bound are the transcribed formulation's).
void check_formulation_options(const JointEstimationOptions& options) {
  if (options.max_iterations < 1)
    throw InputError("joint_estimation.max_iterations", std::to_string(options.max_iterations),
                     "an integer >= 1");
  const bool transcribed = options.formulation == EstimationFormulation::transcribed;
  if (options.trust_region_iterations < 0 || (options.trust_region_iterations > 0 && !transcribed))
    throw InputError("joint_estimation.trust_region_iterations",
                     std::to_string(options.trust_region_iterations),
                     "an integer >= 0, and 0 unless formulation: transcribed");
  if (options.trust_region_newton_iterations < 0 ||
      (options.trust_region_newton_iterations > 0 && !transcribed))
    throw InputError("joint_estimation.trust_region_newton_iterations",
                     std::to_string(options.trust_region_newton_iterations),
                     "an integer >= 0, and 0 unless formulation: transcribed");
  if (transcribed) return;
  if (options.multiplier_sigma != 0.0)
    throw InputError("joint_estimation.multiplier_sigma",
                     fmt::format("{}", options.multiplier_sigma),
                     "0 (no prior) unless formulation: transcribed");
  if (options.min_prismatic_extension != -std::numeric_limits<double>::infinity())
    throw InputError("joint_estimation.min_prismatic_extension",
                     fmt::format("{}", options.min_prismatic_extension),
                     "-inf (no bound) unless formulation: transcribed");
}

/// IPOPT on the step map's problem (or on it with r eliminated) from the simulated guess.
JointEstimationResult estimate_with_step_map(const VineModel& model, const VineState& start,
                                             const std::vector<MeasuredFrame>& frames,
                                             const JointEstimationOptions& options) {
  detail::StepMapProblem problem(model, start, frames, options);
  JointEstimationResult result;
  result.first_step = problem.first_step();
  result.initial_objective = problem.objective(problem.initial_guess(), nullptr);
  VecX x = problem.initial_guess();
  if (options.eliminate_model_residuals) {
    detail::EliminatedProblem eliminated(problem);
    const VecX y = detail::solve_with_ipopt(eliminated, options,
                                            problem.reduced(problem.initial_guess()), result);
    if (y.size() > 0) x = problem.full(y);  // r = the defects; empty if the model fails at y
    if (x.size() == 0) x = problem.initial_guess();
  } else {
    const VecX solution = detail::solve_with_ipopt(problem, options, x, result);
    if (solution.size() > 0) x = solution;
  }
  detail::report_estimate(problem, x, result);
  return result;
}

}  // namespace

JointEstimationOptions step_map_options() {
  JointEstimationOptions o;
  o.formulation = EstimationFormulation::step_map;
  o.hessian = EstimationHessian::gauss_newton;
  o.trust_region_iterations = 0;
  o.trust_region_newton_iterations = 0;
  o.multiplier_sigma = 0.0;
  o.min_prismatic_extension = -std::numeric_limits<double>::infinity();
  return o;
}

JointEstimationResult estimate_vine_states_and_parameters(const VineModel& model,
                                                          const VineState& start,
                                                          const std::vector<MeasuredFrame>& frames,
                                                          const JointEstimationOptions& options) {
  check_formulation_options(options);
  if (options.formulation == EstimationFormulation::transcribed)
    return detail::estimate_transcribed(model, start, frames, options);
  return estimate_with_step_map(model, start, frames, options);
}

JointEstimationProblemEvaluation evaluate_joint_estimation(const VineModel& model,
                                                           const VineState& start,
                                                           const std::vector<MeasuredFrame>& frames,
                                                           const JointEstimationOptions& options,
                                                           const VecX& x, const VecX& multipliers) {
  if (options.formulation == EstimationFormulation::transcribed)
    return detail::evaluate_transcribed(model, start, frames, options, x, multipliers);
  detail::StepMapProblem problem(model, start, frames, options);
  if (!options.eliminate_model_residuals)
    return detail::evaluate_nlp(problem, x.size() > 0 ? x : problem.initial_guess(), multipliers);
  detail::EliminatedProblem eliminated(problem);
  JointEstimationProblemEvaluation out =
      detail::evaluate_nlp(eliminated, x.size() > 0 ? x : problem.reduced(problem.initial_guess()));
  const SparseResiduals e = eliminated.residuals(out.x);
  out.residuals = e.residual;
  out.residual_jacobian = e.jacobian;
  return out;
}

}  // namespace tendril::fit
