#pragma once
/// Parameters of a swimmer in a medium (granular_flagella IV-C, IV-E) for the adjoint: the medium
/// constant mu of the RFT drag and the head drag, the head drag's shape factors C1 and C2, and the
/// rate of a motor (a natural twist ramped at a constant rate). Each enters the implicit Euler
/// residual affinely (the drag coefficients are proportional to mu, C1 and C2; the motor's natural
/// twist at time t is start + omega t), so dr/dp by the affine difference of parameter.hpp is
/// exact. See docs/physics/gradients.md, "Parameters".

#include <cstddef>

#include "tendril/adjoint/parameter.hpp"

namespace tendril::adjoint {

/// The medium constant mu [Pa s] of every RFT term (whose coefficients eta_t, eta_n were made from
/// this mu by eq. 10, so they scale with it) and of every head drag term (eq. 11-12), whose current
/// value in `model` is `mu`. InputError "mu" unless mu > 0, "forces" if the model has neither term.
Parameter medium_mu(const Model& model, double mu);

/// The shape factor C1 [-] of the head drag force F_h = -6 pi C1 mu a v_h of the HeadDrag term
/// model.forces[force_index] (InputError "force_index" if that is not a head drag), starting at
/// the term's value.
Parameter head_drag_c1(const Model& model, std::size_t force_index);

/// The shape factor C2 [-] of the head drag torque T_h = -8 pi C2 mu a^3 omega_h of the HeadDrag
/// term model.forces[force_index], starting at the term's value.
Parameter head_drag_c2(const Model& model, std::size_t force_index);

/// The rate omega_T of the motor model.actuators[actuator_index], in revolutions per minute
/// [rpm] (omega_T = rpm 2 pi / 60 rad/s): a RestShapeSchedule of natural twists at a constant rate
/// (the flagellated robot's motor, granular_flagella IV-E), starting at the rate its twists turn
/// at (from t = 0 to 1 s). apply() adds (value - rpm) 2 pi / 60 t to its springs' natural twists
/// at time t. InputError "actuator_index" if the actuator is not a natural-twist schedule or its
/// twists do not turn at one constant rate (checked over t = 0, 1, 2 s).
Parameter motor_rpm(const Model& model, std::size_t actuator_index);

}  // namespace tendril::adjoint
