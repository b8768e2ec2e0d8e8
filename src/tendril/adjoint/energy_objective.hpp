#pragma once
/// Energies of a run's state as objectives (docs/physics/gradients.md, "Objectives"): the kinetic
/// energy and the elastic energy at a chosen step, each with its gradient, which includes the
/// energy's own dependence on the run's parameters (the masses, stiffnesses and rest quantities
/// they set).

#include <vector>

#include "tendril/adjoint/objective.hpp"
#include "tendril/adjoint/parameter.hpp"

namespace tendril::adjoint {

/// 1/2 u^T M u [J] of `state` with the lumped masses and rotational inertias of `model`.
double kinetic_energy(const Model& model, const State& state);

/// E_el(q) [J] of `state` on `model`: the sum of the model's energies that are not external loads
/// (stretch, bend-twist, shell membranes and bending; a contact potential is evaluated with a
/// fresh workspace, its candidate pairs found anew), with the rest quantities the actuators set at
/// the state's time.
double elastic_energy(const Model& model, const State& state);

/// L = kinetic_energy at state `step` (0 .. steps) on the run's model, with_parameters(model,
/// parameters) (`model`: the model the parameters' factories were given, as for
/// run_with_gradient). Its gradient holds dL/du and dL/dp at the fixed state (a density, a radius
/// or a thickness sets the masses), the latter from the fourth-order central difference over
/// models with the parameter moved by d = |p| / 4 (exact for energies polynomial in p, or along
/// its tangent, of degree <= 4: parameter.hpp). InputError "step" if step < 0.
Objective kinetic_energy(const Model& model, int step,
                         const std::vector<Parameter>& parameters = {});

/// L = elastic_energy at state `step` on the run's model (`model` and `parameters` as for
/// kinetic_energy). Its gradient holds dE/dq, through the reference frames dE/dphi^e =
/// dE/dtheta^e, and dE/dp at the fixed state (stiffnesses, a radius or a thickness, natural
/// curvatures and twists: degree <= 4 in p; the same stencil). InputError "step" if step < 0.
Objective elastic_energy(const Model& model, int step,
                         const std::vector<Parameter>& parameters = {});

}  // namespace tendril::adjoint
