#pragma once
/// Implicit time stepping of M q'' = F(q, u, t) (mat_dismech eq. 3-7, Algorithm 1).
///
/// Implicit Euler (step h = dt, unknown y = q_{k+1}):
///   M (y - q_k - dt u_k) / dt^2 = F(y, (y - q_k)/dt, t_{k+1}),   u_{k+1} = (y - q_k)/dt.
/// Implicit midpoint (unknown y = q_mid = (q_k + q_{k+1})/2, h = dt/2): the same equation with h,
///   M (y - q_k - h u_k) / h^2 = F(y, (y - q_k)/h, t_k + h),
///   q_{k+1} = 2 y - q_k,   u_{k+1} = 2 (y - q_k)/h - u_k,
/// i.e. forces at the midpoint configuration and velocity (no numerical damping). With
/// DynamicsOptions::midpoint_alpha = alpha > 1/2 (generalised midpoint rule) y = q_alpha, h = alpha
/// dt,
///   q_{k+1} = q_k + (y - q_k)/alpha,   u_{k+1} = ((y - q_k)/h - (1 - alpha) u_k)/alpha.
/// Model::actuators are applied at the time of the Newton solve (t_k + h) to the stepper's own copy
/// of the rod data, so a rest quantity scheduled in time acts at the intermediate time of implicit
/// midpoint. Fixed DOFs are eliminated; prescribed motions set them at t_{k+1} before each step and
/// their velocities follow as (q_{k+1} - q_k)/dt. A failed (sub)step is split into two halves, up
/// to DynamicsOptions::max_dt_halvings deep; if that still fails the State is left unchanged. See
/// docs/physics/time_integration.md.

#include <memory>
#include <vector>

#include "tendril/core/model.hpp"
#include "tendril/core/state.hpp"
#include "tendril/integrate/newton_system.hpp"
#include "tendril/integrate/options.hpp"
#include "tendril/integrate/step_report.hpp"

namespace tendril {

/// One converged substep of a step (TimeStepper::record_substeps).
struct Substep {
  State end;        ///< the state after it
  double dt = 0.0;  ///< its size [s]
};

class TimeStepper {
 public:
  /// Validates `options` (InputError naming the field) and builds the sparsity pattern and the
  /// solver's symbolic analysis once. q_initial: all DOFs at t = 0, passed to prescribed motions.
  /// Keeps a reference to `model`: rest quantities (natural curvature, ...) may change between
  /// steps, the topology, masses and boundary conditions may not. `workspace`: the workspaces of
  /// the model's terms for this simulation (kept by reference), or null for the stepper's own.
  TimeStepper(const Model& model, const DynamicsOptions& options, VecX q_initial,
              ModelWorkspace* workspace = nullptr);

  /// Advances `state` by DynamicsOptions::dt. On failure `state` is unchanged and the report says
  /// why.
  StepReport step(State& state);

  /// Appends every converged substep of the following steps to `substeps` (null: records none), in
  /// order: one per step unless its dt was halved (the steps actually taken, for their adjoint).
  void record_substeps(std::vector<Substep>* substeps) { substeps_ = substeps; }

  /// Changes dt for the following steps (> 0 and finite, else InputError "dt").
  void set_dt(double dt);
  const NewtonSystem& system() const { return system_; }
  /// After a successful implicit Euler step: the sum of the ForceTerms at the new state (q, u, t),
  /// as the Newton solve's last evaluation left it (at its final iterate y = q_{k+1} with u = (y -
  /// q_k)/dt) [N]; null after implicit midpoint (whose forces act at the intermediate point) or a
  /// failed step.
  const VecX* end_forces() const { return end_forces_ ? &system_.forces() : nullptr; }
  /// After a successful step: the kinematics at the new q, transported from the step's start frames
  /// (the new State::frames are taken from them).
  const Kinematics& end_kinematics() const { return system_.kinematics(); }

 private:
  /// One attempt of a step of size dt from `s`; updates `s` only on convergence.
  StepReport substep(State& s, double dt);
  /// The free DOFs' share of the inertial guess (0 to `fraction`, found by the continuous collision
  /// check of q_k + a dq at fixed time) such that the path from q_k at t_k to the guess at t_next
  /// is collision-free with the prescribed motions and moving obstacles; -1 if not even 0 is.
  double first_leg_fraction(const State& s, double fraction, double t_next);
  /// Covers dt with substeps, halving a failed one up to the depth limit.
  bool advance(State& s, double dt, int depth, StepReport& report);

  const Model& model_;
  /// copy of model_ whose rod data carries the actuators' values at the solve time (null without
  /// actuators)
  std::unique_ptr<Model> actuated_;
  DynamicsOptions options_;
  VecX q_initial_;
  NewtonSystem system_;
  State work_;       ///< the state being advanced (copied back on success)
  VecX y_;           ///< Newton unknown (#dofs)
  VecX target_;      ///< q with prescribed DOFs at t_{k+1} (#dofs)
  VecX predicted_;   ///< y_pred = q_k + h u_k (#dofs)
  VecX guess_step_;  ///< q_{k+1} - q_k under the initial guess, for the collision check (#dofs)
  bool end_forces_ = false;  ///< the last step succeeded with implicit Euler (end_forces())
  std::vector<Substep>* substeps_ = nullptr;  ///< where converged substeps are recorded
};

}  // namespace tendril
