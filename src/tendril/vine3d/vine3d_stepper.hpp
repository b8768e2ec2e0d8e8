#pragma once
/// One time step of the 3D vine: the QP of the vine paper's eq. 15 with spatial bodies, solved to
/// a KKT residual of 1e-10 by tendril_qp (docs/physics/vine3d.md#the-step).
///
///   minimise_V  1/2 V^T M_k V - V^T (M_k V_k + Delta t F(q_k, V_k))
///   subject to  J V = -c(q_k) / Delta t     (bending, prismatic and twist rows, eq. 12)
///               G_bar(q_k, V_k) V = u_k     (growth, eq. 14; one row per prismatic joint)
///               L V >= -Phi(q_k) / Delta t  (contact, eq. 13; with friction the pyramid's edges)
///   then p_{k+1} = p_k + Delta t v_{k+1},  r_{k+1} = exp(Delta t omega_{k+1}) r_k  (eq. 10)
///
/// with V = (v_i, omega_i) per body (world frame), M_k = diag(m_i I, I_w,i(q_k)) (eversion: the
/// quadratic term holds the tip body's mass after the step, Vine3dModel::everted_density) and F the
/// springs, dampers, gravity and the gyroscopic torque -omega x I_w omega at V_k (bending_joints).
/// As in the planar stepper (vine/vine_stepper.hpp) the objective is divided by the mean body
/// mass m_ref. Contact: every body is a capsule of the contact radius; per (body, obstacle) pair
/// the rows hold the axis point closest to the obstacle and the body's two ends out of it, with
/// Coulomb friction as a four-sided pyramid once in contact; only the pairs within reach of contact
/// get rows (docs/physics/vine3d.md#contact).

#include <vector>

#include "tendril/qp/qp_solver.hpp"
#include "tendril/vine3d/joint_rows.hpp"
#include "tendril/vine3d/obstacle_grid.hpp"
#include "tendril/vine3d/vine3d_model.hpp"

namespace tendril::vine3d {

/// A physical failure of a step whose QP solved (the state is then not advanced).
enum class Vine3dFailure {
  none,
  joint_drift,  ///< a joint position error at the step's start > Vine3dModel::max_joint_error
};

/// Outcome of one step. The state is advanced only if ok().
struct Vine3dStepReport {
  qp::QpStatus status = qp::QpStatus::numerical_failure;
  Vine3dFailure failure = Vine3dFailure::none;
  int qp_iterations = 0;
  double kkt_residual = 0.0;    ///< scaled KKT residual of the QP solution [-]
  double joint_error = 0.0;     ///< largest position-row |c(q_k)| (bending, lateral) [m]
  double growth_rate = 0.0;     ///< achieved total growth rate sum_j G_bar_j V_{k+1} [m/s]
  double kinetic_energy = 0.0;  ///< 1/2 V_{k+1}^T M_k V_{k+1} [J]
  /// min Phi(q_k) over the (body, obstacle) pairs near contact [m] (+inf if none)
  double min_distance = 0.0;
  int active_contacts = 0;  ///< contact rows with a positive normal impulse
  bool ok() const { return status == qp::QpStatus::solved && failure == Vine3dFailure::none; }
};

/// A (body, obstacle) pair near contact: it has contact rows in a step.
struct ContactPair {
  int body = 0, obstacle = 0;
  bool operator==(const ContactPair& other) const {
    return body == other.body && obstacle == other.obstacle;
  }
  /// (body, obstacle) order, the order of a step's pairs
  bool operator<(const ContactPair& other) const {
    return body < other.body || (body == other.body && obstacle < other.obstacle);
  }
};

/// What a step takes from the last one besides the state: the (body, obstacle) pairs of its
/// contact rows, in body then obstacle order, and the QP active set on those rows (flags as
/// qp::QpSolver::warm_start; empty: the next step starts cold). Saved with every frame of a run,
/// so a restart continues exactly.
struct Vine3dWarmStart {
  std::vector<ContactPair> pairs;
  std::vector<char> active;
};

class Vine3dStepper {
 public:
  /// Validates the model (throws InputError) and builds the QP pattern.
  explicit Vine3dStepper(Vine3dModel model, qp::QpOptions options = {});

