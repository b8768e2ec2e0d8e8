#pragma once
/// The vine paper's joint state and parameter estimation (section III, eq. 16), solved with IPOPT:
///
///   minimise over Z, K, C, r   sum_frames |p_hat_i - p(q_i)|^2 / sigma_p^2  +  sum_i r_i^T R r_i
///   subject to  Z_{i+1} - f(Z_i, K, C) = r_i      i = 0 .. N-1  (the step map,
///   vine/vine_stepper.hpp)
///               c(q_i) = 0                        i = 0 .. N    (pin and prismatic joints)
///               g(q_i, v_i) = u_i                 i = 0 .. N    (growth rate of every prismatic
///               joint) Phi_c(q_i) = 0                    for the known contacts c active at step i
///               n_c,i(Z_i, K, C) >= 0             their normal impulses, with bilateral_contacts
///
/// (the transcribed formulation also estimates the growth rates, the base heading and the contact
/// radius: JointEstimationOptions::parameters). Z_i = (q_i, v_i) at every simulation step from the
/// first to the last measured frame. The
/// objective is the paper's divided by the measurement variance sigma_p^2 (a chi-square): R =
/// diag(1/sigma_q^2, 1/sigma_q^2, 1/sigma_theta^2 per body | 1/sigma_v^2, 1/sigma_v^2,
/// 1/sigma_omega^2 per body), the model's trust expressed as the standard deviations of its
/// one-step errors. The constraint Jacobian is exact and sparse: dense 2n x 2n blocks df/dZ_i and
/// the columns df/dK, df/dC from vine/step_derivatives.hpp, identities for Z_{i+1} and r_i, and the
/// joint, growth and contact rows' gradients from the step's row templates
/// (vine/constraint_rows.hpp). The Hessian of the Lagrangian is the constrained Gauss-Newton matrix
/// (the objective's: 2 dp/dq^T dp/dq / sigma_p^2 and 2 R, no constraint curvature) or the exact one
/// (with the step map's second derivatives, vine/step_second_derivatives.hpp). The defaults are the
/// configuration that converges on the measured wall growth (the transcribed formulation, the
/// trust-region pass of 200 Gauss-Newton and 1500 Newton steps, the exact Hessian, the first
/// state's prismatic joints at least end to end and the weak prior on the multipliers;
/// docs/physics/fitting.md); step_map_options() gives the paper's step-map formulation. With
/// eliminate_model_residuals IPOPT solves the same problem with r_i = Z_{i+1} - f(Z_i, K, C)
/// substituted (variables Z, K, C; Gauss-Newton Hessian 2 J^T J of the objective's residuals).
/// docs/physics/fitting.md.

#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "tendril/core/sparse_assembly.hpp"
#include "tendril/core/types.hpp"
#include "tendril/fit/vine_shooting_fit.hpp"
#include "tendril/vine/vine_model.hpp"

