// Shell contact (the contact issue: "contact for shells through point-triangle and edge-edge
// pairs"; IMC penalty of mat_dismech eq. 21 on the point-triangle and edge-edge distances,
// docs/physics/ contact.md "Shell contact"), checked geometrically at every step:
// - a soft sheet falling onto a sphere obstacle drapes over it: no shell node overlaps the sphere
// by
//   more than delta (obstacle contact on shell nodes, mat_dismech eq. 25-26 with the sphere's
//   signed distance), and the sheet never intersects itself (no edge of a triangle crosses a
//   triangle it shares no node with; this drape does not bring the sheet onto itself, the strip
//   below does);
// - a strip lying on the ground folded onto itself by turning its clamped end over (a book
// closing):
//   the upper layer comes to lie on the lower without the strip ever intersecting itself (shell
//   self-contact with ground contact on the shell nodes);
// - a sheet falling onto another sheet pinned along its boundary comes to lie on it: the two never
//   intersect and the lower carries the upper within the smooth zone.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "tendril/contact/distance/edge_edge_distance.hpp"
#include "tendril/contact/distance/point_triangle_distance.hpp"
#include "tendril/contact/point_triangle_contact.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril {
namespace {

using Triangles = std::vector<std::array<int, 3>>;

/// True if the segment (p, q) crosses the triangle (a, b, c) (endpoints strictly on both sides of
/// its plane and the crossing point inside it).
bool segment_crosses_triangle(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b,
                              const Vec3& c) {
  const Vec3 n = (b - a).cross(c - a);
  const double dp = n.dot(p - a), dq = n.dot(q - a);
  if (dp * dq >= 0.0) return false;
  const Vec3 x = p + dp / (dp - dq) * (q - p);
  const double u = n.dot((b - a).cross(x - a)), v = n.dot((c - b).cross(x - b)),
               w = n.dot((a - c).cross(x - c));
  return (u > 0 && v > 0 && w > 0) || (u < 0 && v < 0 && w < 0);
}

/// Number of pairs (one from `first`, one from `second`) of triangles sharing no node of which one
/// has an edge crossing the other.
int intersecting_pairs(const VecX& q, const Triangles& first, const Triangles& second) {
  const auto x = [&](int n) { return Vec3(q.segment<3>(3 * n)); };
  int count = 0;
  for (const auto& s : first)
    for (const auto& t : second) {
      if (&s >= &t && &first == &second) continue;
      bool shared = false;
      for (int i : s)
        for (int j : t) shared = shared || i == j;
      if (shared) continue;
      Vec3 lo_s = x(s[0]).cwiseMin(x(s[1])).cwiseMin(x(s[2])),
           hi_s = x(s[0]).cwiseMax(x(s[1])).cwiseMax(x(s[2]));
      Vec3 lo_t = x(t[0]).cwiseMin(x(t[1])).cwiseMin(x(t[2])),
           hi_t = x(t[0]).cwiseMax(x(t[1])).cwiseMax(x(t[2]));
      if ((lo_s.array() > hi_t.array()).any() || (lo_t.array() > hi_s.array()).any()) continue;
      bool crossed = false;
      for (int k = 0; k < 3; ++k) {
        crossed = crossed ||
                  segment_crosses_triangle(x(s[k]), x(s[(k + 1) % 3]), x(t[0]), x(t[1]), x(t[2]));
        crossed = crossed ||
                  segment_crosses_triangle(x(t[k]), x(t[(k + 1) % 3]), x(s[0]), x(s[1]), x(s[2]));
      }
      count += crossed;
    }
  return count;
}

/// The triangles of shell `s` of a loaded scene (model node indices).
Triangles shell_triangles(const sim::RodScene& scene, int s) {
  Triangles out;
  const auto& nodes = scene.shell_nodes[s];
  for (const auto& t : scene.model.shells.triangles)
    if (std::find(nodes.begin(), nodes.end(), t[0]) != nodes.end()) out.push_back(t);
  return out;
}

TEST(SheetContact, SheetDrapedOverASphereStaysOutsideIt) {
  // sheet 0.1 m square, 11 x 11 nodes, h = 0.5 mm, 1 mm above a sphere of radius 3 cm under its
  // centre
  const double delta = 5e-4, radius = 0.03, h = 5e-4;
  const std::string scene = fmt::format(R"(
rods: []
shells:
  - geometry: {{type: rectangle, length: 0.1, width: 0.1, nodes_x: 11, nodes_y: 11, pattern: alternating,
                origin: [-0.05, -0.05, {}]}}
    material: {{E: 1.0e5, nu: 0.3, density: 200, thickness: {}}}
forces: {{gravity: [0, 0, -9.8]}}
contact:
  stiffness: 10
  distance_tolerance: {}
  obstacles: [{{shape: sphere, center: [0, 0, {}], radius: {}}}]
  self: {{}}
duration: 0.3
integrator: {{type: implicit_euler, dt: 2.0e-3}}
)",
                                        0.5 * h + 0.001, h, delta, -radius, radius);
  const sim::RodScene loaded = sim::load_rod_scene_text(scene);
  const Triangles triangles = shell_triangles(loaded, 0);
  const std::vector<int> nodes = loaded.shell_nodes[0];
  sim::Simulation sim(loaded);
  const Vec3 center(0, 0, -radius);
  double corner_drop = 0.0;
  for (int step = 0; step < 150; ++step) {
    const StepReport report = sim.step();
    ASSERT_TRUE(report.ok()) << "step " << step << ": " << report.message;
    const VecX& q = sim.state().q;
    double lowest_gap = 1e300;
    for (int n : nodes)
      lowest_gap = std::min(lowest_gap, (q.segment<3>(3 * n) - center).norm() - radius - 0.5 * h);
    ASSERT_GT(lowest_gap, -delta) << "step " << step;
    ASSERT_EQ(intersecting_pairs(q, triangles, triangles), 0)
        << "the sheet intersects itself at step " << step;
    corner_drop = q[3 * nodes[0] + 2];
  }
  // it draped: the sheet rests on the sphere (the smallest gap of its edges, the exact distance of
  // a segment from the centre, within the smooth zone; the edges are chords, so its nodes sit
  // higher by about the sagitta L^2 / (8 R) = 0.4 mm) and a corner hangs low
  const VecX& q = sim.state().q;
  double gap = 1e300;
  for (const auto& t : triangles)
    for (int k = 0; k < 3; ++k)
      gap = std::min(
          gap, contact::segment_closest_points(q.segment<3>(3 * t[k]),
                                               q.segment<3>(3 * t[(k + 1) % 3]), center, center)
                       .distance -
                   radius - 0.5 * h);
  EXPECT_GT(gap, -delta);
  EXPECT_LT(gap, delta);
  EXPECT_LT(corner_drop, -0.02);
}

