#pragma once
/// A small bent rod (N nodes, N-1 edges) with seeded random lumped masses, for the force-term
/// tests.

#include <random>

#include "tendril/core/model.hpp"
#include "tendril/core/state.hpp"
#include "tendril/geometry/kinematics.hpp"

namespace tendril::testing {

struct SmallRod {
  Model model;
  VecX q;
  RodFrames frames;
};

inline SmallRod make_small_rod(int num_nodes, unsigned seed) {
  SmallRod rod;
  Model& m = rod.model;
  m.dofs.num_nodes = num_nodes;
  m.dofs.num_edges = num_nodes - 1;
  const int n = m.dofs.size();
  m.rest_positions.resize(3 * num_nodes);
  for (int i = 0; i < num_nodes; ++i)
    m.rest_positions.segment<3>(3 * i) = Vec3(0.1 * i, 0.02 * std::sin(1.3 * i), 0.01 * i * i);
  for (int e = 0; e < num_nodes - 1; ++e) {
    m.rods.edges.push_back({e, e + 1});
    m.rods.rest_length.push_back(
        (m.rest_positions.segment<3>(3 * e + 3) - m.rest_positions.segment<3>(3 * e)).norm());
    m.rods.stretch_stiffness.push_back(1.0);
  }
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(0.5, 1.5);
  m.mass.resize(n);
  for (int i = 0; i < num_nodes; ++i) m.mass.segment<3>(3 * i).setConstant(0.01 * unit(rng));
  for (int e = 0; e < m.dofs.num_edges; ++e) m.mass[m.dofs.twist(e)] = 1e-6 * unit(rng);
  m.fixed.assign(n, 0);
  rod.q = VecX::Zero(n);
  rod.q.head(3 * num_nodes) = m.rest_positions;
  initialize_frames(m, rod.q, rod.frames);
  return rod;
}

}  // namespace tendril::testing
