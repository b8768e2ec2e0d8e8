#include "tendril/adjoint/contact_parameters.hpp"

#include <memory>
#include <string>

#include "tendril/adjoint/term_lookup.hpp"
#include "tendril/contact/friction/obstacle_friction.hpp"
#include "tendril/contact/friction/point_triangle_friction.hpp"
#include "tendril/contact/friction/self_friction.hpp"
#include "tendril/contact/obstacle_contact.hpp"
#include "tendril/contact/point_triangle_contact.hpp"
#include "tendril/contact/self_contact.hpp"

namespace tendril::adjoint {
namespace {

using contact::ContactParameters;
using contact::ObstacleContact;
using contact::ObstacleFriction;
using contact::PointTriangleContact;
using contact::PointTriangleFriction;
using contact::SelfContact;
using contact::SelfFriction;

/// Checks that model.forces[friction] (if >= 0) is a Friction (InputError "force_index").
template <class Friction>
void require_friction(const Model& model, int friction) {
  if (friction >= 0)
    term_at<Friction>(model.forces, static_cast<std::size_t>(friction), "force_index",
                      "the friction of the contact's kind (obstacle, self or point-triangle "
                      "friction) in Model::forces");
}

/// The law (k_c, mu, ...) of the contact model.energies[energy] (InputError "energy_index" if it
/// is none of the kinds above), checking that model.forces[friction] (if >= 0) is the friction
/// of its kind.
ContactParameters contact_law(const Model& model, std::size_t energy, int friction) {
  const Energy* term = energy < model.energies.size() ? model.energies[energy].get() : nullptr;
  if (const auto* c = dynamic_cast<const ObstacleContact*>(term)) {
    require_friction<ObstacleFriction>(model, friction);
    return c->parameters();
  }
  if (const auto* c = dynamic_cast<const SelfContact*>(term)) {
    require_friction<SelfFriction>(model, friction);
    return c->parameters();
  }
  if (const auto* c = dynamic_cast<const PointTriangleContact*>(term)) {
    require_friction<PointTriangleFriction>(model, friction);
    return c->parameters();
  }
  throw InputError("energy_index", std::to_string(energy),
                   "the index of an obstacle, rod-rod (self) or point-triangle contact in "
                   "Model::energies");
}

/// A copy of the pair term `old` (a SelfContact, PointTriangleContact or their friction) with the
/// law of `params`.
template <class Term, class Base>
std::shared_ptr<const Base> with_law(const Base& old, const ContactParameters& params) {
  auto copy = std::make_shared<Term>(static_cast<const Term&>(old));
  copy->set_stiffness_and_friction(params.stiffness, params.friction);
  return copy;
}

/// Rebuilds the contact model.energies[energy] and its friction model.forces[friction] (if >= 0)
/// with `set` applied to their law.
template <class Set>
void rebuild(Model& m, std::size_t energy, int friction, const Set& set) {
  ContactParameters params = contact_law(m, energy, -1);
  set(params);
  std::shared_ptr<const ForceTerm>* force =
      friction >= 0 ? &m.forces[static_cast<std::size_t>(friction)] : nullptr;
  std::shared_ptr<const Energy>& term = m.energies[energy];
  if (const auto* old = dynamic_cast<const ObstacleContact*>(term.get())) {
    // the obstacle, kept alive by the old term (aliasing pointer)
    const std::shared_ptr<const contact::RigidObstacle> obstacle(term, &old->obstacle());
    const contact::ContactNodes nodes = old->nodes();
    const contact::ContactEdges edges = old->edges();
    if (force) *force = std::make_shared<ObstacleFriction>(obstacle, nodes, params, edges);
    term = std::make_shared<ObstacleContact>(obstacle, nodes, params, edges);
  } else if (dynamic_cast<const SelfContact*>(term.get())) {
    if (force) *force = with_law<SelfFriction>(**force, params);
    term = with_law<SelfContact>(*term, params);
  } else {
    if (force) *force = with_law<PointTriangleFriction>(**force, params);
    term = with_law<PointTriangleContact>(*term, params);
  }
}

/// The distance of a pair's closest points and the part of their relative velocity tangential to
/// the pair.
struct PairMotion {
  double distance = 0.0;  ///< [m]
  double slip = 0.0;      ///< |(I - n n^T) v| [m/s]
};

/// An edge pair at x = [a0, a1, b0, b1] with velocities u: v = (1 - s) u_a0 + s u_a1 - (1 - t)
/// u_b0 - t u_b1 at the closest points (as imc_pair_friction reads it).
PairMotion pair_motion(const SelfContact& /*term*/, const contact::Vec12& x,
                       const contact::Vec12& u) {
  const contact::SegmentClosestPoints cp = contact::segment_closest_points(
      x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9));
  const Vec3 v = (1.0 - cp.s) * u.segment<3>(0) + cp.s * u.segment<3>(3) -
                 (1.0 - cp.t) * u.segment<3>(6) - cp.t * u.segment<3>(9);
  const Vec3 n = cp.w / cp.distance;
  return {cp.distance, (v - n * n.dot(v)).norm()};
}

/// A node against a triangle, x = [p, t0, t1, t2]: v = u_p - sum_k b_k u_tk, the triangle's
/// closest point at barycentric weights b (as imc_point_triangle_friction reads it).
PairMotion pair_motion(const PointTriangleContact& /*term*/, const contact::Vec12& x,
                       const contact::Vec12& u) {
  const contact::TriangleClosestPoint cp = contact::point_triangle_closest_point(
      x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9));
  const Vec3& b = cp.barycentric;
  const Vec3 v =
      u.segment<3>(0) - b[0] * u.segment<3>(3) - b[1] * u.segment<3>(6) - b[2] * u.segment<3>(9);
  const Vec3 n = cp.w / cp.distance;
  return {cp.distance, (v - n * n.dot(v)).norm()};
}

