#pragma once
/// Newton's method with a backtracking line search on the free DOFs of a Model, shared by the
/// time steppers and the static solver (mat_dismech Algorithm 1, generalised). It solves
///   f(y) = c_m M (y - y_pred) + dE_int/dq(y) + lambda (dE_load/dq(y) - F(y, u(y), t)) = 0,
///   u(y) = c_u (y - q_ref),
/// for the free entries of y (fixed entries are set by the caller and never change), with
///   J = c_m M + d2E_int/dq2 + lambda (d2E_load/dq2 - dF/dq - c_u dF/du).
/// Implicit Euler: c_m = 1/dt^2, c_u = 1/dt; implicit midpoint: the same with h = dt/2 in the
/// midpoint unknown; static: c_m = c_u = 0. See docs/physics/time_integration.md.
///
/// The sparsity pattern (mass diagonal + every term's declare_sparsity), its restriction to the
/// free DOFs, the gather map between them and the solver's symbolic analysis are built in the
/// constructor and again only when a term's stencil set changed (update_stencils); an iteration
/// allocates nothing. The terms are evaluated with their workspaces (core/model_workspace.hpp),
/// the caller's (one simulation's) or the system's own.

#include <memory>
#include <string>
#include <vector>

#include "tendril/core/model.hpp"
#include "tendril/core/model_workspace.hpp"
#include "tendril/core/sparse_assembly.hpp"
#include "tendril/core/state.hpp"
#include "tendril/core/term.hpp"
#include "tendril/core/worker_pool.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/integrate/linear_solver.hpp"
#include "tendril/integrate/options.hpp"
#include "tendril/integrate/step_report.hpp"
#include "tendril/integrate/stiff_segments.hpp"

namespace tendril {

/// The coefficients of one nonlinear solve (see the file comment).
struct NewtonProblem {
  double inertia = 0.0;                   ///< c_m [1/s^2]; 0 for a static solve
  const VecX* predicted = nullptr;        ///< y_pred (#dofs); read only when inertia > 0
  double velocity_scale = 0.0;            ///< c_u = du/dy [1/s]; 0 gives u = 0
  const VecX* velocity_origin = nullptr;  ///< q_ref (#dofs); read only when velocity_scale > 0
  double time = 0.0;                      ///< t [s] at which the terms are evaluated
  double load_factor = 1.0;               ///< lambda, scales external-load energies and ForceTerms
  const RodFrames* frames = nullptr;      ///< accepted reference frames to transport from
  /// The configuration the solve ends in is q_ref + end_scale (y - q_ref) (q_ref = velocity_origin;
  /// y itself when there is none): 1 for implicit Euler and static solves, 1/alpha for the
  /// generalised midpoint. Continuous collision checks (Energy::max_step_fraction) run on it.
  double end_scale = 1.0;
};

class NewtonSystem {
 public:
  /// Builds the pattern and analyses it. Keeps a reference to `model` and to `workspace` (the
  /// workspaces of the model's terms; both must outlive this object); without one, the system
  /// makes its own.
  NewtonSystem(const Model& model, const NewtonOptions& options,
               ModelWorkspace* workspace = nullptr);

  /// Solves f(y) = 0 from the initial guess y (fixed entries already set). On convergence y holds
  /// the solution and kinematics() the kinematics at it; otherwise y is unspecified.
  StepReport solve(const NewtonProblem& problem, VecX& y);

  /// Asks every term to update its stencils for the accepted `state` (Energy/ForceTerm::
  /// update_stencils); if any set changed, rebuilds the pattern, the free pattern, the gather map
  /// and the linear solver (ordering, automatic choice, symbolic analysis) and returns true. Call
  /// between solves only.
  bool update_stencils(const State& state);
  /// How many times the pattern was analysed (1 after construction).
  int pattern_analyses() const { return pattern_analyses_; }

  /// The largest a in [0, 1] such that q + a' dq, a' in [0, a], passes every Energy's continuous
  /// collision check (Energy::max_step_fraction; moving obstacles go from their place at t_start
  /// [s] to that at t_end [s]); 1 when no term checks.
  double collision_free_fraction(const VecX& q, const VecX& dq, double t_start, double t_end);

  /// Kinematics at the last evaluated configuration.
  const Kinematics& kinematics() const { return kin_; }
  Kinematics& kinematics() { return kin_; }
  const std::vector<int>& free_dofs() const { return free_; }
  /// The full pattern (#dofs x #dofs) the terms assemble into.
  const SparseMatrix& pattern() const { return full_.matrix(); }
  /// The solver of the free system; null when no DOF is free.
  const LinearSolver* linear_solver() const { return solver_.get(); }
  /// False if some ForceTerm's Jacobian is not symmetric: the Newton system is then solved by LU
  /// and the line search decreases the residual norm (see Merit).
  bool symmetric() const { return symmetric_; }

