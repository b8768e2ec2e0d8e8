#pragma once
/// Two rods in IMC edge-edge contact, shared by the adjoint tests: a free rod across a fixed one.

#include <memory>

#include "tendril/contact/friction/self_friction.hpp"
#include "tendril/contact/self_contact.hpp"
#include "tendril/forces/gravity.hpp"
#include "unit/rod/rod_shapes.hpp"

namespace tendril::test {

struct RodsInContact {
  Model model;
  State initial;
};

/// A free rod (6 nodes 11-16, 0.5 m along y at x = 0, its middle edge 13-14 crossing the other in
/// its interior, where the closest points move smoothly) across a fixed one (11 nodes along x from
/// -0.55 to 0.45 m; both of the benchmark material: r 5 mm, E 1e7 Pa, rho 1273.52 kg/m^3) with its
/// axis at `height` (1 cm: touching), its nodes moving at `velocity`, under gravity; IMC edge-edge
/// contact (k_c 1e3 N/m, delta 1 mm) and friction (mu 0.4, nu 1 mm/s) between all edges: the
/// last of Model::energies and of Model::forces.
inline RodsInContact rod_across_rail(double height, const Vec3& velocity) {
  RodNetworkInput in;
  for (int i = 0; i < 11; ++i) in.nodes.emplace_back(0.1 * i - 0.55, 0.0, 0.0);
  for (int i = 0; i < 6; ++i) in.nodes.emplace_back(0.0, -0.25 + 0.1 * i, height);
  for (int i = 0; i < 10; ++i) in.edges.push_back({i, i + 1});
  for (int i = 11; i < 16; ++i) in.edges.push_back({i, i + 1});
  in.materials = {benchmark_material()};
  BuiltRod rods = build(in);
  Model& model = rods.model;
  for (int i = 0; i < 11; ++i)
    for (int d = 0; d < 3; ++d) model.fixed[static_cast<std::size_t>(model.dofs.node(i) + d)] = 1;
  for (int e = 0; e < 10; ++e) model.fixed[static_cast<std::size_t>(model.dofs.twist(e))] = 1;
  model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0.0, 0.0, -9.81)));
  contact::ContactEdges edges{in.edges, std::vector<double>(in.edges.size(), 5e-3)};
  const contact::ContactParameters params{
      .stiffness = 1e3, .distance_tolerance = 1e-3, .slip_tolerance = 1e-3, .friction = 0.4};
  model.energies.push_back(std::make_shared<contact::SelfContact>(edges, params, rods.q));
  model.forces.push_back(std::make_shared<contact::SelfFriction>(edges, params, rods.q));
  RodsInContact out{std::move(rods.model), rest_state(rods)};
  for (int i = 11; i < 17; ++i) out.initial.u.segment<3>(out.model.dofs.node(i)) = velocity;
  return out;
}

}  // namespace tendril::test
