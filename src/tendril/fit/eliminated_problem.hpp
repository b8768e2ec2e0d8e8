#pragma once
/// Eq. 16 with r eliminated by its own equality (r_i = Z_{i+1} - f(Z_i, K, C)), as IPOPT sees it
/// with `eliminate_model_residuals`: variables y = [Z_0 .. Z_N, K / K_scale, C / C_scale],
/// objective |e(y)|^2 (e: the measured points / sigma_p and sqrt(R) (Z_{i+1} - f(Z_i))), gradient
/// 2 J^T e, Hessian 2 J^T J (J = de/dy: Gauss-Newton; J is rank-deficient in v_0, see
/// docs/physics/fitting.md), and as constraints the step map problem's rows after the dynamics:
/// joints, growth, known contacts and the held impulses. Their curvature is left out of the
/// Hessian. One evaluation of the steps and their derivatives per y serves f, grad f, g and dg/dy.
/// Internal to src/tendril/fit.

#include <string>
#include <vector>

#include "tendril/fit/sparse_levenberg_marquardt.hpp"
#include "tendril/fit/step_map_problem.hpp"

namespace tendril::fit::detail {

class EliminatedProblem : public EstimationNlp {
 public:
  explicit EliminatedProblem(StepMapProblem& problem);

  int num_variables() const override { return p_.num_reduced_variables(); }
  int num_constraints() const override { return p_.num_constraints() - p_.num_dynamics_rows(); }
  const std::vector<int>& jacobian_rows() const override { return jac_rows_; }
  const std::vector<int>& jacobian_cols() const override { return jac_cols_; }
  const std::vector<int>& hessian_rows() const override { return hess_rows_; }
  const std::vector<int>& hessian_cols() const override { return hess_cols_; }
  /// 0 <= K, C <= their maxima, the rest free; equalities but for the held impulses' rows >= 0.
  void bounds(double* x_l, double* x_u, double* g_l, double* g_u) const override;
  /// |e(y)|^2 and, if asked, 2 J^T e; NaN where the model fails at y.
  double objective(const VecX& y, VecX* gradient) override;
  /// The constraint rows after the dynamics and, if asked, their Jacobian values in the pattern's
  /// order.
  bool constraints(const VecX& y, VecX& g, VecX* jacobian, std::string& message) override;
  /// Lower triangle of factor 2 J^T J in the Hessian pattern's order.
  bool hessian(const VecX& y, double factor, const VecX& lambda, double* values,
               std::string& message) override;

  /// e(y) and J = de/dy (not ok where the model fails at y).
  SparseResiduals residuals(const VecX& y);

 private:
  // e, J, g and dg/dx at y, recomputed when y is new or the derivatives are wanted and missing
  bool evaluate(const VecX& y, bool with_jacobian);
  /// e at y (the measured points / sigma_p, sqrt(R) times the dynamics rows at r = 0), g(x) at
  /// x = (y, r = 0) into g_ and its Jacobian values into values_.
  SparseResiduals least_squares(const VecX& y, bool with_jacobian);

  StepMapProblem& p_;
  std::vector<int> jac_entries_;  // index into the full problem's Jacobian values of each entry
  std::vector<int> jac_rows_, jac_cols_, hess_rows_, hess_cols_;
  VecX y_, g_, values_;
  SparseResiduals at_;
  bool have_jacobian_ = false;
};

}  // namespace tendril::fit::detail
