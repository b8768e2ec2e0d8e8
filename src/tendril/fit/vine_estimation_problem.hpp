#pragma once
/// What the joint estimation's two formulations share (the step map's, fit/step_map_problem.hpp;
/// the transcribed one, fit/transcribed_problem.hpp): the input checks, the unknowns' layout
///   x = [Z_0 .. Z_N (q_i, v_i: 2n each), r_0 .. r_{N-1} (2n each), (the transcribed step rows'
///        multipliers), K / K_scale, C / C_scale (nk each), the options' parameters / their
///        scales (growth rates, base heading, contact radius; transcribed only)],
/// the bounds 0 <= K, C <= their maxima, the model's weights R, the joint and growth rows of the
/// step, the initial guess (the simulation from the start with the model's K, C), the objective
///   sum_frames |p(q_i) - p_hat_i|^2 / sigma_p^2 + sum_i r_i^T R r_i,
/// and the estimate's report (objective parts, constraint violation, the constrained Gauss-Newton
/// uncertainties, the trajectory). docs/physics/fitting.md. Internal to src/tendril/fit.

#include <functional>
#include <vector>

#include <Eigen/SparseCore>

#include "tendril/core/types.hpp"
#include "tendril/fit/estimation_nlp.hpp"
#include "tendril/fit/vine_joint_estimation.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::fit::detail {

/// The trust-region pass's penalty: joint, growth and contact rows weigh as residuals with this
/// fraction of the model's sigmas (sigma_q for positions, sigma_v for the rows in velocity units).
inline constexpr double kPenaltySigma = 1e-2;

/// True if a row's local entry l (0 .. 5: body a's x, y, theta, then body b's) enters the row (body
/// a is not the world).
inline bool row_uses(const vine::RowSpec& spec, int l) {
  return vine::row_entry_used(spec.kind, l) && (l >= 3 || spec.body_a >= 0);
}
/// The degree of freedom of a row's local entry l (0 .. 5).
inline int row_dof(const vine::RowSpec& spec, int l) {
  return 3 * (l < 3 ? spec.body_a : spec.body_b) + l % 3;
}

class VineEstimationProblem : public EstimationNlp {
 public:
  /// Checks the input (InputError naming the key: frames empty or not increasing, sigmas or a
  /// tolerance not finite and > 0, a guess without K, C > 0, a model the formulations do not
  /// handle, a known contact out of range) and sets up the layout.
  VineEstimationProblem(const vine::VineModel& model, const vine::VineState& start,
                        const std::vector<MeasuredFrame>& frames,
                        const JointEstimationOptions& options);

  int steps() const { return steps_; }  ///< N
  int first_step() const { return first_step_; }
  int num_parameters() const { return nk_; }  ///< nk: 1, or #pins per joint
  int dofs() const { return n_; }
  double time(int i) const { return start_time_ + i * model_.dt; }  ///< of Z_i [s]
  double stiffness_scale() const { return k_scale_; }
  double damping_scale() const { return c_scale_; }
  const VecX& initial_guess() const { return x0_; }
  const VecX& model_weights() const { return weights_; }  ///< R's diagonal (2n)

  // variable offsets
  int z(int i) const { return 2 * n_ * i; }
  int r(int i) const { return 2 * n_ * (steps_ + 1) + 2 * n_ * i; }
  int k(int j) const { return r(steps_) + num_multipliers_ + j; }
  int c(int j) const { return k(0) + nk_ + j; }
  /// options.parameters[e]'s variable (value / parameter_scale(e))
  int p(int e) const { return c(0) + nk_ + e; }
  int num_extra_parameters() const { return static_cast<int>(options_.parameters.size()); }
  double parameter_scale(int e) const { return extra_scale_(e); }

