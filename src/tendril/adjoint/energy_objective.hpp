#pragma once
/// Energies of a run's state as objectives (docs/physics/gradients.md, "Objectives"): the kinetic
/// energy and the elastic energy at a chosen step, each with its gradient.

#include "tendril/adjoint/objective.hpp"

namespace tendril::adjoint {

/// L = 1/2 u^T M u [J] at state `step` (0 .. steps): translational and twist kinetic energy with
/// the lumped masses and rotational inertias of `model` (as the run uses them: the model given to
/// run_with_gradient, with its parameters applied, must have the same masses; a density parameter
/// changes them, so this objective is for runs without one). InputError "step" if step < 0.
Objective kinetic_energy(const Model& model, int step);

/// L = E_el(q) [J] at state `step`: the sum of the model's energies that are not external loads
/// (stretch, bend-twist; a contact potential is evaluated with a fresh workspace, its candidate
/// pairs found anew, and is not checked here), with the rest
/// quantities the actuators set at the state's time. Its gradient holds dE/dq and, through the
/// reference frames, dE/dphi^e = dE/dtheta^e. `model` must have the run's stiffnesses (no stiffness
/// parameter in the run). InputError "step" if step < 0.
Objective elastic_energy(const Model& model, int step);

}  // namespace tendril::adjoint
