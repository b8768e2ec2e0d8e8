#pragma once
/// Static equilibrium: minimise E_int(q) + E_load(q) - W(q) over the free DOFs, i.e. solve
///   dE_int/dq + lambda (dE_load/dq - F(q, 0, t)) = 0   at lambda = 1,
/// with Newton and a line search (NewtonSystem with no inertia). The full problem is tried first;
/// when it does not converge the solver follows a homotopy in lambda from 0 to 1 that carries
/// everything that makes the start configuration q_s (state.q on entry) differ from equilibrium:
/// - the loads (external-load energies such as gravity, and every ForceTerm) scaled by lambda;
/// - the rest state of every energy that has one (Energy::rest_state_size: rest lengths, natural
///   curvature and twist of the rod springs) goes linearly from the values at which q_s is
///   stress-free (Energy::stress_free_rest_state, measured at q_s with state.frames) to the
///   Model's values, with Model::actuators applied at the path's time (below), so at lambda = 1
///   the rest state is the actuated one at state.time;
/// - the prescribed DOFs follow their motions in time from the last solved time (0 at first) to
///   state.time, so a rotating clamp turns rigidly instead of cutting across; an offset of q_s
///   from the motion at the last solved time fades out linearly.
/// At lambda = 0, q_s is therefore an equilibrium of the rod terms. The increments are halved
/// whenever a stage fails, down to 1 / StaticOptions::max_load_steps, and doubled after a stage
/// that converged in at most a quarter of the allowed Newton iterations.
/// The caller's Model is never changed: the solver owns a copy (path model) whose rest quantities
/// it sets per stage, and builds its NewtonSystem on it. The copy's rod data (stiffnesses, rest
/// shape) is refreshed from the caller's Model on every solve, so actuation between solves is seen.
/// A part with a free rigid-body translation (no fixed DOF along an axis, translation-invariant
/// energies) pushed by an unbalanced load has no equilibrium: reported as singular_system.
/// See docs/physics/time_integration.md, "Static solve".

#include <span>
#include <string>
#include <vector>

#include "tendril/core/model.hpp"
#include "tendril/core/state.hpp"
#include "tendril/integrate/newton_system.hpp"
#include "tendril/integrate/options.hpp"
#include "tendril/integrate/step_report.hpp"

namespace tendril {

struct StaticReport : StepReport {
  int load_stages = 0;       ///< converged homotopy increments
  double load_factor = 0.0;  ///< largest lambda reached (1 on success)
};

class StaticSolver {
 public:
  /// Validates `options` and builds the pattern and symbolic analysis once (see TimeStepper).
  /// Keeps a reference to `model`: its rest quantities may change between solves, its topology,
  /// terms and boundary conditions may not. `workspace`: as for TimeStepper.
  StaticSolver(const Model& model, const StaticOptions& options, VecX q_initial,
               ModelWorkspace* workspace = nullptr);

  /// Moves `state` to equilibrium at state.time (u set to zero). On failure `state` is unchanged.
  StaticReport solve(State& state);

  /// Translations of connected parts that no fixed DOF restrains (candidate rigid-body modes,
  /// #modes vectors of #dofs); a candidate is a true null mode only if the energies are
  /// translation invariant, which solve() checks numerically.
  const std::vector<VecX>& candidate_translations() const { return translations_; }

 private:
  /// Records the stress-free rest state of q_s = state.q (frames state.frames) and the targets.
  void start_path(const State& state);
  /// Sets the path model's rest state and the prescribed entries of y at homotopy parameter lambda.
  void set_path_point(double lambda, VecX& y);
  /// The part of a rest-state vector (start_rest_, path_rest_) of model_.energies[energy].
  std::span<double> rest_part(std::vector<double>& values, std::size_t energy) const;
  /// Why the problem at `problem` is singular (a free translation the loads push along), or "".
  std::string unbalanced_rigid_mode(const NewtonProblem& problem);

  const Model& model_;
  Model path_model_;  ///< copy of model_ with the rest shape at the current lambda (before system_)
  Model target_model_;  ///< copy of model_ with the actuators at the path's time (if it has any)
  StaticOptions options_;
  VecX q_initial_;
  NewtonSystem system_;
  std::vector<VecX> translations_;
  std::vector<std::string> translation_names_;  ///< "node i, along x" (#modes)
  std::vector<int> prescribed_dofs_;            ///< DOFs driven by Model::prescribed (#driven)
  VecX y_, stage_start_;
  RodFrames frames_;
  /// the energies' rest states (Energy::rest_state_size) one after the other: where each starts,
  /// and the end (#energies + 1)
  std::vector<std::size_t> rest_offset_;
  std::vector<double> start_rest_;  ///< the rest state at which q_s is stress-free
  std::vector<double> path_rest_;   ///< the rest state at the current lambda
  VecX start_q_;                    ///< q_s (#dofs)
  VecX start_offset_;               ///< q_s minus the prescribed motions at last_time_ (#dofs)
  VecX motion_q_;                   ///< scratch: q with the prescribed motions applied (#dofs)
  double last_time_ = 0.0;          ///< time of the last successful solve [s] (0: q_initial)
  double path_end_time_ = 0.0;      ///< state.time of the current solve [s]
};

}  // namespace tendril