  double objective(const VecX& x, VecX* gradient) override {
    return objective_terms(x, gradient, nullptr, nullptr);
  }
  /// The objective and, if asked, its gradient (sized as x) and its data and model parts.
  virtual double objective_terms(const VecX& x, VecX* gradient, double* data, double* model) const;
  /// u at Z_i for x's growth rates (#prismatic) [m/s].
  VecX growth_rates(const VecX& x, int i) const;
  /// The largest violation of g(x) [m, m/s].
  virtual double violation(const VecX& g) const = 0;
  /// One-sigma uncertainties of K / K_scale, C / C_scale (2 nk) and the options' parameters / their
  /// scales at x, g(x) and its Jacobian values.
  virtual VecX parameter_sigmas(const VecX& x, const VecX& g, const VecX& jacobian) = 0;
  /// The smallest normal impulse of the known contacts over the steps [N s] (+inf without any);
  /// g: g(x), nullptr where the model fails at x.
  virtual double min_contact_impulse(const VecX& x, const VecX* g) const = 0;

  /// p(q_i) - p_hat of the frame measured at trajectory index i, flattened (2P: x, y of each point)
  /// [m], and, if asked, dp/dq_i (2P x n).
  VecX data_residual(const VecX& x, int i, MatX* dpoints) const;
  /// The measured frames' residuals (p(q_i) - p_hat_i) / sigma_p stacked frame by frame and, if
  /// asked, their derivatives' non-zero entries (row, column of x: the q_i columns).
  VecX data_residuals(const VecX& x, std::vector<Eigen::Triplet<double, int>>* jacobian) const;
  /// The observed points at every frame for x ((P x 2) each) [m].
  std::vector<MatX> observed(const VecX& x) const;

 protected:
  /// The options' parameters' scales, their growth rows' columns and the heading's index.
  void set_up_extra_parameters();
  /// 0 <= K, C <= their maxima (scaled) into x_l, x_u.
  void parameter_bounds(double* x_l, double* x_u) const;
  /// The row of a known contact: kind contact, the point's body and offset, the obstacle.
  vine::RowSpec contact_row(const KnownContact& contact) const;
  /// The initial guess x0_: the simulation from `start` with the model's K, C, r = 0;
  /// `after_step(i, stepper)` after the step from Z_i (i = 0 .. N-1). InputError if a step fails.
  void simulate_initial_guess(const vine::VineState& start,
                              const std::function<void(int, const vine::VineStepper&)>& after_step);

  vine::VineModel model_;
  std::vector<MeasuredFrame> frames_;
  JointEstimationOptions options_;
  vine::VineStepper stepper_;  // the model at the initial guess: rows, contexts, growth rates
  int n_ = 0, pins_ = 0, nk_ = 1, first_step_ = 0, steps_ = 0;
  int num_multipliers_ = 0;  // variables between r and K (the transcribed step rows' multipliers)
  double start_time_ = 0.0, k_scale_ = 1.0, c_scale_ = 1.0, k_max_ = 0.0, c_max_ = 0.0;
  VecX weights_;  // R's diagonal (2n)
  std::vector<vine::RowSpec> joint_specs_, growth_specs_;
  std::vector<int> frame_of_step_;  // the frame measured at trajectory index i, or -1
  std::vector<VecX> rates_;         // u at each state at the guess (#prismatic)
  std::vector<MatX> rate_columns_;  // du / d(x_p) at each state (#prismatic x #extra parameters)
  VecX extra_scale_;                // the options' parameters' scales
  int heading_ = -1;                // the base heading's index in options.parameters (-1: none)
  int radius_ = -1;                 // the contact radius's index in options.parameters (-1: none)
  VecX x0_;
};

/// One-sigma uncertainties of the variables first_parameter .. first_parameter + count - 1 from the
/// KKT matrix [H, A^T; A, 0] (nv + nc square; H from the lower triangle `hessian_lower`, A from
/// `jacobian`, whose rows listed in `inactive_rows` are left out, i.e. get an identity); +inf where
/// singular or the variance is not positive.
VecX constrained_sigmas(int nv, int nc,
                        const std::vector<Eigen::Triplet<double, int>>& hessian_lower,
                        const std::vector<Eigen::Triplet<double, int>>& jacobian,
                        const std::vector<int>& inactive_rows, int first_parameter, int count);

/// The estimate at x into `result`: the objective and its parts, the constraint violation, the
/// smallest contact impulse, the uncertainties (+inf when the model fails at x or the estimation
/// was stopped), K, C, the trajectory, the model residuals and the observed points.
void report_estimate(VineEstimationProblem& problem, const VecX& x, JointEstimationResult& result);

}  // namespace tendril::fit::detail