  const Vine3dModel& model() const { return model_; }
  /// m_ref: the mean body mass the QP's objective is divided by [kg]
  double mass_scale() const { return mass_scale_; }

  /// Advances `state` by Delta t with the growth rate u(t) of the model's schedule.
  Vine3dStepReport step(Vine3dState& state);
  /// Advances `state` by Delta t with per-prismatic-joint growth rates u_j [m/s] (#prismatic).
  Vine3dStepReport step(Vine3dState& state, const VecX& joint_rates);

  /// u_j of the model's schedule at time t, split by the growth mode [m/s] (#prismatic).
  VecX joint_growth_rates(double time) const;

  /// The equality rows (joints base to tip, then growth).
  const std::vector<JointRow>& rows() const { return rows_; }
  /// c(q) of every joint row at `state` [m, rad] (the rows before the growth rows).
  VecX joint_errors(const Vine3dState& state) const;
  /// Impulses of the equality rows of the last step, in the order of rows() [N s]: the momentum
  /// the row gives body b is its coefficients on V_b times the impulse (rows are dimensionless on
  /// the translations), M_{k+1} V_{k+1} = M_k V_k + Delta t F + A_eq^T impulses + A_in^T ... .
  VecX equality_impulses() const { return mass_scale_ * solution_.y_eq; }
  /// The state and joint growth rates the last step started from.
  const Vine3dState& last_start() const { return start_; }
  const VecX& last_joint_rates() const { return start_rates_; }
  /// A pair with rows this step (equal to another of the same body and obstacle).
  struct Pair : ContactPair {
    double offset = 0.0;  ///< s of the body's axis point nearest the obstacle at q_k [m]
  };
  /// The pairs of the last step's contact rows: pair p holds rows_per_point() rows for each of
  /// its three points (closest point, proximal end, distal end) from row 3 p rows_per_point().
  const std::vector<Pair>& contact_pairs() const { return pairs_; }
  /// What the next step takes from the last one besides the state: the last step's pairs and the
  /// QP active set on their rows. When a step's pairs differ from the last ones, its QP starts from
  /// the flags of the rows of the pairs that stay (matched by body and obstacle; new pairs'
  /// rows inactive), docs/physics/vine3d.md#warm-starts-across-contact-changes.
  Vine3dWarmStart warm_start() const;
  /// Makes the next step start as it would have after the step that left `warm_start`. Throws
  /// InputError naming "warm_start" for pairs out of range or out of order, or flags of another
  /// count than the pairs' rows.
  void set_warm_start(const Vine3dWarmStart& warm_start);
  /// Most inequality rows a step can have: per (body, obstacle) pair three contact points of
  /// rows_per_point() rows.
  int max_inequality_rows() const;
  /// Inequality rows per contact point: 4 with friction (the pyramid's edges), else 1.
  int rows_per_point() const;

  /// The QP of the last step (scaled by 1 / m_ref) and its solution.
  const qp::QpProblem& last_problem() const { return problem_; }
  const qp::QpSolution& last_solution() const { return solution_; }