TEST(SheetContact, StripFoldedOntoItselfNeverIntersects) {
  // strip 0.1 x 0.02 m, 21 x 5 nodes, h = 0.5 mm, resting on the ground (no friction; its x_max row
  // is held in x and y); its x_min row turns by pi about the y axis through (0.0525, 0, 5 mm above
  // the mid-surface) in 0.8 s, ending 10 mm above the lower layer, its nodes half a cell off the
  // lower's
  const double h = 5e-4, z0 = 0.5 * h + 1e-4, delta = 2e-4;
  const std::string scene = fmt::format(R"(
rods: []
shells:
  - geometry: {{type: rectangle, length: 0.1, width: 0.02, nodes_x: 21, nodes_y: 5, pattern: alternating,
                origin: [0, -0.01, {}]}}
    material: {{E: 1.0e5, nu: 0.3, density: 200, thickness: {}}}
    clamp: {{side: x_min, rows: 1}}
    fixed_dofs: [{{node: 20, components: [x, y]}}, {{node: 41, components: [x, y]}}, {{node: 62, components: [x, y]}},
                 {{node: 83, components: [x, y]}}, {{node: 104, components: [x, y]}}]
    clamp_motion: {{angular_velocity: [0, 3.9269908169872414, 0], center: [0.0525, 0, {}]}}
forces: {{gravity: [0, 0, -9.8]}}
contact:
  stiffness: 100
  distance_tolerance: {}
  ground: {{}}
  self: {{}}
duration: 0.8
integrator: {{type: implicit_euler, dt: 2.0e-3, newton: {{force_tolerance_abs: 1.0e-6}}}}
)",
                                        z0, h, z0 + 0.005, delta);
  const sim::RodScene loaded = sim::load_rod_scene_text(scene);
  const Triangles triangles = shell_triangles(loaded, 0);
  sim::Simulation sim(loaded);
  for (int step = 0; step < 400; ++step) {
    const StepReport report = sim.step();
    ASSERT_TRUE(report.ok()) << "step " << step << ": " << report.message;
    ASSERT_EQ(intersecting_pairs(sim.state().q, triangles, triangles), 0)
        << "the strip intersects itself at step " << step;
  }
  // folded: the upper layer rests on the lower through node-triangle pairs in the smooth zone
  const VecX& q = sim.state().q;
  int self_pairs = 0;
  for (const auto& e : sim.model().energies)
    if (const auto* c = dynamic_cast<const contact::PointTriangleContact*>(e.get()))
      self_pairs = c->statistics(sim.model(), q, sim.state().time).active;
  EXPECT_GT(self_pairs, 0);
}

