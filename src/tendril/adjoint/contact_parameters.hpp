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
#include "tendril/contact/broad_phase.hpp"
#include "tendril/core/model.hpp"
#include "tendril/core/state.hpp"

namespace tendril::adjoint {

/// The contact stiffness k_c [N/m] of the contact model.energies[energy] (an ObstacleContact,
/// a SelfContact between rod edges or a PointTriangleContact with shells) and of its friction
/// model.forces[friction] (-1: none; ObstacleFriction, SelfFriction or PointTriangleFriction),
/// which apply() replaces by copies with the new value (obstacle terms rebuilt with the continuous
/// collision check on, as scenes build them; pair terms keep their pairs and candidates).
/// InputError "energy_index" / "force_index" for an index that is not such a term.
Parameter contact_stiffness(const Model& model, std::size_t energy, int friction);

/// The Coulomb friction coefficient mu [-] of the friction model.forces[friction] that belongs to
/// the contact model.energies[energy] (kinds and InputError as contact_stiffness).
Parameter friction_coefficient(const Model& model, std::size_t energy, std::size_t friction);

/// A contact of a model: its energy and its friction.
struct ContactTerm {
  std::size_t energy = 0;  ///< index in Model::energies
  int friction = -1;       ///< index in Model::forces (-1: none)
};
/// Every contact energy of `model` (ObstacleContact, SelfContact, PointTriangleContact), in
/// order, with the friction of the same kind that belongs to it (an ObstacleFriction on the same
/// obstacle).
std::vector<ContactTerm> contact_terms(const Model& model);

/// A pair in contact and its friction state.
struct PairState {
  /// contact edge indices (rod-rod), or the node's index among the points and the triangle's
  /// among the triangles (point-triangle)
  contact::EdgePair pair;
  /// 1 sticking (tangential slip of the closest points below nu, or no friction), 2 slipping
  std::uint8_t state = 1;
  friend bool operator==(const PairState&, const PairState&) = default;
};

/// The contact states of a model at a state.
struct ContactStates {
  /// Every node of every ObstacleContact, in order: 0 apart (gap >= delta, no force), 1 in contact
  /// and sticking (tangential slip against the obstacle below the slip tolerance nu, or no
  /// friction), 2 in contact and slipping (slip >= nu).
  std::vector<std::uint8_t> nodes;
  /// Every SelfContact (edge pairs of rods and shells) and PointTriangleContact (nodes against
  /// shell triangles), in order: its pairs in contact (gap < delta), sorted.
  std::vector<std::vector<PairState>> pairs;
};
ContactStates contact_states(const Model& model, const State& state);

/// The contact state changes from `before` to `after` (contact_states of one model): the nodes
/// and pairs whose state differs (a pair in contact in one and not the other, or sticking in one
/// and slipping in the other).
int contact_switches(const ContactStates& before, const ContactStates& after);

}  // namespace tendril::adjoint