  /// Evaluates the residual f(y) and, if requested, the Jacobian J(y) on all DOFs (see residual()
  /// and jacobian()). Returns false if anything is non-finite.
  bool evaluate(const NewtonProblem& problem, const VecX& y, bool jacobian);
  /// f of the last evaluation (#dofs; entries of fixed DOFs are not part of the system).
  const VecX& residual() const { return residual_; }
  /// Sum of the ForceTerms F(y, u(y), t) of the last evaluation, not scaled by lambda (#dofs) [N].
  const VecX& forces() const { return force_; }
  /// J of the last evaluation with a Jacobian (#dofs x #dofs, the full pattern, both triangles
  /// filled: J is assembled in its lower triangle, and the upper entries of non-symmetric
  /// ForceTerms' stencils, and mirrored here).
  const SparseMatrix& jacobian();

 private:
  /// |c_m M (y_0 - y_pred)| over the free DOFs: the inertia of the predicted motion at the initial
  /// guess [N]
  double free_inertial_norm() const;
  /// Builds the full pattern from the terms' stencils, the free pattern, the gather map and the
  /// solver with its symbolic analysis.
  void analyze_pattern();
  /// ||c_m M (y - y_pred)|| + ||lambda (dE_load/dq - F)|| of the last evaluation (free DOFs) [N].
  double force_scale(const NewtonProblem& problem) const;
  /// Gathers the free Jacobian, factorizes (shifting each row by mu times its own diagonal if
  /// needed) and solves for the step d_free_; with `chord`, solves with the factorization already
  /// held. Returns converged on success, else the failure status; `shifted` tells whether a shift
  /// was used; `factorizations` counts the factorizations made.
  StepStatus newton_direction(bool chord, bool& shifted, int& factorizations, std::string& message);
  /// evaluate() on the pool (NewtonOptions::threads > 1), in two rounds: the kinematics at in.q
  /// into kin_, then every term's element values (Energy/ForceTerm::prepare) for the requests in
  /// `internal`, `load` and `forces`; meanwhile the calling thread zeroes the outputs
  /// (clear_outputs), then accumulates the terms (accumulate_terms), each as soon as its element
  /// values are in (docs/physics/time_integration.md, "Threads"). Sets in.prepared.
  void evaluate_in_parallel(const RodFrames& frames, EvalInput& in, EnergyOutput& internal,
                            EnergyOutput& load, ForceOutput& forces, double lambda,
                            bool separate_load_hessian);
  /// Zeroes the gradients, the forces and, if requested, the Jacobian and the separate load
  /// Hessian.
  void clear_outputs(bool jacobian, bool separate_load_hessian);
  /// Every term's accumulate() in the model's order (energies, lambda times the separate load
  /// Hessian, forces); with a pool, within its element round: each term with element values after
  /// its parts.
  void accumulate_terms(const EvalInput& in, EnergyOutput& internal, EnergyOutput& load,
                        ForceOutput& forces, double lambda, bool separate_load_hessian,
                        WorkerPool* pool);
  /// The parts of the two rounds of evaluate_in_parallel (element_parts_, the parts' ends, the
  /// reference twists' parts), from the terms' element counts.
  void split_into_parts();
  /// Copies the free entries of the residual and computes their norm.
  void gather_residual();
  /// Largest finite |J_jk| in free column k (1 if none): the scale of a row whose diagonal is zero
  /// (or not a normal number).
  double column_magnitude(int k) const;
  /// Which quantity of the last evaluation at y is not finite (or overflows in the residual norm),
  /// in words with the node or edge it belongs to.
  std::string describe_non_finite(const VecX& y) const;
  /// ||(|f_i| - phi_i)_+|| over the free DOFs: how far the residual of the last evaluation (at y,
  /// with its Jacobian in full_) lies above its round-off floor phi (see the .cpp) [N].
  /// When the diagonal terms of the floor's sums alone leave an excess of at most `tolerance` [N],
  /// that excess (an upper bound, found without the pass over J).
  /// Positions count at least as least_position [m] (see round_off_magnitude).
  double excess_over_round_off(const VecX& y, double tolerance, double least_position);
  /// y~_j of the round-off floor: max(|y_j|, least_position) [m] for a position, |y_j| + 1 [rad]
  /// for an angle.
  double round_off_magnitude(const DofMap& dofs, const VecX& y, int j, double least_position) const;
  /// Twice the diagonal part of the round-off floor's norm, 2 ||16 eps |J_ii| y~_i|| [N]: a cheap
  /// estimate (a stiffness row's off-diagonal magnitudes sum to about its diagonal) that decides
  /// when excess_over_round_off is worth its pass over J.
  double diagonal_round_off(const VecX& y) const;
  /// True if no free position moves by more than step_tolerance * L and no twist by more than
  /// step_tolerance [rad] under the current Newton step.
  bool step_is_negligible() const;
  /// max_k |c_u step_free_k| over the free DOFs [m/s, rad/s]: the largest velocity change of an
  /// update (StoppingRule::dismech); infinite in a static solve (c_u = 0).
  double largest_velocity_change(const NewtonProblem& problem, const VecX& step_free) const;
  /// The largest fraction of the displacement dy from y (the Newton step, or the chord to a curved
  /// trial) that every Energy's continuous collision check allows (Energy::max_step_fraction on the
  /// end configuration; see NewtonProblem::end_scale).
  double max_step_fraction(const NewtonProblem& problem, const VecX& y, const VecX& dy);
  /// The state of one solve, shared by its steps.
  struct Solve {
    explicit Solve(const NewtonProblem& p) : problem(p) {}
    const NewtonProblem& problem;
    StepReport report;
    bool dismech = false;             ///< StoppingRule::dismech
    double initial_inertia = 0.0;     ///< |c_m M (y_0 - y_pred)| over the free DOFs [N]
    double initial_residual = 0.0;    ///< ||f(y_0)|| [N]
    double tolerance = 0.0;           ///< the residual tolerance at the current iterate [N]
    double residual_norm = 0.0;       ///< ||f|| at the current iterate [N]
    double round_off_estimate = 0.0;  ///< diagonal_round_off at the initial guess [N]
    bool chord = false;  ///< this iteration solves with the factorization of an earlier iterate
  };
  /// What follows an iteration: the next one, the same one again (a fresh Newton step from the
  /// same iterate after a failed chord step), or the end of the solve (report set).
  enum class Next { iterate, retry, stop };
  /// Evaluates the initial guess and sets the tolerance; true if the solve ends there (converged
  /// at the initial guess, or failed).
  bool start_solve(Solve& s, const VecX& y);
  /// The residual tolerance at the current iterate (NewtonOptions::force_tolerance) [N].
  double residual_tolerance(const Solve& s) const;
  /// One Newton iteration from y: direction, negligible-step test, line search, acceptance.
  Next iterate(Solve& s, VecX& y, int iteration);
  /// True if the residual is within its round-off floor up to the tolerance (criterion set).
  bool stops_at_round_off_floor(Solve& s, const VecX& y);
  /// For a negligible Newton step: true (and the solve ends) if the residual is within its
  /// round-off floor, the step then taken whole.
  bool takes_negligible_step(Solve& s, VecX& y);
  /// True if the iteration is likely the last (its trial points need no Jacobian).
  bool likely_last(const Solve& s) const;
  /// Evaluates the Jacobian at the accepted iterate y; false (report set) if it is not finite.
  bool refresh_jacobian(Solve& s, const VecX& y);
  /// After a failed chord step: the Jacobian at y, and the iteration again with a fresh step.
  Next retry_without_chord(Solve& s, const VecX& y);
  /// The report of a line search that found no acceptable trial.
  void fail_line_search(Solve& s, bool any_non_finite);
  /// Takes the accepted trial as the new iterate and tests convergence; jacobian_next: evaluate
  /// the Jacobian at it unless a chord step follows (the trials were evaluated without it).
  Next accept_trial(Solve& s, VecX& y, double alpha, bool jacobian_next, bool chord_may_follow,
                    int iteration);
  /// The line search's merit at y along the Newton step d: phi(0), phi'(0) = f . d, F(y) . d and
  /// lambda.
  struct MeritLine {
    bool potential = true;  ///< incremental potential (else the residual norm)
    double phi0 = 0.0, slope = 0.0, force_along = 0.0, lambda = 1.0;
  };
  enum class TrialStatus { accepted, rejected, non_finite };
  struct Trial {
    TrialStatus status = TrialStatus::rejected;
    double excess = 0.0;  ///< phi(alpha) minus the Armijo bound (J or N^2, as the merit)
  };
  /// Evaluates the trial point at fraction `alpha` of the step (with the Jacobian if `jacobian`)
  /// into trial_: on `curve`'s curve (fitted to the step) when it has groups and its chord passes
  /// the continuous collision checks, else on the line y + alpha d; and tests it against the Armijo
  /// bound (every finite trial is accepted with the line search off).
  Trial try_step(const NewtonProblem& problem, const VecX& y, double alpha,
                 const StiffSegments& curve, const MeritLine& line, bool jacobian);
  /// The line search from y along the Newton step, starting at fraction alpha and shrinking it;
  /// true if a trial was accepted (in trial_, at fraction alpha).
  bool search_line(const NewtonProblem& problem, const VecX& y, double& alpha,
                   const MeritLine& line, bool trial_jacobian, bool& any_non_finite);

