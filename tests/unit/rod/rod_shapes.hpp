#pragma once
/// Rod and rod-network geometries shared by the rod unit tests (O(1) sizes and stiffnesses so the
/// default conformance tolerances apply).

#include <cmath>
#include <numbers>

#include "tendril/core/state.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/rod/rod_builder.hpp"

namespace tendril::test {

/// A built model with its rest configuration and frames initialised there.
struct BuiltRod {
  Model model;
  VecX q;
  RodFrames frames;
};

inline BuiltRod build(const RodNetworkInput& input) {
  BuiltRod out{build_rod_model(input), {}, {}};
  out.q = rest_configuration(out.model);
  initialize_frames(out.model, out.q, out.frames);
  return out;
}

/// The state at the built configuration, at rest.
inline State rest_state(const BuiltRod& rod) {
  State s;
  s.q = rod.q;
  s.u = VecX::Zero(rod.q.size());
  s.frames = rod.frames;
  return s;
}

/// The benchmark rod's material: r 5 mm, E 1e7 Pa, nu 0.5, rho 1273.52 kg/m^3.
inline RodMaterial benchmark_material() {
  RodMaterial m;
  m.youngs_modulus = 1e7;
  m.poisson_ratio = 0.5;
  m.density = 1273.52;
  m.radius = 5e-3;
  return m;
}

/// The benchmark rod (L 1 m along x, benchmark_material) with `num_nodes` nodes, clamped:
/// nodes 0, 1 and twist 0 fixed.
inline BuiltRod clamped_benchmark_rod(int num_nodes) {
  const RodMaterial m = benchmark_material();
  RodNetworkInput in;
  for (int i = 0; i < num_nodes; ++i)
    in.nodes.emplace_back(static_cast<double>(i) / (num_nodes - 1), 0.0, 0.0);
  for (int i = 0; i + 1 < num_nodes; ++i) in.edges.push_back({i, i + 1});
  in.materials = {m};
  BuiltRod rod = build(in);
  for (int d = 0; d < 6; ++d) rod.model.fixed[d] = 1;
  rod.model.fixed[rod.model.dofs.twist(0)] = 1;
  return rod;
}

/// E = 3 Pa, nu = 0.5 (G = 1 Pa), rho = 2, r = 0.8 m: EA ~ 6, EI ~ 1, GJ ~ 0.6.
inline RodMaterial unit_material() {
  RodMaterial m;
  m.youngs_modulus = 3.0;
  m.poisson_ratio = 0.5;
  m.density = 2.0;
  m.radius = 0.8;
  return m;
}

/// An anisotropic explicit section (EI_1 != EI_2, GJ set by J).
inline RodMaterial anisotropic_material() {
  RodMaterial m;
  m.youngs_modulus = 2.0;
  m.shear_modulus = 0.7;
  m.density = 1.5;
  m.area = 1.2;
  m.inertia_1 = 0.5;
  m.inertia_2 = 1.3;
  m.torsion_constant = 0.9;
  return m;
}

/// Straight rod along x with `num_edges` edges of length 0.5.
inline RodNetworkInput straight_rod(int num_edges, const RodMaterial& material = unit_material()) {
  RodNetworkInput in;
  for (int i = 0; i <= num_edges; ++i) in.nodes.emplace_back(0.5 * i, 0.0, 0.0);
  for (int i = 0; i < num_edges; ++i) in.edges.push_back({i, i + 1});
  in.materials = {material};
  return in;
}

/// Helix of radius 1, pitch 0.8 per turn, `num_edges` edges over 1.5 turns.
inline RodNetworkInput helix(int num_edges, const RodMaterial& material = unit_material()) {
  RodNetworkInput in;
  for (int i = 0; i <= num_edges; ++i) {
    const double phi = 3.0 * std::numbers::pi * i / num_edges;
    in.nodes.emplace_back(std::cos(phi), std::sin(phi), 0.8 * phi / (2.0 * std::numbers::pi));
  }
  for (int i = 0; i < num_edges; ++i) in.edges.push_back({i, i + 1});
  in.materials = {material};
  return in;
}

/// A star of four bent arms (3 edges each) joined at node 0. Arms 0 and 2 point out of the joint,
/// arm 1 points into it, arm 3 mixes directions, so springs see every sign combination.
inline RodNetworkInput star_network() {
  RodNetworkInput in;
  in.nodes.emplace_back(0.0, 0.0, 0.0);
  const Vec3 directions[4] = {{1, 0, 0.2}, {0, 1, -0.1}, {-1, 0.1, 0.3}, {0.1, -1, 0}};
  for (int arm = 0; arm < 4; ++arm) {
    const int first = static_cast<int>(in.nodes.size());
    for (int j = 1; j <= 3; ++j) {
      const Vec3 d = directions[arm].normalized();
      in.nodes.push_back(0.5 * j * d + Vec3(0.0, 0.0, 0.05 * j * j));
    }
    const int n1 = first, n2 = first + 1, n3 = first + 2;
    switch (arm) {
      case 1:
        in.edges.insert(in.edges.end(), {{n3, n2}, {n2, n1}, {n1, 0}});
        break;
      case 3:
        in.edges.insert(in.edges.end(), {{n1, 0}, {n1, n2}, {n3, n2}});
        break;
      default:
        in.edges.insert(in.edges.end(), {{0, n1}, {n1, n2}, {n2, n3}});
        break;
    }
  }
  in.materials = {unit_material(), anisotropic_material()};
  in.edge_material = {0, 0, 0, 1, 1, 1, 0, 1, 0, 1, 1, 0};
  return in;
}

/// Accepted frames as after a step to `q_step` from `built`: transported and accepted there.
inline RodFrames frames_after_step(const BuiltRod& built, const VecX& q_step) {
  Kinematics kin;
  compute_kinematics(built.model, built.frames, q_step, kin);
  RodFrames frames = built.frames;
  accept_frames(kin, frames);
  return frames;
}

}  // namespace tendril::test
