#pragma once
/// A straight rod clamped by the Tendril clamp convention (docs/conventions.md): the first edge
/// (its two nodes and its twist) is fixed and the beam length L is measured from the midpoint of
/// that edge to the free end. With n edges, the edge length is L / (n - 1/2) and the rod lies along
/// +x from x = -|e|/2, so the clamp point is the origin.

#include <memory>

#include "tendril/core/model.hpp"
#include "tendril/core/state.hpp"
#include "tendril/forces/gravity.hpp"
#include "tendril/forces/point_load.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/rod/rod_builder.hpp"

namespace tendril::testing {

struct ClampedRod {
  Model model;
  State state;
  double edge_length = 0.0;  ///< |e| [m]
  int tip_node = 0;
};

/// A rod of `num_edges` edges along +x, clamped at x = 0 (the midpoint of edge 0), free end at x =
/// L.
inline ClampedRod make_clamped_rod(int num_edges, double length, const RodMaterial& material) {
  RodNetworkInput input;
  const double edge = length / (num_edges - 0.5);
  for (int i = 0; i <= num_edges; ++i) input.nodes.emplace_back((i - 0.5) * edge, 0.0, 0.0);
  for (int e = 0; e < num_edges; ++e) input.edges.push_back({e, e + 1});
  input.materials.push_back(material);
  ClampedRod rod;
  rod.model = build_rod_model(input);
  rod.edge_length = edge;
  rod.tip_node = num_edges;
  for (int d = 0; d < 6; ++d) rod.model.fixed[d] = 1;
  rod.model.fixed[rod.model.dofs.twist(0)] = 1;
  rod.state.q = rest_configuration(rod.model);
  rod.state.u = VecX::Zero(rod.state.q.size());
  initialize_frames(rod.model, rod.state.q, rod.state.frames);
  return rod;
}

inline void add_gravity(ClampedRod& rod, const Vec3& g) {
  rod.model.energies.push_back(std::make_shared<GravityEnergy>(g));
}

inline void add_tip_force(ClampedRod& rod, const Vec3& force) {
  rod.model.forces.push_back(std::make_shared<PointLoad>(rod.tip_node, force));
}

inline Vec3 node_position(const ClampedRod& rod, int node) {
  return rod.state.q.segment<3>(3 * node);
}

/// A circular rod section of radius r [m].
inline RodMaterial circular_material(double youngs_modulus, double poisson_ratio, double density,
                                     double radius) {
  RodMaterial m;
  m.youngs_modulus = youngs_modulus;
  m.poisson_ratio = poisson_ratio;
  m.density = density;
  m.radius = radius;
  return m;
}

}  // namespace tendril::testing
