#pragma once
/// Two short rods (4 nodes each) crossing above each other, as a Model with only positions and
/// twists, for the self-contact tests: rod A along x above rod B along y, their crossing
/// edges (1 and 4) `height` apart (centrelines).

#include "tendril/contact/self_contact.hpp"
#include "tendril/core/model.hpp"
#include "tendril/core/state.hpp"
#include "tendril/geometry/kinematics.hpp"

namespace tendril::testing {

struct TwoRods {
  Model model;
  VecX q;
  RodFrames frames;
  contact::ContactEdges edges;
};

inline TwoRods make_two_rods(double height, double radius_a = 0.01, double radius_b = 0.015) {
  TwoRods r;
  Model& m = r.model;
  m.dofs.num_nodes = 8;
  m.dofs.num_edges = 6;
  const int n = m.dofs.size();
  m.rest_positions.resize(24);
  for (int i = 0; i < 4; ++i) {
    m.rest_positions.segment<3>(3 * i) = Vec3(-0.15 + 0.1 * i, 0.013, height + 0.002 * i);
    m.rest_positions.segment<3>(12 + 3 * i) = Vec3(0.021, -0.15 + 0.1 * i, -0.001 * i);
  }
  for (int rod = 0; rod < 2; ++rod)
    for (int e = 0; e < 3; ++e) {
      const int n0 = 4 * rod + e;
      m.rods.edges.push_back({n0, n0 + 1});
      m.rods.rest_length.push_back(0.1);
      m.rods.stretch_stiffness.push_back(1.0);
      r.edges.nodes.push_back({n0, n0 + 1});
      r.edges.radius.push_back(rod == 0 ? radius_a : radius_b);
    }
  m.mass = VecX::Constant(n, 0.01);
  m.fixed.assign(n, 0);
  // lift rod A until the centreline distance of the crossing edges (1 and 4) is `height`
  for (int it = 0; it < 20; ++it) {
    const Vec3 p = m.rest_positions.segment<3>(3), q = m.rest_positions.segment<3>(6);
    const Vec3 a = m.rest_positions.segment<3>(15), b = m.rest_positions.segment<3>(18);
    const double d = contact::segment_closest_points(p, q, a, b).distance;
    for (int i = 0; i < 4; ++i) m.rest_positions[3 * i + 2] += height - d;
  }
  r.q = VecX::Zero(n);
  r.q.head(24) = m.rest_positions;
  initialize_frames(m, r.q, r.frames);
  return r;
}

}  // namespace tendril::testing
