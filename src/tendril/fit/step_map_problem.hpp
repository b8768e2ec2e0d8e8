#pragma once
/// The joint estimation with the step map (EstimationFormulation::step_map; eq. 16 as the paper
/// writes it), its layout, values and derivatives at x:
///   x = [Z_0 .. Z_N (q_i, v_i: 2n each), r_0 .. r_{N-1} (2n each), K / K_scale, C / C_scale (nk)]
///   g = [Z_{i+1} - f(Z_i) - r_i (2n each) | c(q_i) (2 #bodies each) | g(q_i, v_i) - u_i
///        (#prismatic each) | Phi(q_i) of the known contacts | dc/dq(q_0) v_0 with
///        first_state_joint_velocities | the held contacts' impulses / (m_ref sigma_v) with
///        bilateral_contacts (>= 0)]
/// f is the step (a QP solved at every evaluation; derivatives from vine/step_derivatives.hpp,
/// second derivatives from vine/step_second_derivatives.hpp). The constraints are in
/// step_map_constraints.cpp, the Hessians in step_map_hessian.cpp. Internal to src/tendril/fit.

#include <string>
#include <vector>

#include "tendril/fit/vine_estimation_problem.hpp"
#include "tendril/vine/step_derivatives.hpp"

namespace tendril::fit::detail {

class StepMapProblem : public VineEstimationProblem {
 public:
  StepMapProblem(const vine::VineModel& model, const vine::VineState& start,
                 const std::vector<MeasuredFrame>& frames, const JointEstimationOptions& options);

  int num_variables() const override { return k(0) + 2 * nk_; }
  int num_constraints() const override;
  const std::vector<int>& jacobian_rows() const override { return jac_rows_; }
  const std::vector<int>& jacobian_cols() const override { return jac_cols_; }
  /// The Hessian pattern of the chosen EstimationHessian (lower triangle).
  const std::vector<int>& hessian_rows() const override {
    return exact() ? exact_rows_ : hess_rows_;
  }
  const std::vector<int>& hessian_cols() const override {
    return exact() ? exact_cols_ : hess_cols_;
  }
  /// 0 <= K, C <= their maxima, the rest free; equalities but for the held impulses' rows >= 0.
  void bounds(double* x_l, double* x_u, double* g_l, double* g_u) const override;
  /// g(x) and, if `jacobian` is given, its values in the pattern's order; false (with `message`)
  /// if a step of the model fails at x.
  bool constraints(const VecX& x, VecX& g, VecX* jacobian, std::string& message) override;
  bool hessian(const VecX& x, double factor, const VecX& lambda, double* values,
               std::string& message) override;

  /// |g| of the equalities, the negative part of the held impulses' rows.
  double violation(const VecX& g) const override;
  /// From the KKT matrix [J^T J, A^T; A, 0] at x (J^T J = half the Gauss-Newton matrix, A = dg/dx:
  /// the equalities and the held impulses' rows at 0, i.e. active); +inf if singular.
  VecX parameter_sigmas(const VecX& x, const VecX& g, const VecX& jacobian) override;
  /// Of the held contacts (+inf without bilateral contacts).
  double min_contact_impulse(const VecX& x, const VecX* g) const override;

  /// The rows dc/dq(q_0) v_0 = 0 of first_state_joint_velocities (2 per body).
  int num_first_velocity_rows() const {
    return options_.first_state_joint_velocities ? static_cast<int>(joint_specs_.size()) : 0;
  }
  /// The last rows: held contacts' normal impulses / (m_ref sigma_v) >= 0, step by step.
  int num_held_rows() const { return held_row_of_step_.back(); }
  int first_held_row() const { return num_constraints() - num_held_rows(); }
  /// The dynamics rows Z_{i+1} - f(Z_i) - r_i come first in g (2n per step).
  int num_dynamics_rows() const { return 2 * n_ * steps_; }

