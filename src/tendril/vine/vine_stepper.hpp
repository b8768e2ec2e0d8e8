#pragma once
/// One time step of the vine robot: the QP of eq. 15 (vine paper, section II-H), solved to a KKT
/// residual of 1e-10 by tendril_qp. Derivations: docs/physics/vine.md.
///
///   minimise_v  1/2 v^T M v - v^T (M v_k + Delta t F(q_k, v_k))
///   (implicit springs: M + dt^2 R K_t R^T + dt R C R^T and F without dampers, K_t the pin law's
///   tangent at q_k; docs/physics/vine.md)
///   subject to  J v = -c(q_k) / Delta t                       (joints, eq. 12)
///               G_bar(q_k, v_k) v = u_k                      (growth, eq. 14; one row per
///               prismatic joint) L v >= -Phi(q_k) / Delta t                   (contact, eq. 13;
///               with friction: (L +- mu T) v)
///   then q_{k+1} = q_k + Delta t v_{k+1}                      (semi-implicit Euler, eq. 10)
///
/// The rows are the paper's divided by Delta t (velocity units) and the objective is divided by
/// the mean body mass m_ref, which leaves the solution unchanged and makes the solver's absolute
/// 1e-10 tolerance meaningful in SI units. The joint and growth patterns are built once in the
/// constructor; the contact rows are those of the pairs near contact at q_k (broad phase, body
/// capsules or contact points; docs/physics/vine.md#which-pairs-get-rows-broad-phase-reach), and
/// the pattern of A_in (with the KKT symbolic analysis) is rebuilt only when the rows' bodies
/// change. With GrowthControl::force_limited the growth rows are inequalities 0 <= G_bar v <= u_k
/// and the actuator force F enters the objective (docs/physics/vine.md#jams-force-limited-growth).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tendril/core/sparse_assembly.hpp"
#include "tendril/qp/qp_solver.hpp"
#include "tendril/vine/broad_phase.hpp"
#include "tendril/vine/constraint_rows.hpp"
#include "tendril/vine/vine_model.hpp"

namespace tendril::vine {

// the step's QP (src/tendril/qp) as the vine's interface names it: the report's status, the
// stepper's options and its last problem and solution
using qp::QpOptions;
using qp::QpProblem;
using qp::QpSolution;
using qp::QpSolver;
using qp::QpStatus;
using qp::to_string;

/// A physical failure of a step whose QP solved (the state is then not advanced).
enum class VineFailure {
  none,
  joint_drift,    ///< |c(q_k)|_inf > VineModel::max_joint_error
  energy_blowup,  ///< kinetic energy of v_{k+1} > 1/2 (sum m_i) VineModel::max_speed^2
};

/// Lower-case name of a failure ("none", "joint drift", "energy blow-up").
const char* to_string(VineFailure failure);

/// Outcome of one step. The state is advanced only if ok().
struct VineStepReport {
  QpStatus status = QpStatus::numerical_failure;
  VineFailure failure = VineFailure::none;
  int qp_iterations = 0;
  int qp_solves = 0;  ///< QPs solved (more than 1 if a contact pair outside the rows was reached)
  double kkt_residual = 0.0;  ///< scaled KKT residual of the QP solution [-]
  double joint_error = 0.0;   ///< |c(q_k)|_inf of the state the step started from [m]
  double min_distance =
      0.0;  ///< min Phi(q_k) over the contact pairs near enough for rows [m] (+inf if none)
  int active_contacts = 0;      ///< contact pairs with a positive normal impulse
  int contact_pairs = 0;        ///< contact pairs with rows in the QP (active or about to be)
  double growth_rate = 0.0;     ///< achieved total growth rate sum_j G_bar_j v_{k+1} [m/s]
  double kinetic_energy = 0.0;  ///< 1/2 v_{k+1}^T M v_{k+1} [J]
  /// Why the step ends a run, in words (set by VineRun, which also refuses a non-finite state or
  /// impulse); empty: it does not.
  std::string message;
  bool ok() const { return status == QpStatus::solved && failure == VineFailure::none; }
};

/// One (contact element, obstacle) pair with rows at the last step (elements: bodies with
/// ContactModel::body, contact points with ContactModel::point).
struct ContactInfo {
  int point = 0;          ///< contact element: body index or index into VineModel::contact_points
  int obstacle = 0;       ///< index into VineModel::obstacles
  double offset = 0.0;    ///< s of the contact point along its body [m]
  bool friction = false;  ///< the pair had friction rows (it was in contact)
  double distance = 0.0;  ///< Phi(q_k) [m]
  double normal_impulse = 0.0;   ///< n >= 0 [N s]
  double tangent_impulse = 0.0;  ///< friction impulse along t = (-n_y, n_x) [N s], |.| <= mu n
};

/// A contact point held on an obstacle by an equality row L v = -Phi(q_k) / Delta t instead of the
/// inequality of eq. 13 (VineStepper::set_bilateral_contacts): its normal impulse may be negative.
struct BilateralContact {
  int point = 0;     ///< index into VineModel::contact_points (ContactModel::point)
  int obstacle = 0;  ///< index into VineModel::obstacles
};

/// The solver state a step carries into the next: the QP's active set at the end of the step and
/// the key of its inequality rows' pattern (the next step starts from that active set only if its
/// rows have the same pattern). Saved with every frame of a run, so a restart continues exactly.
struct VineWarmStart {
  std::uint64_t rows_key = 0;  ///< FNV-1a hash of the inequality rows' bodies
  std::vector<char> active;    ///< one flag per inequality row (empty: the next step starts cold)
};

/// FNV-1a hash of the inequality rows' bodies: the key of an A_in pattern (VineWarmStart).
std::uint64_t rows_key(const std::vector<int>& row_bodies);

class VineStepper {
 public:
  /// Validates the model (throws InputError) and builds the QP pattern.
  explicit VineStepper(VineModel model, QpOptions options = {});

