#pragma once
/// The joint estimation by direct transcription (EstimationFormulation::transcribed,
/// fit/vine_transcribed_estimation.hpp): its layout
///   x = [Z_0 .. Z_N (q_i, v_i), r_0 .. r_{N-1} (2n each), y_0 .. y_{N-1} (the step rows'
///        multipliers), K / K_scale, C / C_scale, the growth rates, the base heading and the
///        contact radius / their scales (JointEstimationOptions::parameters)],
/// constraints (per step i: n position rows, n velocity rows, its joint, growth and known-contact
/// rows; then the first state's joint, velocity and growth rows and the prismatic length rows),
/// objective (with the multipliers' prior) and exact sparse derivatives, and the trust-region
/// pass's least squares over w = x without r. The constraints' entries are in
/// transcription_constraints.cpp, the Hessian's in transcription_hessian.cpp, the least squares in
/// transcribed_least_squares.cpp. Internal to src/tendril/fit.

#include <string>
#include <vector>

#include "tendril/fit/sparse_levenberg_marquardt.hpp"
#include "tendril/fit/sparse_pattern.hpp"
#include "tendril/fit/vine_estimation_problem.hpp"
#include "tendril/vine/step_second_derivatives.hpp"

namespace tendril::fit::detail {

class TranscribedProblem : public VineEstimationProblem {
 public:
  /// InputError for a model or options the transcription does not take (implicit springs,
  /// friction, the step map's options, frames spanning no step, a bad prior or length bound).
  TranscribedProblem(const vine::VineModel& model, const vine::VineState& start,
                     const std::vector<MeasuredFrame>& frames,
                     const JointEstimationOptions& options);

  int num_variables() const override { return p(0) + num_extra_parameters(); }
  int num_constraints() const override {
    return first_length_row() + static_cast<int>(length_specs_.size());
  }
  const std::vector<int>& jacobian_rows() const override { return jacobian_.rows(); }
  const std::vector<int>& jacobian_cols() const override { return jacobian_.cols(); }
  const std::vector<int>& hessian_rows() const override { return hessian_pattern().rows(); }
  const std::vector<int>& hessian_cols() const override { return hessian_pattern().cols(); }
  /// 0 <= K, C <= their maxima, known contacts' multipliers >= 0, r_c >= 0, the rest free;
  /// equalities but
  /// for the length rows >= (d_a + d_b + e_min)^2.
  void bounds(double* x_l, double* x_u, double* g_l, double* g_u) const override;
  /// The measured frames' chi-square (and the multipliers' prior, in the model part).
  double objective_terms(const VecX& x, VecX* gradient, double* data, double* model) const override;
  /// g(x) and, if asked, the Jacobian values in the pattern's order; false (with `message`) if not
  /// finite.
  bool constraints(const VecX& x, VecX& g, VecX* jacobian, std::string& message) override;
  bool hessian(const VecX& x, double factor, const VecX& lambda, double* values,
               std::string& message) override;
  double violation(const VecX& g) const override { return gaps(g).lpNorm<Eigen::Infinity>(); }
  /// From [J^T J, A^T; A, 0] at x, the length rows off their bound left out.
  VecX parameter_sigmas(const VecX& x, const VecX& g, const VecX& jacobian) override;
  double min_contact_impulse(const VecX& x, const VecX* g) const override;

  int y(int i) const { return r(steps_) + y_offset_[i]; }  ///< step i's first multiplier
  /// The first constraint row of step i's block and of the first state's rows (i = N).
  int row(int i) const { return g_offset_[i]; }
  /// g less its bound where it is violated: g on the equality rows, min(0, g - lower) on the length
  /// rows (what the pass penalises and the constraint violation).
  VecX gaps(const VecX& g) const;

  // The trust-region pass (transcribed_least_squares.cpp): variables w = x without r, i.e.
  // [Z_0 .. Z_N, y_0 .. y_{N-1}, K / K_scale, C / C_scale]; r is the dynamics rows' defect.
  int num_reduced_variables() const { return num_variables() - 2 * n_ * steps_; }
  VecX reduced(const VecX& x) const;
  /// x at w with r = 0.
  VecX with_zero_residuals(const VecX& w) const;
  /// The rows' weights in the least squares: sqrt(R) on the dynamics rows (so their squares are
  /// r^T R r with r the defect), `penalty` [s/m] on the joint, growth, contact and first-state
  /// rows.
  VecX row_weights(double penalty) const;
  /// The residuals at w: the measured points / sigma_p, then `weights` .* g(x(w), r = 0), then the
  /// prior's y / sigma_y; |residual|^2 is the objective with r the defects plus the penalty.
  SparseResiduals least_squares(const VecX& w, bool with_jacobian, const VecX& weights);
  /// The least squares' residual curvature S = sum_k e_k d2e_k/dw2 at w (both triangles): with the
  /// multipliers lambda = 2 weights^2 g, 1/2 of the Lagrangian's exact Hessian (factor 1) less its
  /// Gauss-Newton part, r's columns dropped.
  SparseMatrix least_squares_curvature(const VecX& w, const VecX& weights);

