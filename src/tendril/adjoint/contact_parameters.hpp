#pragma once
/// Parameters of the smooth IMC contact and friction of rod nodes with a rigid obstacle (contact
/// stiffness k_c, friction coefficient mu; both enter the residual affinely: the contact energy is
/// k_c b(g), the friction force mu k_c |b'(g)| h(v)), and the contact states of a run, whose
/// changes say where the gradient is the one-sided derivative of the branch taken
/// (docs/physics/gradients.md, "Contact and friction").

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tendril/adjoint/parameter.hpp"
#include "tendril/core/model.hpp"
#include "tendril/core/state.hpp"

namespace tendril::adjoint {

/// The contact stiffness k_c [N/m] of the ObstacleContact model.energies[energy] and of its
/// ObstacleFriction model.forces[friction] (-1: none), which apply() rebuilds with the new value
/// (with the continuous collision check on, as scenes build them). InputError "energy_index" /
/// "force_index" for an index that is not such a term.
Parameter contact_stiffness(const Model& model, std::size_t energy, int friction);

/// The Coulomb friction coefficient mu [-] of the ObstacleFriction model.forces[friction] that
/// belongs to the ObstacleContact model.energies[energy] (InputError as contact_stiffness).
Parameter friction_coefficient(const Model& model, std::size_t energy, std::size_t friction);

/// The contact state of every node of every ObstacleContact of `model` at `state`, in order: 0
/// apart (gap >= delta, no force), 1 in contact and sticking (tangential slip against the obstacle
/// below the slip tolerance nu, or no friction), 2 in contact and slipping (slip >= nu).
std::vector<std::uint8_t> contact_states(const Model& model, const State& state);

/// The number of entries in which `before` and `after` (contact_states of one model) differ.
int contact_switches(const std::vector<std::uint8_t>& before,
                     const std::vector<std::uint8_t>& after);

}  // namespace tendril::adjoint