  const VineModel& model() const { return model_; }

  /// Advances `state` by Delta t with the growth rate u(t) of the model's schedule (and the rest
  /// angles of its steering schedule at t, which model() then holds).
  VineStepReport step(VineState& state);
  /// Advances `state` by Delta t with per-prismatic-joint growth rates u_j [m/s] (#prismatic).
  VineStepReport step(VineState& state, const VecX& joint_rates);

  /// u_j of the model's schedule at time t, split by the growth mode [m/s] (#prismatic).
  VecX joint_growth_rates(double time) const;

  /// What the next step takes from the last one besides (q, v, t) (docs/output_format.md,
  /// qp_warm_start): set_warm_start's until a step has taken it.
  VineWarmStart warm_start() const;
  /// Makes the next step start as it would have after the step that left `warm_start`.
  void set_warm_start(VineWarmStart warm_start);
  /// Most inequality rows a step can have: growth rows, then per (contact element, obstacle) pair
  /// up to three contact points (closest point and the body's ends) of two rows each (friction).
  int max_inequality_rows() const;

  /// Holds these contact points on their obstacles in the following steps: each gets an equality
  /// row (between the joint and the growth rows) and no inequality row, so the step map has no
  /// contact switch there (the joint estimation's known contacts, fit/vine_joint_estimation.hpp).
  /// Not a simulation model: the impulse may pull. Throws InputError without ContactModel::point or
  /// for an index out of range; an empty list restores eq. 13.
  void set_bilateral_contacts(std::vector<BilateralContact> contacts);
  /// Normal impulses of the bilateral contacts at the last step, in their order [N s] (< 0:
  /// pulling).
  VecX bilateral_impulses() const;
  int num_bilateral_contacts() const { return static_cast<int>(bilateral_.size()); }

  // internals of the last step (evaluated at q_k, v_k of that step)
  /// J = dc/dq (2 #bodies x 3 #bodies); rows: two per joint, joints base to tip.
  SparseMatrix joint_jacobian() const;
  /// G_bar (eq. 14) (#prismatic x 3 #bodies).
  SparseMatrix growth_jacobian() const;
  /// The inequality rows of the last step (#inequality rows x 3 #bodies): with
  /// GrowthControl::force_limited first -G_bar (rate caps), then G_bar (no retraction), one each
  /// per prismatic joint, then L = dPhi/dq of the pairs near contact; a pair in contact with
  /// friction has the two rows (n +- mu t) . dp/dq instead of n . dp/dq.
  const SparseMatrix& contact_jacobian() const { return problem_.A_in; }
  /// c(q_k) joint constraint errors of the last step's start [m] (2 #bodies).
  VecX joint_errors() const;
  /// c(q) (eq. 2, 3) at any configuration [m] (2 #bodies).
  VecX joint_errors_at(const VecX& q) const;
  /// Phi(q) of every (contact element, obstacle) pair, element-major, at any configuration [m]
  /// (#elements #obstacles): with body contact each body's closest point at q.
  VecX contact_distances_at(const VecX& q) const;
  /// The pairs with rows at the last step, with their distances and impulses.
  std::vector<ContactInfo> contacts() const;
  /// Joint impulses lambda (2 #bodies) and growth impulses w (#prismatic) of eq. 9 [N s]
  /// (the rows of J and G_bar are dimensionless on translations, so M dv = J^T lambda + G_bar^T w +
  /// ...).
  VecX joint_impulses() const;
  VecX growth_impulses() const;
  /// The QP of the last step (scaled as described above) and its solution.
  const QpProblem& last_problem() const { return problem_; }
  const QpSolution& last_solution() const { return solution_; }
  /// q_k, v_k and u_k the last step started from.
  const VecX& last_q() const { return q_k_; }
  const VecX& last_v() const { return v_k_; }
  const VecX& last_joint_rates() const { return u_k_; }
  /// m_ref: the objective scale [kg].
  double mass_scale() const { return mass_scale_; }
  /// Row descriptions: equality rows (joints, bilateral contacts, then growth with
  /// GrowthControl::rate), inequality rows (growth caps with GrowthControl::force_limited, then
  /// contacts).
  const std::vector<RowSpec>& equality_rows() const { return eq_rows_; }
  const std::vector<RowSpec>& inequality_rows() const { return in_rows_; }
  /// Context of the rows (dt, radius, friction, base); obstacle set per row.
  RowContext row_context(const RowSpec& row) const;
  /// Local (q, v) of a row's bodies (6 each, zeros for the world).
  void gather_local(const RowSpec& row, const VecX& q, const VecX& v, VecN<6>& q_local,
                    VecN<6>& v_local) const;

