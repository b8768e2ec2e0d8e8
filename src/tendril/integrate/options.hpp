#pragma once
/// Options of the Newton solver, the time stepper and the static solver, with documented
/// defaults and validate() that throws InputError naming the bad field (prefixed by the caller's
/// key path, e.g. "integrator."). Derivations: docs/physics/time_integration.md.

#include <string>
#include <string_view>

namespace tendril {

enum class Scheme {
  implicit_euler,     ///< backward Euler (mat_dismech Algorithm 1); first order, numerically damped
  implicit_midpoint,  ///< forces at (q_k + q_{k+1}) / 2; second order, no numerical damping
};

/// The function the line search decreases.
enum class Merit {
  /// phi = (1/(2h^2)) (y - y_pred)^T M (y - y_pred) + E(y) - W, with W the work of the ForceTerms
  /// along the search line (trapezoidal rule); requires a positive definite Newton matrix
  /// (indefinite matrices are shifted until they are).
  incremental_potential,
  /// psi = ||f_free||^2 / 2; accepts indefinite Newton matrices (may converge to unstable
  /// equilibria).
  residual_norm,
};

/// Which factorization solves the Newton system. The LDL^T kinds read one triangle; when a
/// ForceTerm of the model reports has_symmetric_jacobian() == false they are replaced by the LU of
/// the same structure (make_linear_solver).
enum class LinearSolverKind {
  automatic,    ///< banded when the reverse Cuthill-McKee bandwidth is small, else sparse; LDL^T or
                ///< LU
  banded_ldlt,  ///< LDL^T on band storage after a reverse Cuthill-McKee permutation
  sparse_ldlt,  ///< Eigen SimplicialLDLT with AMD ordering, symbolic analysis reused
  banded_lu,    ///< LU without pivoting on band storage after a reverse Cuthill-McKee permutation
  sparse_lu,    ///< Eigen SparseLU with COLAMD ordering, symbolic analysis reused
};

/// Where each time step's Newton iteration starts (docs/physics/time_integration.md, "Initial
/// guess").
enum class InitialGuess {
  inertial,  ///< q_k + h u_k, the force-free motion, cut short by the continuous collision checks
  previous,  ///< q_k (mat_dismech Algorithm 1, line 5)
};

/// Which test ends a Newton solve (docs/physics/time_integration.md, "Newton iteration and
/// convergence").
enum class StoppingRule {
  /// the residual at the current iterate within the force tolerance or its round-off floor
  /// (NewtonOptions::force_tolerance, force_tolerance_abs, step_tolerance)
  tendril,
  /// py-dismech's rule (NewtonOptions::dismech): the residual of the iterate *before* the last
  /// update
  /// below an absolute or a relative tolerance, or the update's largest velocity change below a
  /// tolerance; the update is applied either way.
  dismech,
};

std::string_view to_string(Scheme scheme);
std::string_view to_string(InitialGuess guess);
std::string_view to_string(Merit merit);
std::string_view to_string(LinearSolverKind kind);
std::string_view to_string(StoppingRule rule);
/// Parse the names above; throw InputError(key_path, text, allowed names) otherwise.
Scheme parse_scheme(std::string_view text, const std::string& key_path);
InitialGuess parse_initial_guess(std::string_view text, const std::string& key_path);
Merit parse_merit(std::string_view text, const std::string& key_path);
LinearSolverKind parse_linear_solver(std::string_view text, const std::string& key_path);
StoppingRule parse_stopping_rule(std::string_view text, const std::string& key_path);

struct LineSearchOptions {
  bool enabled = true;                         ///< false: always take the full Newton step
  Merit merit = Merit::incremental_potential;  ///< see Merit
  double armijo = 1e-4;    ///< c_1 in phi(a) <= phi(0) + c_1 a phi'(0), in (0, 1/2)
  double shrink = 0.5;     ///< a <- shrink * a after a rejected trial, in (0, 1)
  double min_step = 1e-6;  ///< smallest step fraction a tried before failing, in (0, 1]

  void validate(std::string_view prefix = "") const;
};

/// The tolerances of StoppingRule::dismech: py-dismech (StructuresComp/dismech-python,
/// time_steppers/time_stepper.py, `_converged`) stops after iteration k, having applied its update
/// y_{k+1} = y_k + alpha_k d_k, when ||f(y_k)|| < force_tolerance, or ||f(y_k)|| <
/// relative_tolerance
/// ||f(y_0)||, or max_i |c_u alpha_k d_k,i| < velocity_tolerance (c_u = du/dy, 1/dt for implicit
/// Euler: max |dq| / dt over every free DOF, angles included). The defaults are the tolerances of
/// py-dismech's test fixtures (tests/conftest.py: tol, ftol, dtol), which it uses for the shell
/// cantilever and the parachute.
struct DismechStopping {
  double force_tolerance = 1e-4;     ///< tol [N], >= 0
  double relative_tolerance = 1e-4;  ///< ftol [-], >= 0
  double velocity_tolerance = 1e-2;  ///< dtol [m/s] (rad/s for angles), >= 0

