#include "tendril/fit/estimation_nlp.hpp"

#include <stdexcept>

#include "tendril/core/error.hpp"

namespace tendril::fit::detail {

std::vector<Eigen::Triplet<double, int>> pattern_triplets(const std::vector<int>& rows,
                                                          const std::vector<int>& cols,
                                                          const double* values) {
  std::vector<Eigen::Triplet<double, int>> t;
  t.reserve(rows.size());
  for (std::size_t e = 0; e < rows.size(); ++e) t.emplace_back(rows[e], cols[e], values[e]);
  return t;
}

JointEstimationProblemEvaluation evaluate_nlp(EstimationNlp& problem, const VecX& x,
                                              const VecX& multipliers) {
  JointEstimationProblemEvaluation out;
  out.x = x;
  TENDRIL_ASSERT(out.x.size() == problem.num_variables(), "x has the problem's size");
  out.objective = problem.objective(out.x, &out.gradient);
  VecX values;
  std::string message;
  if (!problem.constraints(out.x, out.constraints, &values, message))
    throw std::runtime_error("joint estimation: the model fails at x: " + message);
  const auto t = pattern_triplets(problem.jacobian_rows(), problem.jacobian_cols(), values.data());
  out.jacobian.resize(problem.num_constraints(), problem.num_variables());
  out.jacobian.setFromTriplets(t.begin(), t.end());
  if (multipliers.size() == 0) return out;
  std::vector<double> h(problem.hessian_rows().size());
  if (!problem.hessian(out.x, 1.0, multipliers, h.data(), message))
    throw std::runtime_error("joint estimation: the model fails at x: " + message);
  std::vector<Eigen::Triplet<double, int>> both;
  for (std::size_t e = 0; e < h.size(); ++e) {
    both.emplace_back(problem.hessian_rows()[e], problem.hessian_cols()[e], h[e]);
    if (problem.hessian_rows()[e] != problem.hessian_cols()[e])
      both.emplace_back(problem.hessian_cols()[e], problem.hessian_rows()[e], h[e]);
  }
  out.hessian.resize(problem.num_variables(), problem.num_variables());
  out.hessian.setFromTriplets(both.begin(), both.end());
  return out;
}

}  // namespace tendril::fit::detail