/// The pairs of `term` (SelfContact or PointTriangleContact) in contact at `state` and whether
/// each sticks or slips: the tangential slip of the closest points against the slip tolerance nu.
template <class Term>
std::vector<PairState> pair_states(const Term& term, const State& state) {
  const auto& finder = term.pairs();
  const ContactParameters& p = term.parameters();
  std::vector<contact::EdgePair> found;
  finder.find(state.q, found);
  std::vector<PairState> states;
  for (const contact::EdgePair& pair : found) {
    const PairMotion m =
        pair_motion(term, finder.stencil(state.q, pair), finder.stencil(state.u, pair));
    if (m.distance - finder.radius_sum(pair) >= p.distance_tolerance) continue;
    states.push_back({pair, std::uint8_t(p.friction > 0.0 && m.slip >= p.slip_tolerance ? 2 : 1)});
  }
  return states;
}

/// The pairs whose state differs between two sorted lists (in one only, or another state).
int pair_switches(const std::vector<PairState>& before, const std::vector<PairState>& after) {
  int count = 0;
  std::size_t i = 0, j = 0;
  while (i < before.size() || j < after.size()) {
    if (j == after.size() || (i < before.size() && before[i].pair < after[j].pair)) {
      ++count, ++i;
    } else if (i == before.size() || after[j].pair < before[i].pair) {
      ++count, ++j;
    } else {
      count += before[i++].state != after[j++].state ? 1 : 0;
    }
  }
  return count;
}

}  // namespace

Parameter contact_stiffness(const Model& model, std::size_t energy, int friction) {
  return {"contact_stiffness", contact_law(model, energy, friction).stiffness,
          [energy, friction](Model& m, double value) {
            rebuild(m, energy, friction, [value](ContactParameters& p) { p.stiffness = value; });
          }};
}

Parameter friction_coefficient(const Model& model, std::size_t energy, std::size_t friction) {
  const int f = static_cast<int>(friction);
  return {"friction_coefficient", contact_law(model, energy, f).friction,
          [energy, f](Model& m, double value) {
            rebuild(m, energy, f, [value](ContactParameters& p) { p.friction = value; });
          }};
}

std::vector<ContactTerm> contact_terms(const Model& model) {
  std::vector<ContactTerm> terms;
  for (std::size_t i = 0; i < model.energies.size(); ++i) {
    const Energy* energy = model.energies[i].get();
    const auto* obstacle = dynamic_cast<const ObstacleContact*>(energy);
    const bool self = dynamic_cast<const SelfContact*>(energy) != nullptr;
    const bool shell = dynamic_cast<const PointTriangleContact*>(energy) != nullptr;
    if (!obstacle && !self && !shell) continue;
    ContactTerm term{i, -1};
    for (std::size_t j = 0; j < model.forces.size() && term.friction < 0; ++j) {
      const ForceTerm* force = model.forces[j].get();
      const auto* on_obstacle = dynamic_cast<const ObstacleFriction*>(force);
      if ((obstacle && on_obstacle && &on_obstacle->obstacle() == &obstacle->obstacle()) ||
          (self && dynamic_cast<const SelfFriction*>(force)) ||
          (shell && dynamic_cast<const PointTriangleFriction*>(force)))
        term.friction = static_cast<int>(j);
    }
    terms.push_back(term);
  }
  return terms;
}

ContactStates contact_states(const Model& model, const State& state) {
  ContactStates states;
  for (const auto& energy : model.energies) {
    const auto* term = dynamic_cast<const ObstacleContact*>(energy.get());
    if (const auto* self = dynamic_cast<const SelfContact*>(energy.get())) {
      states.pairs.push_back(pair_states(*self, state));
      continue;
    }
    if (const auto* shell = dynamic_cast<const PointTriangleContact*>(energy.get())) {
      states.pairs.push_back(pair_states(*shell, state));
      continue;
    }
    if (!term) continue;
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
  for (std::size_t i = 0; i < before.pairs.size() && i < after.pairs.size(); ++i)
    count += pair_switches(before.pairs[i], after.pairs[i]);
  for (std::size_t i = 0; i < before.nodes.size() && i < after.nodes.size(); ++i)
    count += before.nodes[i] != after.nodes[i] ? 1 : 0;
  return count;
}

}  // namespace tendril::adjoint
