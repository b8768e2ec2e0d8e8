#pragma once
/// The joint estimation's nonlinear program as a solver sees it: sizes, the sparse patterns of the
/// constraint Jacobian and of the Hessian of the Lagrangian, bounds, and the values at x. The step
/// map's problem (fit/step_map_problem.hpp), the same with r eliminated
/// (fit/eliminated_problem.hpp) and the transcribed one (fit/transcribed_problem.hpp) implement it;
/// fit/ipopt_nlp.hpp solves it with IPOPT. Internal to src/tendril/fit.

#include <string>
#include <vector>

#include "tendril/core/sparse_assembly.hpp"
#include "tendril/core/types.hpp"
#include "tendril/fit/vine_joint_estimation.hpp"

namespace tendril::fit::detail {

class EstimationNlp {
 public:
  virtual ~EstimationNlp() = default;

  virtual int num_variables() const = 0;
  virtual int num_constraints() const = 0;
  /// The constraint Jacobian's pattern: row and column of each entry.
  virtual const std::vector<int>& jacobian_rows() const = 0;
  virtual const std::vector<int>& jacobian_cols() const = 0;
  /// The Hessian's pattern (lower triangle).
  virtual const std::vector<int>& hessian_rows() const = 0;
  virtual const std::vector<int>& hessian_cols() const = 0;
  /// Bounds of the variables and of the constraints (+-2e19: none).
  virtual void bounds(double* x_l, double* x_u, double* g_l, double* g_u) const = 0;
  /// The objective and, if asked, its gradient (NaN where the model fails at x).
  virtual double objective(const VecX& x, VecX* gradient) = 0;
  /// g(x) and, if asked, the Jacobian values in the pattern's order; false (with `message`) where
  /// the model fails at x.
  virtual bool constraints(const VecX& x, VecX& g, VecX* jacobian, std::string& message) = 0;
  /// Lower triangle of the Hessian of factor f + lambda . g in the pattern's order, as the options'
  /// EstimationHessian forms it; false (with `message`) where the model fails at x.
  virtual bool hessian(const VecX& x, double factor, const VecX& lambda, double* values,
                       std::string& message) = 0;
};

/// The (row, column, value) triplets of a pattern's values.
std::vector<Eigen::Triplet<double, int>> pattern_triplets(const std::vector<int>& rows,
                                                          const std::vector<int>& cols,
                                                          const double* values);

/// The problem's objective, gradient, constraints and sparse constraint Jacobian at x, and with
/// `multipliers` (one per constraint) its Hessian of the Lagrangian (both triangles). Throws
/// std::runtime_error where the model fails at x.
JointEstimationProblemEvaluation evaluate_nlp(EstimationNlp& problem, const VecX& x,
                                              const VecX& multipliers = {});

}  // namespace tendril::fit::detail