namespace tendril::fit {

/// A contact known from the video: contact point `point` (an index into VineModel::contact_points;
/// the model uses ContactModel::point) touches obstacle `obstacle` at steps first_step .. last_step
/// (simulation steps counted from the start state, inclusive): Phi(q_i) = 0 there.
struct KnownContact {
  int point = 0;
  int obstacle = 0;
  int first_step = 0;
  int last_step = 0;
};

/// How the Hessian of the Lagrangian is formed.
enum class EstimationHessian {
  gauss_newton,  ///< the objective's Gauss-Newton matrix, constraint curvature left out
  /// the exact Hessian of the Lagrangian: the objective's (with the observation's curvature), the
  /// dynamics multipliers times the step map's second derivatives
  /// (vine/step_second_derivatives.hpp) and the joint, growth, contact rows' curvature (the
  /// default; not with eliminate_model_residuals)
  exact,
};

/// How the dynamics enter the NLP.
enum class EstimationFormulation {
  /// Z_{i+1} - f(Z_i, K, C) = r_i with f the step map (a QP solved at every evaluation): eq. 16 as
  /// the paper writes it; does not converge on the measured wall growth (docs/physics/fitting.md)
  step_map,
  /// the step's own unknowns (v_{i+1} and the QP's multipliers) as NLP variables and its optimality
  /// conditions as NLP equality constraints (direct transcription,
  /// fit/vine_transcribed_estimation.hpp):
  /// IPOPT never solves a QP inside
  transcribed,
};

/// One IPOPT iteration as its intermediate callback reports it (the columns of IPOPT's log).
struct JointEstimationIteration {
  int iteration = 0;       ///< IPOPT's iteration counter (0: the starting point)
  double objective = 0.0;  ///< the objective (chi-square form above) [-]
  double inf_pr =
      0.0;  ///< primal infeasibility: the constraint violation (IPOPT's scaled max norm)
  double inf_du = 0.0;  ///< dual infeasibility (the Lagrangian's gradient, IPOPT's scaled max norm)
  double mu = 0.0;      ///< barrier parameter
  double d_norm = 0.0;  ///< max norm of the primal step
  double regularization = 0.0;            ///< delta_w added to the Hessian's diagonal (0: none)
  double alpha_du = 0.0, alpha_pr = 0.0;  ///< step sizes of the dual and primal variables
  int line_search_trials = 0;
  bool restoration = false;  ///< an iteration of IPOPT's restoration phase (its log's "r")
  /// a trial of the trust-region pass before IPOPT (objective: the pass's least squares, d_norm its
  /// step, regularization its lambda; inf_pr, inf_du NaN), accepted or not
  bool trust_region = false;
  bool accepted = true;
};

struct JointEstimationOptions {
  EstimationFormulation formulation = EstimationFormulation::transcribed;
  /// false: one K and one C for all pins (the paper's choice); true: K_j, C_j per pin joint
  bool per_joint = false;
  std::vector<KnownContact> contacts;  ///< the contacts Phi(q_i) = 0 (none: no contact constraint)
  /// true: the step map f holds each known contact at its steps by an equality row (its impulse
  /// may pull: vine::VineStepper::set_bilateral_contacts) instead of the inequality of eq. 13,
  /// whose switch between touching and pushing is a kink of f exactly where Phi(q_i) = 0 puts the
  /// states, and the problem gets the inequalities impulse_i / (m_ref sigma_v) >= 0 (their
  /// derivatives from vine/step_derivatives.hpp), so a solution is one of the simulator's. Smooth,
  /// but IPOPT does not converge with it on the wall growth either (docs/physics/fitting.md); false
  /// (the default): eq. 13.
  bool bilateral_contacts = false;
  double measurement_sigma = 1e-3;     ///< sigma_p: standard deviation of a measured coordinate [m]
  double model_sigma_position = 1e-5;  ///< sigma_q: of a one-step model error in x, y [m]
  double model_sigma_angle = 1e-4;     ///< sigma_theta: in theta [rad]
  double model_sigma_velocity = 1e-3;  ///< sigma_v: in the velocities dx/dt, dy/dt [m/s]
  double model_sigma_angular_velocity = 1e-2;  ///< sigma_omega: in dtheta/dt [rad/s]
  /// true: IPOPT solves eq. 16 with r eliminated by its own equality, r_i = Z_{i+1} - f(Z_i, K, C)
  /// substituted into r^T R r: variables Z and K, C only, the Hessian the Gauss-Newton matrix 2 J^T
  /// J of the objective's residuals (the remaining joint, growth and contact rows' curvature left
  /// out), and as constraints only the joint, growth and known-contact rows (and the held impulses
  /// >= 0). Every trial point satisfies the dynamics exactly; at such points the Gauss-Newton step
  /// is the form above's. false: the form above. Converges to the same optimum on simulated data
  /// (in about twice the iterations); not on the measured wall growth either
  /// (docs/physics/fitting.md).
  bool eliminate_model_residuals = false;
  /// true: also dc/dq(q_0) v_0 = 0, the joints' velocity constraints at the first state (2 per
  /// body; the simulator's states satisfy them to O(c / Delta t)). The step map does not see v_0's
  /// joint-violating components except through the growth rows' look-ahead term (h^'s rate
  /// (hdot - h^ h^ . hdot) / |h| uses v_k), so without these rows they drift, and on the wall
  /// growth they made the step QP at Z_0 near-singular (docs/physics/fitting.md). false (the
  /// default): not imposed.
  bool first_state_joint_velocities = false;
  EstimationHessian hessian = EstimationHessian::exact;
  double tolerance = 1e-8;   ///< IPOPT `tol` (scaled NLP error)
  int max_iterations = 500;  ///< IPOPT `max_iter`
  /// Transcribed formulation only: accepted steps of the trust-region pass before IPOPT (0: IPOPT
  /// from the simulated guess): sparse Levenberg-Marquardt on the problem as least squares over
  /// [Z, y, K, C], r eliminated, the joint, growth and contact constraints as heavily weighted
  /// residuals and the contacts' y >= 0 as bounds (fit/sparse_levenberg_marquardt.hpp). IPOPT then
  /// starts warm from its point with the multipliers at which the least squares are stationary
  /// (`warm_start_init_point`, `constr_mult_init_max` 1e20); the bounded K, C not pushed into the
  /// interior (bound pushes 1e-9) and the barrier parameter `mu_init` 1e-6
  int trust_region_iterations = 200;
  /// Transcribed formulation only: accepted steps of the pass after those, with the residuals' own
  /// curvature S = sum e_k d2e_k (from the exact Hessian of the Lagrangian) added to J^T J (a
  /// trust-region Newton method; on the wall growth the Gauss-Newton pass stalls with a large
  /// gradient, these steps end at a 1e4 times smaller one, and IPOPT converges from there only with
  /// min_prismatic_extension: docs/physics/fitting.md). 0: none
  int trust_region_newton_iterations = 1500;
  /// Called after every trial of the trust-region pass and every IPOPT iteration (and at IPOPT's
  /// start, iteration 0); returning false stops the estimation at once (status User_Requested_Stop;
  /// in the pass, IPOPT is not started). Empty: none.
  std::function<bool(const JointEstimationIteration&)> progress;
  /// Typical magnitudes of K [N m/rad] and C [N m s/rad]: IPOPT works on K / scale, C / scale
  /// (<= 0: the initial guess's)
  double stiffness_scale = 0.0, damping_scale = 0.0;
  /// Upper bounds on K [N m/rad] and C [N m s/rad] (the lower bounds are 0). damping_max <= 0: with
  /// the paper's explicit springs min_i I_i / Delta t (C Delta t / I = 1, half the explicit
  /// dampers' stability limit 2: beyond it the step map the fit differentiates oscillates), else
  /// unbounded.
  double stiffness_max = std::numeric_limits<double>::infinity(), damping_max = 0.0;
  /// Transcribed formulation only: > 0 adds a weak prior sum_i |y_i|^2 / sigma_y^2 on the step
  /// rows' multipliers y (scaled impulses [m/s]; O(1) on the wall growth) to the objective (in its
  /// model term), a modelling choice that determines a direction the rows leave free where two of
  /// them are (nearly) dependent (docs/physics/fitting.md, "What the wall growth leaves
  /// undetermined"); its Hessian is 2 / sigma_y^2 on y's diagonal (default 10 m/s, as on the wall
  /// growth). 0: none.
  double multiplier_sigma = 10.0;
  /// Transcribed formulation only: a finite value e_min [m] adds the inequalities
  /// |h_j(q_0)|^2 >= (d_a + d_b + e_min)^2 on every prismatic joint j at the first state (h = p_b -
  /// p_a, d the half lengths: the extension, the gap between the bodies' ends, at least e_min; 0:
  /// the bodies at least end to end). A modelling choice: the first state's lengths are not
  /// measured, the growth rows fix only their rates, and on the wall growth the fit otherwise
  /// collapses the last joint to |h| = 0, where its two rows coincide and its growth row's h / |h|
  /// is singular (docs/physics/fitting.md, "What the wall growth leaves undetermined"). In the
  /// trust-region pass a one-sided penalty. Default 0 (end to end); -inf: none.
  double min_prismatic_extension = 0.0;
  /// Transcribed formulation only: parameters estimated besides K and C, each one value: the
  /// growth schedule's rates (VineParameterKind::growth_rate, a sample each; the rows' rates
  /// u_j,i are linear in them), the base heading theta_bar_0 (heading; F is bilinear in it and
  /// K) and the contact radius r_c (contact_radius, with known contacts: their rows' Phi is linear
  /// in it). Free but r_c >= 0; IPOPT works on value / scale with the guess's |value| as scale (1
  /// where 0). The guess is the model's values. The inflated-beam law's M_c, theta_w are refused.
  std::vector<VineParameter> parameters;
};

struct JointEstimationResult {
  bool converged = false;   ///< IPOPT returned Solve_Succeeded (or Solved_To_Acceptable_Level)
  std::string status;       ///< IPOPT's return status, e.g. "Solve_Succeeded"
  int iterations = 0;       ///< IPOPT iterations
  double objective = 0.0;   ///< objective at the solution (chi-square form above) [-]
  double data_term = 0.0;   ///< its measurement part sum |p_hat - p|^2 / sigma_p^2 [-]
  double model_term = 0.0;  ///< its model part sum r^T R r [-]
  double constraint_violation = 0.0;  ///< max |constraint| at the solution (unscaled) [m, m/s]
  /// Smallest normal impulse of the held known contacts over the steps at the solution [N s]
  /// (+inf without bilateral contacts); >= 0: the unilateral contact of eq. 13 gives the same steps
  double min_contact_impulse = std::numeric_limits<double>::infinity();
  double initial_objective = 0.0;  ///< objective at the initial guess (simulated trajectory) [-]
  std::vector<double> stiffness;   ///< fitted K [N m/rad] (1 or #pins)
  std::vector<double> damping;     ///< fitted C [N m s/rad] (1 or #pins)
  /// One-sigma uncertainties from the constrained Gauss-Newton Hessian at the optimum (the inverse
  /// of its KKT matrix, parameter block), in the noise model's units; +inf for a parameter at its
  /// bound 0 or not identifiable (singular KKT matrix)
  std::vector<double> stiffness_sigma, damping_sigma;
  /// options.parameters' fitted values (in their units: m/s, rad) and one-sigma uncertainties (as
  /// K's, C's)
  std::vector<double> parameter_values, parameter_sigmas;
  std::vector<vine::VineState> trajectory;  ///< fitted Z_i, i = 0 .. N (steps first .. last frame)
  /// The model residuals r_i = (r_q [m, m, rad], r_v [m/s, m/s, rad/s]), i = 0 .. N-1 (2n each)
  std::vector<VecX> model_residuals;
  std::vector<MatX> simulated;       ///< p(q_i) at the measured frames ((P or 1) x 2) [m]
  int first_step = 0;                ///< simulation step of Z_0
  double seconds = 0.0;              ///< wall time of the IPOPT solve [s]
  int trust_region_iterations = 0;   ///< accepted steps of the trust-region pass
  std::string trust_region_message;  ///< why it stopped
  bool trust_region_interrupted =
      false;  ///< the progress callback stopped the pass (IPOPT was not started)
  double trust_region_objective = 0.0;  ///< the objective where IPOPT starts [-]
  double trust_region_seconds = 0.0;    ///< wall time of the trust-region pass [s]
};

/// The step-map formulation (eq. 16 as the paper writes it) with the options it takes: the
/// Gauss-Newton Hessian, no trust-region pass, and none of the transcribed formulation's own
/// options (no Newton steps, no prior, no bound on the first lengths).
JointEstimationOptions step_map_options();

/// Estimates the trajectory and K, C from `frames` (increasing steps; Z spans the first to the last
/// frame's step). The initial guess is the simulation from `start` (the state at step 0) with the
/// model's K and C (its first pin's, or every pin's with per_joint). Throws InputError for an
/// invalid option or a guess that does not simulate.
JointEstimationResult estimate_vine_states_and_parameters(
    const vine::VineModel& model, const vine::VineState& start,
    const std::vector<MeasuredFrame>& frames, const JointEstimationOptions& options = {});

/// The estimation problem's pieces at a point, for the derivative checks: x = [Z_0 .. Z_N (q, v
/// each), r_0 .. r_{N-1}, K / K_scale, C / C_scale, options.parameters / their scales] in IPOPT's
/// variables (without the r_i, and only
/// the constraint rows after the dynamics, with eliminate_model_residuals).
struct JointEstimationProblemEvaluation {
  VecX x;  ///< the initial guess
  double objective = 0.0;
  VecX gradient;          ///< d objective / dx
  VecX constraints;       ///< g(x)
  SparseMatrix jacobian;  ///< dg/dx (sparse, the solver's pattern)
  /// With eliminate_model_residuals: the objective's residuals e(x) (the measured points / sigma_p,
  /// then sqrt(R) (Z_{i+1} - f(Z_i)) per step; objective |e|^2, gradient 2 J^T e) and J = de/dx
  VecX residuals;
  SparseMatrix residual_jacobian;
  /// With multipliers given: the Hessian IPOPT is given (sparse, both triangles); with
  /// EstimationHessian::exact that of the Lagrangian f(x) + multipliers . g(x)
  SparseMatrix hessian;
};

/// Evaluates the problem at `x` (empty: at the initial guess) as the solver sees it; with
/// `multipliers` (one per constraint) also its Hessian (EstimationHessian::exact: the Lagrangian's;
/// not with eliminate_model_residuals).
JointEstimationProblemEvaluation evaluate_joint_estimation(const vine::VineModel& model,
                                                           const vine::VineState& start,
                                                           const std::vector<MeasuredFrame>& frames,
                                                           const JointEstimationOptions& options,
                                                           const VecX& x = {},
                                                           const VecX& multipliers = {});

}  // namespace tendril::fit