  /// Without r (eliminate_model_residuals): y = [Z_0 .. Z_N, K / K_scale, C / C_scale].
  int num_reduced_variables() const { return r(0) + 2 * nk_; }
  /// y's column of x's column `col` (a Z or K, C column).
  int reduced_column(int col) const { return col < r(0) ? col : col - (k(0) - r(0)); }
  VecX reduced(const VecX& x) const;
  /// x from y with r = 0.
  VecX with_zero_residuals(const VecX& y) const;
  /// x from y with r_i = Z_{i+1} - f(Z_i) (the dynamics hold exactly); empty if the model fails.
  VecX full(const VecX& y);

 private:
  /// Lower triangle of the objective's Gauss-Newton matrix in the Gauss-Newton pattern's order.
  void gauss_newton(const VecX& x, double factor, double* values) const;
  /// Lower triangle of the exact Hessian of the Lagrangian factor f(x) + lambda . g(x) in the exact
  /// pattern's order: the data term's 2 w (dp^T dp + sum_k e_k d2p_k/dq2), 2 R on the r_i, the
  /// dynamics rows' -lambda_i . d2f(Z_i, K, C) and the held impulses' curvature, and the joint,
  /// growth, contact and first-state velocity rows' second derivatives. False (with `message`) if
  /// a step fails.
  bool exact_hessian(const VecX& x, double factor, const VecX& lambda, double* values,
                     std::string& message) const;

  /// One contact row Phi(q_i) = 0 of the problem.
  struct ContactRow {
    int step = 0;        // trajectory index i
    vine::RowSpec spec;  // kind contact: body_b, offset d_b, obstacle
  };
  /// Jacobian values in the pattern's order.
  struct ValueWriter {
    VecX& values;
    int next = 0;
    void put(double v) { values(next++) = v; }
  };

  bool exact() const { return options_.hessian == EstimationHessian::exact; }
  void set_up_contacts();
  /// The step maps at x's K, C: one stepper per set of held (bilateral) known contacts.
  std::vector<vine::VineStepper> step_maps(const VecX& x) const;

  // step_map_constraints.cpp: g's blocks, the Jacobian values in the pattern's order
  bool dynamics_rows(const VecX& x, VecX& g, ValueWriter* jacobian,
                     std::vector<double>& held_values, std::string& message) const;
  void put_step_derivatives(const vine::StepDerivatives& d, int nh, ValueWriter& jacobian,
                            std::vector<double>& held_values) const;
  void state_rows(const VecX& x, int i, VecX& g, int& row, ValueWriter* jacobian) const;
  void contact_rows(const VecX& x, VecX& g, int& row, ValueWriter* jacobian) const;
  void first_velocity_rows(const VecX& x, VecX& g, int& row, ValueWriter* jacobian) const;
  void build_jacobian_pattern();

  // step_map_hessian.cpp
  bool add_step_curvature(const VecX& x, const VecX& lambda, std::vector<MatX>& block,
                          std::vector<MatX>& cross, MatX& params, std::string& message) const;
  void add_row_curvature(const VecX& x, const VecX& lambda, std::vector<MatX>& block) const;
  void build_hessian_pattern();
  void build_exact_hessian_pattern();

  std::vector<ContactRow> contact_rows_;
  std::vector<std::vector<vine::BilateralContact>>
      held_sets_;                      // distinct sets of held contacts ([0]: none)
  std::vector<int> held_set_of_step_;  // index into held_sets_ of each step i = 0 .. N-1
  std::vector<int> held_row_of_step_;  // first held row of step i among the held rows (N + 1)
  double impulse_scale_ = 1.0;         // m_ref sigma_v [N s]: the held rows' unit
  std::vector<int> jac_rows_, jac_cols_, hess_rows_, hess_cols_;  // hess: the Gauss-Newton matrix's
  std::vector<int> exact_rows_, exact_cols_;  // the exact Hessian's (EstimationHessian::exact)
};

}  // namespace tendril::fit::detail
