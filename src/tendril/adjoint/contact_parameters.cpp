#include "tendril/adjoint/contact_parameters.hpp"

#include <cstdlib>
#include <memory>
#include <string>

#include "tendril/adjoint/term_lookup.hpp"
#include "tendril/contact/friction/obstacle_friction.hpp"
#include "tendril/contact/obstacle_contact.hpp"

namespace tendril::adjoint {
namespace {

using contact::ContactParameters;
using contact::ObstacleContact;
using contact::ObstacleFriction;

/// The ObstacleContact at model.energies[energy] (InputError "energy_index" otherwise).
const ObstacleContact& obstacle_contact(const Model& model, std::size_t energy) {
  return term_at<ObstacleContact>(model.energies, energy, "energy_index",
                                  "an obstacle contact in Model::energies");
}

/// Checks that model.forces[friction] is an ObstacleFriction (InputError "force_index").
void require_friction(const Model& model, std::size_t friction) {
  term_at<ObstacleFriction>(model.forces, friction, "force_index",
                            "an obstacle friction in Model::forces");
}

/// Rebuilds the contact model.energies[energy] and its friction model.forces[friction] (if >= 0)
/// with `set` applied to their parameters.
template <class Set>
void rebuild(Model& m, std::size_t energy, int friction, const Set& set) {
  const auto& old = static_cast<const ObstacleContact&>(*m.energies[energy]);
  // the obstacle, kept alive by the old term (aliasing pointer)
  const std::shared_ptr<const contact::RigidObstacle> obstacle(m.energies[energy], &old.obstacle());
  ContactParameters params = old.parameters();
  set(params);
  const contact::ContactNodes nodes = old.nodes();
  const contact::ContactEdges edges = old.edges();
  if (friction >= 0)
    m.forces[static_cast<std::size_t>(friction)] =
        std::make_shared<ObstacleFriction>(obstacle, nodes, params, edges);
  m.energies[energy] = std::make_shared<ObstacleContact>(obstacle, nodes, params, edges);
}

}  // namespace

Parameter contact_stiffness(const Model& model, std::size_t energy, int friction) {
  const ObstacleContact& term = obstacle_contact(model, energy);
  if (friction >= 0) require_friction(model, static_cast<std::size_t>(friction));
  return {"contact_stiffness", term.parameters().stiffness,
          [energy, friction](Model& m, double value) {
            rebuild(m, energy, friction, [value](ContactParameters& p) { p.stiffness = value; });
          }};
}

Parameter friction_coefficient(const Model& model, std::size_t energy, std::size_t friction) {
  const ObstacleContact& term = obstacle_contact(model, energy);
  const int f = static_cast<int>(friction);
  require_friction(model, friction);
  return {"friction_coefficient", term.parameters().friction, [energy, f](Model& m, double value) {
            rebuild(m, energy, f, [value](ContactParameters& p) { p.friction = value; });
          }};
}

ContactStates contact_states(const Model& model, const State& state) {
  ContactStates states;
  for (const auto& energy : model.energies) {
    const auto* term = dynamic_cast<const ObstacleContact*>(energy.get());
    if (!term) {
      if (const auto* other = dynamic_cast<const contact::ContactEnergy*>(energy.get()))
        states.active_pairs.push_back(other->statistics(model, state.q, state.time).active);
      continue;
    }
    const ContactParameters& p = term->parameters();
    const Vec3 obstacle_velocity = term->obstacle().velocity(state.time);
    const contact::ContactNodes& nodes = term->nodes();
    for (std::size_t k = 0; k < nodes.nodes.size(); ++k) {
      const int d = model.dofs.node(nodes.nodes[k]);
      const contact::SurfaceDistance phi =
          term->obstacle().distance(state.q.segment<3>(d), state.time);
      if (phi.distance - nodes.radius[k] >= p.distance_tolerance) {
        states.nodes.push_back(0);
        continue;
      }
      const Vec3 w = state.u.segment<3>(d) - obstacle_velocity;
      const double slip = (w - phi.normal * phi.normal.dot(w)).norm();
      states.nodes.push_back(p.friction > 0.0 && slip >= p.slip_tolerance ? 2 : 1);
    }
  }
  return states;
}

int contact_switches(const ContactStates& before, const ContactStates& after) {
  int count = 0;
  for (std::size_t i = 0; i < before.nodes.size() && i < after.nodes.size(); ++i)
    count += before.nodes[i] != after.nodes[i] ? 1 : 0;
  for (std::size_t i = 0; i < before.active_pairs.size() && i < after.active_pairs.size(); ++i)
    count += std::abs(after.active_pairs[i] - before.active_pairs[i]);
  return count;
}

}  // namespace tendril::adjoint