TEST(SheetContact, SheetFallingOnAPinnedSheetLiesOnItWithoutIntersecting) {
  // lower sheet as the plate of test_rod_on_shell.cpp; the upper, 4 cm square, 5 x 5 nodes, 2 mm
  // above
  std::string boundary;
  for (int j = 0; j < 9; ++j)
    for (int i = 0; i < 9; ++i)
      if (i == 0 || j == 0 || i == 8 || j == 8)
        boundary += fmt::format("{}{}", boundary.empty() ? "" : ", ", 9 * j + i);
  const std::string scene = fmt::format(R"(
rods: []
shells:
  - geometry: {{type: rectangle, length: 0.08, width: 0.08, nodes_x: 9, nodes_y: 9, pattern: right}}
    material: {{E: 1.0e7, nu: 0.3, density: 200, thickness: 0.001}}
    fixed_nodes: [{}]
  - geometry: {{type: rectangle, length: 0.04, width: 0.04, nodes_x: 5, nodes_y: 5, pattern: right,
                origin: [0.0213, 0.0187, 0.003]}}
    material: {{E: 1.0e6, nu: 0.3, density: 200, thickness: 0.001}}
forces: {{gravity: [0, 0, -9.8]}}
contact: {{stiffness: 100, distance_tolerance: 2.0e-4, self: {{}}}}
duration: 0.2
integrator: {{type: implicit_euler, dt: 1.0e-3}}
)",
                                        boundary);
  const sim::RodScene loaded = sim::load_rod_scene_text(scene);
  const Triangles lower = shell_triangles(loaded, 0), upper = shell_triangles(loaded, 1);
  sim::Simulation sim(loaded);
  double gap = 1e300;
  for (int step = 0; step < 200; ++step) {
    const StepReport report = sim.step();
    ASSERT_TRUE(report.ok()) << "step " << step << ": " << report.message;
    const VecX& q = sim.state().q;
    ASSERT_EQ(intersecting_pairs(q, upper, lower), 0) << "the sheets intersect at step " << step;
    // smallest gap between the sheets' surfaces: upper nodes against lower triangles
    gap = 1e300;
    for (int n : loaded.shell_nodes[1])
      for (const auto& t : lower)
        gap = std::min(gap, contact::point_triangle_closest_point(
                                q.segment<3>(3 * n), q.segment<3>(3 * t[0]), q.segment<3>(3 * t[1]),
                                q.segment<3>(3 * t[2]))
                                    .distance -
                                0.001);
    ASSERT_GT(gap, -2e-4) << "step " << step;
  }
  // lying on the lower sheet at the end: the closest gap is in the smooth zone
  EXPECT_LT(gap, 2e-4);
}

}  // namespace
}  // namespace tendril