  const Model& model_;
  std::unique_ptr<ModelWorkspace> own_workspace_;  ///< when the caller gives none
  ModelWorkspace& workspace_;                      ///< the terms' workspaces
  NewtonOptions options_;
  /// h = L / #nodes: the nodes' mean spacing, the least magnitude of a position in the round-off
  /// floor of a negligible step (takes_negligible_step) [m]
  double node_spacing_ = 1.0;
  double length_scale_ =
      1.0;                 ///< L: diagonal of the rest shape's bounding box [m] (1 m for a point)
  std::vector<int> free_;  ///< free DOF indices, increasing (#free)
  std::vector<int> diagonal_slot_full_;  ///< value index of (i, i) in the full pattern (#dofs)
  std::vector<int> diagonal_slot_free_;  ///< value index of (k, k) in the free pattern (#free)
  std::vector<int> gather_;        ///< value index in the full pattern of each free-pattern entry
  HessianAssembler full_;          ///< J on all DOFs
  HessianAssembler load_hessian_;  ///< load-energy Hessians, when lambda != 1
  SparseMatrix free_matrix_;  ///< J restricted to the free DOFs (gathered only when needed: see
                              ///< solver_reads_full_)
  std::unique_ptr<LinearSolver> solver_;
  /// the solver reads the free matrix's values from full_ through gather_
  /// (LinearSolver::read_through): free_matrix_ is gathered only for the shifted factorizations
  /// after a failed first one
  bool solver_reads_full_ = false;
  StiffSegments stiff_segments_;  ///< near-rigid rod parts the line search turns
  StiffSegments bodies_;  ///< free rod bodies the line search turns when the other trial fails
  bool has_load_energy_ = false;
  int pattern_analyses_ = 0;
  bool symmetric_ = true;  ///< every ForceTerm has a symmetric Jacobian
  Merit merit_ =
      Merit::incremental_potential;  ///< the line search's merit (residual norm if !symmetric_)

