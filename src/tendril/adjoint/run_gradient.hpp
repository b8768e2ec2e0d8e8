#pragma once
/// The value and gradient of a run's objective with respect to parameters and the initial state:
/// the forward run (implicit Euler or midpoint steps, optionally after a static solve), then the
/// discrete adjoint backwards over the steps actually taken (docs/physics/gradients.md). Memory is
/// bounded by checkpointing: every m-th state is stored and the states between are recomputed,
/// bitwise as in the forward run, during the backward pass.

#include <optional>
#include <string>
#include <vector>

#include "tendril/adjoint/objective.hpp"
#include "tendril/adjoint/parameter.hpp"
#include "tendril/core/model.hpp"
#include "tendril/core/state.hpp"
#include "tendril/integrate/options.hpp"

namespace tendril::adjoint {

struct GradientOptions {
  /// m: every m-th state of the forward run is stored (>= 1; InputError "checkpoint_interval");
  /// the backward pass recomputes the others, one interval at a time, so about steps / m + m
  /// states are held at once.
  int checkpoint_interval = 1;
  /// When set, the run starts with a static solve from the initial state (StaticSolver with these
  /// options at initial.time): state 0 of the run is the equilibrium (u = 0), and the dynamic
  /// steps, if any, start there.
  std::optional<StaticOptions> static_start;
  /// When set, the run is quasi-static (as scenes with integrator.type: static run): step k is a
  /// static solve (StaticSolver with these options) at t_k = initial.time + k dt (dt:
  /// DynamicsOptions::dt) from the equilibrium of step k - 1, with the loads, prescribed motions
  /// and actuators at t_k. Its gradient is one transposed solve per equilibrium (they do not
  /// depend on where each solve started): for objectives of the node positions (InputError
  /// "objective" when one's gradient reaches a twist or a frame angle, which carry the path's
  /// history of reference frames). Not with static_start.
  std::optional<StaticOptions> quasi_static;
  /// When set, the run takes the steps Simulation takes in a scene of this duration [s]: step k
  /// ends at t_k = initial.time + k dt, the last at end_time, each of t_k - t_{k-1}, so the run is
  /// the scene's run bitwise (its steps' dt differ from dt in the last bits, which can decide
  /// whether a step at its round-off floor is halved). Within 1e-9 dt of initial.time + steps dt,
  /// else InputError "end_time". Unset: steps of dt.
  std::optional<double> end_time;
};

/// The smallest checkpoint interval m (>= 1: the least recomputation) whose held states, about
/// steps / m + m of them, fit in `bytes` [B] for `model`; InputError "memory" if none does (the
/// fewest states, about 2 sqrt(steps), are held at m near sqrt(steps)).
int checkpoint_interval_for_memory(const Model& model, int steps, double bytes);

struct RunGradient {
  bool ok = false;        ///< false if a forward step or the adjoint of a step failed
  std::string message;    ///< why, when !ok
  double value = 0.0;     ///< L
  VecX parameters;        ///< dL/dp (#parameters)
  VecX initial_velocity;  ///< dL/du_0 (#dofs; zero on fixed DOFs and after a static start)
  /// dL/dq_0 (#dofs): the initial positions and twists, the initial reference directors carried
  /// to the moved tangents by parallel transport; zero on fixed DOFs and after a static start
  /// (the equilibrium does not depend on where the solve started)
  VecX initial_position;
  State final_state;         ///< the state after the last step
  int recomputed_steps = 0;  ///< forward steps repeated by the backward pass (checkpointing)
  int substeps = 0;  ///< substeps of the forward run: its steps plus the pieces halving added
  /// Changes of contact state from one step of the forward run to the next (contact_switches:
  /// obstacle-contact nodes, edge pairs and node-triangle pairs apart / sticking / slipping):
  /// where > 0, the gradient is the one-sided
  /// derivative of the branch the run took (docs/physics/gradients.md, "Contact and friction").
  int contact_switches = 0;
};

/// Runs `steps` steps of options.dt (options.scheme; or a scene's steps, GradientOptions::end_time)
/// from `initial` on `model` (after a static solve with gradient.static_start) with every parameter
/// set to its value (with_parameters) and returns L = sum_k l_k and its gradient. The backward pass
/// follows the substeps actually taken where a step's dt was halved. InputError for what the
/// adjoint does not support (StepAdjoint) and for steps < 1 (< 0 with a static start). initial.q is
/// what prescribed motions receive as the DOFs at t = 0 (TimeStepper): a run with prescribed
/// motions starts at t = 0.
RunGradient run_with_gradient(const Model& model, const DynamicsOptions& options,
                              const State& initial, int steps, const Objective& objective,
                              const std::vector<Parameter>& parameters,
                              const GradientOptions& gradient = {});

/// The forward run alone (gradient.static_start as in run_with_gradient): L (NaN if a step or the
/// static solve fails), for finite differences of whole runs.
double run_objective(const Model& model, const DynamicsOptions& options, const State& initial,
                     int steps, const Objective& objective,
                     const std::vector<Parameter>& parameters,
                     const GradientOptions& gradient = {});

}  // namespace tendril::adjoint
