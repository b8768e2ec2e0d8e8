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

/// The contact states of a model at a state.
struct ContactStates {
  /// Every node of every ObstacleContact, in order: 0 apart (gap >= delta, no force), 1 in contact
  /// and sticking (tangential slip against the obstacle below the slip tolerance nu, or no
  /// friction), 2 in contact and slipping (slip >= nu).
  std::vector<std::uint8_t> nodes;
  /// Every other contact energy (between rods, with shells): its number of active pairs (gap <
  /// delta, ContactStatistics::active).
  std::vector<int> active_pairs;
};
ContactStates contact_states(const Model& model, const State& state);

/// The contact state changes from `before` to `after` (contact_states of one model): the nodes
/// whose state differs, plus the change in each count of active pairs (a lower bound of the pairs
/// that opened or closed).
int contact_switches(const ContactStates& before, const ContactStates& after);

}  // namespace tendril::adjoint