  void validate(std::string_view prefix = "") const;
};

struct NewtonOptions {
  /// Converged ("residual") when ||f_free||_2 <= max(force_tolerance_abs, force_tolerance * F),
  /// with the physical force scale F = ||c_m M (y_0 - y_pred)|| + ||c_m M (y - y_pred)|| + ||lambda
  /// (dE_load/dq - F)|| on the free DOFs: the inertia of the predicted motion (m/dt^2 times the
  /// step's predicted displacement dt u_k, at the initial guess y_0) plus the inertial force M a
  /// and the applied loads at the current iterate y. Elastic forces are not part of it: at a
  /// solution they balance these on the free DOFs, and at a poor iterate (a moved clamp, a strained
  /// stiff edge) they would inflate it.
  double force_tolerance = 1e-8;     ///< relative [-], >= 0
  double force_tolerance_abs = 0.0;  ///< absolute floor [N], >= 0
  /// Also converged ("round_off") when every residual entry lies within its round-off floor up to
  /// the force tolerance, tested when the residual is near the floor's cheap diagonal estimate or
  /// when a Newton step moves no position by more than step_tolerance * L (L = diagonal of the rest
  /// shape's bounding box [m]) and no twist by more than step_tolerance [rad]: ||(|f_i| -
  /// phi_i)_+|| <= tolerance, phi_i = 16 eps (sum_j |J_ij| y~_j + the magnitudes of the forces
  /// summed into f_i), y~_j = |y_j| for positions (max(|y_j|, L / #nodes) after a negligible
  /// step), |y_j| + 1 for angles. A negligible step above the floor goes on.
  double step_tolerance = 1e-12;  ///< relative [-], >= 0
  int max_iterations = 30;        ///< Newton iterations per solve, >= 1
  LineSearchOptions line_search;
  LinearSolverKind linear_solver = LinearSolverKind::automatic;
  /// automatic picks the banded solver when the permuted bandwidth is at most this (above it, when
  /// its estimated work and storage are not much above the sparse LDL^T's; make_linear_solver).
  int banded_max_bandwidth = 64;  ///< >= 1
  /// A pivot |d_i| <= singular_pivot_tolerance * |A_ii| (its own row's diagonal) counts as zero
  /// (singular matrix), however stiff the other rows are.
  double singular_pivot_tolerance = 1e-13;  ///< in [0, 1)
  /// Indefinite/singular matrices are retried with J + mu diag(|J_ii|), mu = 1e-8 growing 10x per
  /// try.
  int max_shift_attempts = 12;  ///< >= 0
  /// Rod edges whose EA is at least this many times the median EA of all rod edges form near-rigid
  /// segments that the line search turns instead of stretching (StiffSegments); 0 switches it off.
  double stiff_segment_ratio = 100.0;  ///< 0 or >= 1
  /// Chord steps: when an iteration cut the residual to at most chord_contraction times the
  /// previous one, the next iteration solves with the factorization already held (the Jacobian of
  /// an earlier iterate) instead of evaluating and factorizing a new one; a chord step that does
  /// not cut the residual by that factor too, or whose direction is not a descent direction, or
  /// whose line search fails, is followed (or replaced) by a fresh Newton step. The stopping tests
  /// are the same. 0 switches it off (every iteration factorizes its own Jacobian). Chord steps
  /// converge linearly: on a cantilever released under gravity
  /// (tests/unit/integrate/test_chord_steps.cpp) 0.5 took up to 21 iterations per step where fresh
  /// Newton steps took 5, and 0.9 ran out of iterations.
  double chord_contraction = 0.0;  ///< in [0, 0.5]
  /// Which test ends a solve: tendril (the tolerances above) or dismech (the tolerances in
  /// `dismech`; force_tolerance, force_tolerance_abs and step_tolerance are then unused, and so is
  /// the round-off test).
  StoppingRule stopping = StoppingRule::tendril;
  DismechStopping dismech;
  /// Threads that evaluate the Newton system (kinematics and the element-local values of the terms
  /// that offer it, core/term.hpp): the caller plus threads - 1 workers of a persistent pool. The
  /// result is bitwise the same for every count (docs/physics/time_integration.md, "Threads"). 1:
  /// no threads.
  int threads = 1;                        ///< in [1, kMaxThreads]
  static constexpr int kMaxThreads = 64;  // (validate's message says 64)

  void validate(std::string_view prefix = "") const;
};

struct DynamicsOptions {
  Scheme scheme = Scheme::implicit_euler;
  double dt = 1e-3;  ///< time step Delta t [s], > 0
  /// alpha of the generalised midpoint rule (implicit_midpoint only): forces at
  /// q_alpha = (1 - alpha) q_k + alpha q_{k+1}, in [1/2, 1]. 1/2 is the implicit midpoint rule
  /// (second order, no numerical damping); alpha > 1/2 damps modes with omega dt >> 1 by (1 -
  /// alpha)/alpha per step (first order, energy loss ~ (2 alpha - 1) omega^2 dt per unit time for
  /// slow modes); 1 is implicit Euler. See docs/physics/time_integration.md, "Midpoint rule and
  /// stiff modes".
  double midpoint_alpha = 0.5;
  /// a failed (sub)step is split in two at most this deep, >= 0; each half is tried whole again, so
  /// dt grows back after the part that needed the split (fast impacts, moving obstacles)
  int max_dt_halvings = 12;
  InitialGuess initial_guess = InitialGuess::inertial;
  NewtonOptions newton;

  void validate(std::string_view prefix = "") const;
};

struct StaticOptions {
  int initial_load_steps = 1;  ///< load increments tried first (1 = full load at once), >= 1
  int max_load_steps = 1024;   ///< smallest increment is 1 / max_load_steps, >= initial_load_steps
  /// Newton options; max_iterations defaults to 100 here: from a straight, unloaded rod the tangent
  /// stiffness lacks the geometric (stress) stiffness, and large-deflection solves (a cantilever
  /// hanging under its weight) measured 20-35 iterations before the quadratic phase. Scenes use the
  /// same defaults (integrator.newton.max_iterations absent, integrator.static_max_load_steps).
  NewtonOptions newton = [] {
    NewtonOptions o;
    o.max_iterations = 100;
    return o;
  }();

  void validate(std::string_view prefix = "") const;
};

}  // namespace tendril