 private:
  /// Throws InputError naming "state" if its sizes or values are invalid.
  void check_state(const Vine3dState& state, const VecX& joint_rates) const;
  /// The pattern of P: each body's 6 x 6 mass block, with implicit springs the rotation blocks
  /// coupling the two bodies of each bending joint.
  void build_objective_pattern();
  /// Implicit springs: adds (Delta t^2 K_j + Delta t C_j) B_j^T B_j / m_ref to P, with the B_j
  /// (rate_maps_) applied_forces computed at q_k (bending_joints).
  void add_implicit_springs();
  /// P = M_{k+1} / m_ref and c = -(M_k V_k + Delta t F) / m_ref (M_{k+1} = M_k but for the tip
  /// body's everted mass, lambda Delta t sum_j u_j more;
  /// docs/physics/vine3d.md#growth-by-eversion).
  void fill_objective(const Vine3dState& state, const VecX& joint_rates);
  /// A_eq and b_eq at q_k, V_k; returns the largest position-row |c(q_k)| [m].
  double fill_rows(const Vine3dState& state, const VecX& joint_rates);
  RowBodies row_bodies(const JointRow& row, const Vine3dState& state) const;
  /// sum_j G_bar_j V of the current growth rows [m/s]
  double growth_rate(const VecX& velocity) const;
  /// 1/2 V^T M_k V with M_k = diag(m_i I, I_w,i) of the step's start (not P: with implicit springs
  /// P holds their stiffness and damping too, with eversion the tip's mass after the step) [J]
  double kinetic_energy(const VecX& velocity) const;
  /// The pattern of A_in: per pair three contact points (closest point, proximal end, distal end)
  /// of rows_per_point() rows each, on the body's 6 velocities.
  void build_contact_pattern();
  /// Broad phase at q_k (the obstacle grid's candidates near each body, then their distance): the
  /// pairs with Phi(q_k) within their body's reach; rebuilds the pattern
  /// if the rows' bodies changed and carries the active set over if the pairs changed
  /// (carry_warm_start). Returns min Phi(q_k) over every pair [m] (+inf if none near).
  double select_pairs(const Vine3dState& state);
  /// Starts the next solve from the solver's active set on the rows of `previous` mapped onto the
  /// rows of pairs_: a pair's rows keep their flags if it is in both, else start inactive.
  void carry_warm_start(const std::vector<Pair>& previous);
  /// The largest displacement of a point of the body over one step at `velocity` [m].
  double body_motion(const VecX& velocity, int body) const;
  /// A_in and b_in of the selected pairs at q_k.
  void fill_contact_rows(const Vine3dState& state);
  /// Steering: the rest bends of the model's schedules at `time` (InputError if not finite).
  void steer(double time);
  /// The rows of the contact point `point` = p + arm of a body with an obstacle, from `first_row`.
  void set_contact_point_rows(int first_row, const Obstacle3& obstacle, const Vec3& point,
                              const Vec3& arm);
  /// Row `row` of A_in: direction . (v + omega x arm) >= rhs.
  void set_contact_row(int row, const Vec3& direction, const Vec3& arm, double rhs);

  Vine3dModel model_;
  qp::QpSolver solver_;
  qp::QpProblem problem_;
  qp::QpSolution solution_;
  std::vector<JointRow> rows_;
  std::vector<int> row_slots_;   // value index of each local entry of A_eq, -1 if none (12 #rows)
  ObstacleGrid3 grid_;           // broad phase over the obstacles' boxes
  std::vector<int> candidates_;  // the grid's obstacles near one body
  std::vector<Pair> pairs_;      // pairs with rows this step
  VecX reach_;                   // per body: pairs with Phi below it get rows [m]
  std::vector<int> contact_slots_;  // value index of each row's 6 entries of A_in (6 #rows)
  std::vector<int> next_slot_;      // build_contact_pattern(): next free slot of each column (n)
  std::vector<int> spring_slots_;   // value index of each bending joint's 4 rotation blocks of P
  std::vector<int> mass_slots_;  // value index of each body's 6 x 6 block entries of P (36 #bodies)
  double mass_scale_ = 1.0;      // m_ref [kg]
  Vine3dState start_;            // the last step's start
  VecX start_rates_;             // and its joint growth rates
  VecX force_;                   // F(q_k, V_k) (6 #bodies)
  VecX start_mass_;              // m_i at the step's start [kg] (#bodies)
  std::vector<Mat3> start_inertia_;  // I_w,i at the step's start [kg m^2] (#bodies)
  VecX rates_;                       // u_j buffer of step(state) (#prismatic)
  std::vector<Eigen::Matrix<double, 2, 3>> rate_maps_;  // B_j at q_k (#bending)
  std::vector<Pair> previous_pairs_;  // select_pairs(): the pairs of the last solve
  std::vector<Mat3> rotation_;        // R_i at the step's start (#bodies), fill_rows
  Mat3 base_rotation_;                // R of the base frame
};

}  // namespace tendril::vine3d