  Kinematics kin_;
  std::unique_ptr<WorkerPool>
      pool_;  ///< the evaluation's threads; null with NewtonOptions::threads == 1
  std::vector<std::size_t> energy_elements_,
      force_elements_;  ///< element_count() of each term, counted with the pattern (#terms)
  /// a part of the element round: elements [first, last) of energy or force `term`
  struct ElementPart {
    bool force = false;
    std::size_t term = 0, first = 0, last = 0;
  };
  std::vector<ElementPart>
      element_parts_;  ///< the element round's parts, term after term in the serial order
  std::vector<int> energy_parts_end_,
      force_parts_end_;       ///< one past each term's last part (#terms)
  int kinematics_parts_ = 0;  ///< parts of the kinematics round
  /// per part of the kinematics round, the springs whose reference twist it computes (both edges in
  /// the part)
  std::vector<std::vector<std::size_t>> twists_in_part_;
  std::vector<std::size_t> twists_between_parts_;  ///< the others: computed between the rounds
  VecX floor_;          ///< sum_j |J_ij| y~_j, the round-off floor before eps (#dofs)
  VecX magnitude_;      ///< y~_j (round_off_magnitude) (#dofs)
  VecX u_;              ///< trial velocity (#dofs)
  VecX gradient_;       ///< dE_int/dq (#dofs)
  VecX load_gradient_;  ///< dE_load/dq (#dofs)
  VecX force_;          ///< sum of ForceTerms F (#dofs)
  VecX inertial_;       ///< c_m M (y - y_pred) (#dofs)
  VecX residual_;       ///< f (#dofs)
  VecX residual_free_;  ///< f restricted to the free DOFs (#free)
  VecX step_free_;      ///< d = -J^{-1} f on the free DOFs (#free)
  VecX shift_scale_;  ///< |J_kk| (or the column's largest entry) scaling the diagonal shift (#free)
  VecX step_;         ///< d scattered to all DOFs, zero on fixed ones (#dofs)
  VecX trial_;        ///< y + a d, stiff segments turned (#dofs)
  VecX path_;         ///< trial - y (#dofs)
  VecX force_base_;   ///< F at y, for the work along a curved path (#dofs)
  VecX end_, end_step_;  ///< end configuration and its change along d, when end_scale != 1 (#dofs)
  double residual_norm_ = 0.0;  ///< ||f_free||_2 of the last evaluation [N]
  double energy_int_ = 0.0, energy_load_ = 0.0, merit_base_ = 0.0;
};

}  // namespace tendril
