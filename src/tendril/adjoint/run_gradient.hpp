#pragma once
/// The value and gradient of a run's objective with respect to parameters and the initial
/// velocities: the forward implicit Euler run, then the discrete adjoint backwards over its states
/// (docs/physics/gradients.md). Memory is bounded by checkpointing: every m-th state is stored and
/// the states between are recomputed, bitwise as in the forward run, during the backward pass.

#include <string>
#include <vector>

#include "tendril/adjoint/objective.hpp"
#include "tendril/adjoint/parameter.hpp"
#include "tendril/core/model.hpp"
#include "tendril/core/state.hpp"
#include "tendril/integrate/options.hpp"
#include "tendril/integrate/time_stepper.hpp"

namespace tendril::adjoint {

struct GradientOptions {
  /// m: every m-th state of the forward run is stored (>= 1; InputError "checkpoint_interval");
  /// the backward pass recomputes the others, one interval at a time, so about steps / m + m
  /// states are held at once.
  int checkpoint_interval = 1;
};

/// The smallest checkpoint interval m (>= 1: the least recomputation) whose held states, about
/// steps / m + m of them, fit in `bytes` [B] for `model`; InputError "memory" if none does (the
/// fewest states, about 2 sqrt(steps), are held at m near sqrt(steps)).
int checkpoint_interval_for_memory(const Model& model, int steps, double bytes);

struct RunGradient {
  bool ok = false;           ///< false if a forward step or the adjoint of a step failed
  std::string message;       ///< why, when !ok
  double value = 0.0;        ///< L
  VecX parameters;           ///< dL/dp (#parameters)
  VecX initial_velocity;     ///< dL/du_0 (#dofs; zero on fixed DOFs)
  State final_state;         ///< the state after the last step
  int recomputed_steps = 0;  ///< forward steps repeated by the backward pass (checkpointing)
};

/// Runs `steps` implicit Euler steps of options.dt from `initial` on `model` with every
/// parameter set to its value (with_parameters) and returns L = sum_k l_k and its gradient. A
/// step that does not converge in one piece (dt halved) ends the run with ok = false: the
/// gradient of a run with halved steps is not implemented. InputError for options the adjoint does
/// not support (StepAdjoint) and for steps < 1. initial.q is what prescribed motions receive as the
/// DOFs at t = 0 (TimeStepper): a run with prescribed motions starts at t = 0.
RunGradient run_with_gradient(const Model& model, const DynamicsOptions& options,
                              const State& initial, int steps, const Objective& objective,
                              const std::vector<Parameter>& parameters,
                              const GradientOptions& gradient = {});

/// One step of `stepper` on `state`; empty on success, else why the run cannot be differentiated
/// (a failed step, or one split into substeps by dt halving).
std::string forward_step(TimeStepper& stepper, State& state);

/// The forward run alone: L (NaN if a step fails), for finite differences of whole runs.
double run_objective(const Model& model, const DynamicsOptions& options, const State& initial,
                     int steps, const Objective& objective,
                     const std::vector<Parameter>& parameters);

}  // namespace tendril::adjoint