 private:
  /// A contact element near an obstacle: its pair, the point's offset and distance at q_k.
  struct Pair {
    int element = 0, obstacle = 0;
    double offset = 0.0, phi = 0.0;
    bool friction = false;
    int first_row = 0, num_rows = 1;
  };
  void build_pattern();
  /// P = (M + implicit springs' dt^2 R K_t(q_k) R^T + dt R C R^T) / m_ref (docs/physics/vine.md).
  void assemble_objective_matrix();
  /// Appends a contact point (element, obstacle, offset s [m], Phi(q_k) [m]) and its rows.
  void add_pair(int element, int obstacle, double offset, double phi);
  /// Broad and narrow phase at q_k: pairs_ within `reach_` of contact, their rows and the A_in
  /// pattern.
  void collect_contact_rows();
  /// Force-limited growth: negates the growth rows into caps -G_bar v >= -u_j and adds the actuator
  /// force F along G_bar_j to the objective (if `add_force`; once per step).
  void add_growth_actuator(const VecX& joint_rates, bool add_force);
  /// The largest displacement of any point of a contact element's body over one step at velocity v
  /// [m].
  double element_reach(const VecX& v, int element) const;
  /// u_j of the schedule at `time`, split by the growth mode, into `rates` (#prismatic).
  void fill_growth_rates(double time, VecX& rates) const;
  void fill_rows(const std::vector<RowSpec>& rows, const std::vector<int>& slots, SparseMatrix& a,
                 VecX& rhs, bool contact);

  VineModel model_;
  QpSolver solver_;
  QpProblem problem_;
  QpSolution solution_;
  std::vector<BilateralContact> bilateral_;  // contacts held by equality rows
  std::vector<RowSpec> eq_rows_, in_rows_;
  std::vector<int> eq_slots_, in_slots_;  // value index of each local entry, -1 if unused (6 #rows)
  int num_growth_caps_ =
      0;  // leading growth caps -G_bar v >= -u of in_rows_ (force-limited growth)
  int num_growth_rows_ = 0;  // caps and floors G_bar v >= 0 (no retraction) before the contact rows
  ObstacleGrid grid_;        // broad phase over the obstacles
  std::vector<Pair> pairs_;  // pairs with rows this step
  std::vector<double> reach_;    // per element: pairs with Phi below it get rows [m]
  std::vector<int> found_;       // broad-phase query buffer
  std::vector<int> row_bodies_;  // body of each inequality row (A_in pattern key)
  std::optional<VineWarmStart>
      restored_;                     // set_warm_start: used by the next step if its rows match
  VecX achieved_;                    // G_bar_j v_{k+1} (#prismatic)
  double max_kinetic_energy_ = 0.0;  // 1/2 (sum m) v_max^2 [J]
  VecX mass_diag_;                   // M diagonal [kg, kg, kg m^2] (3 #bodies)
  double mass_scale_ = 1.0;
  VecX force_;                  // F(q_k, v_k) (3 #bodies)
  VecX q_k_, v_k_, u_k_, phi_;  // last step's start, rates, contact row distances
  VecX rates_;                  // u_j buffer of step(state) (#prismatic)
  VecX zero_v_;                 // zero velocities (3 #bodies)
};

}  // namespace tendril::vine