 private:
  /// Lower triangle of the Hessian of factor f + lambda . g in the pattern's order.
  bool exact_hessian(const VecX& x, double factor, const VecX& lambda, double* values,
                     std::string& message) const;
  /// The objective's Gauss-Newton matrix (2 w dp^T dp, 2 R), the rest of the pattern 0.
  void gauss_newton(const VecX& x, double factor, double* values) const;

  int reduced_column(int col) const { return col < r(0) ? col : col - 2 * n_ * steps_; }
  bool is_residual_column(int col) const { return col >= r(0) && col < y(0); }
  /// The first of the first state's prismatic length rows (after its joint and growth rows).
  int first_length_row() const {
    return g_offset_[steps_] + 4 * model_.num_bodies + static_cast<int>(growth_specs_.size());
  }
  /// The Hessian's pattern, recorded by one pass at the guess on first use.
  SparsePattern& hessian_pattern() const;

  // set-up (transcribed_problem.cpp)
  void check_options() const;
  void set_up_length_rows();
  void set_up_step_rows();
  void multipliers_of_step(int i, const vine::VineStepper& stepper);

  /// K_j, C_j [SI] at x.
  double stiffness(const VecX& x, int pin) const { return k_scale_ * x(k(nk_ > 1 ? pin : 0)); }
  double damping(const VecX& x, int pin) const { return c_scale_ * x(c(nk_ > 1 ? pin : 0)); }
  /// A row's value and derivatives at (q, v) (lookahead false: the growth rows' look-ahead 0).
  vine::RowSecondDerivatives row_at(const vine::RowSpec& spec, const VecX& q, const VecX& v,
                                    bool lookahead = true) const;
  /// The row's local velocities (6) of v.
  VecN<6> local(const vine::RowSpec& spec, const VecX& v) const;
  /// The local inputs (0 .. 11: q, then v) a row's value depends on.
  static std::vector<int> inputs(const vine::RowSpec& spec, bool with_velocity);
  /// The variable of local input m of a row at state Z_i.
  int column(const vine::RowSpec& spec, int i, int m) const {
    return z(i) + (m < 6 ? 0 : n_) + row_dof(spec, m % 6);
  }

  // transcription_constraints.cpp
  void constraint_entries(const VecX& x, VecX& g, Emitter& add) const;
  void step_entries(const VecX& x, const vine::VineModel& m, int i, VecX& g, Emitter& add) const;
  void step_row_entries(const VecX& x, int i, VecX& dyn, MatX& block, VecX& g, Emitter& add) const;
  /// -du_a / d(x_p) of growth row `a` at state i in the growth rates' columns.
  void rate_entries(int grow, int i, int a, Emitter& add) const;
  void first_state_entries(const VecX& x, VecX& g, Emitter& add) const;

  // transcription_hessian.cpp
  void hessian_entries(const VecX& x, double factor, const VecX& lambda, bool curvature,
                       Emitter& add) const;
  void objective_hessian_entries(const VecX& x, double factor, bool curvature, Emitter& add) const;
  void step_hessian_entries(const VecX& x, const VecX& lambda, double on, int i,
                            Emitter& add) const;
  void first_state_hessian_entries(const VecX& x, const VecX& lambda, double on,
                                   Emitter& add) const;

  double m_ref_ = 1.0;            // the step QP's mass scale [kg]
  double prior_weight_ = 0.0;     // 1 / sigma_y^2 [s^2/m^2] of the multipliers' prior (0: none)
  VecX minv_;                     // M^-1's diagonal (n)
  std::vector<VecX> torque_map_;  // e_j (n) per pin
  // the prismatic joints bounded at the first state (min_prismatic_extension) and their
  // (d_a + d_b + e_min)^2 [m^2]
  std::vector<vine::RowSpec> length_specs_;
  std::vector<double> min_length_squared_;
  std::vector<std::vector<vine::RowSpec>> rows_;  // per step: joints, growth, known contacts
  // per step (N + 1): first multiplier, first constraint row
  std::vector<int> y_offset_, g_offset_;
  SparsePattern jacobian_;
  mutable SparsePattern hessian_;
  mutable bool hessian_recorded_ = false;
};

}  // namespace tendril::fit::detail
