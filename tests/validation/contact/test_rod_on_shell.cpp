// Rod-shell contact (the contact issue: "contact for shells through point-triangle and edge-edge
// pairs ... and rod-shell pairs; a step never lets an edge pass through another"; IMC penalty of
// mat_dismech eq. 21 on the point-triangle and edge-edge distances, docs/physics/contact.md
// "Shell contact"):
// - statics: a rod lying on a plate pinned along its boundary carries exactly its weight through
// the
//   contact (force balance on the rod: the contact forces sum to m g, to the Newton tolerance);
// - dynamics: a rod dropped onto the plate comes to rest on it, and no rod node or edge crosses the
//   plate at any step (exact point-triangle and edge-edge distances checked every step);
// - no tunnelling: a thin rod driven at a time step in which free flight carries it far through the
//   sheet stays on its side with the continuous collision check (Li, Kaufman and Jiang 2021) and
//   passes through without it.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "energy_force.hpp"
#include "tendril/contact/distance/edge_edge_distance.hpp"
#include "tendril/contact/distance/point_triangle_distance.hpp"
#include "tendril/contact/point_triangle_contact.hpp"
#include "tendril/contact/self_contact.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril {
namespace {

/// Plate [0, 0.08]^2 at z = 0, 9 x 9 nodes, pinned along its boundary, under the rod `rod` (YAML).
std::string plate_scene(const std::string& rod, const std::string& rest) {
  std::string boundary;
  for (int j = 0; j < 9; ++j)
    for (int i = 0; i < 9; ++i)
      if (i == 0 || j == 0 || i == 8 || j == 8)
        boundary += fmt::format("{}{}", boundary.empty() ? "" : ", ", 9 * j + i);
  return fmt::format(R"(
rods:
{}
shells:
  - geometry: {{type: rectangle, length: 0.08, width: 0.08, nodes_x: 9, nodes_y: 9, pattern: right}}
    material: {{E: 1.0e7, nu: 0.3, density: 200, thickness: 0.001}}
    fixed_nodes: [{}]
{}
)",
                     rod, boundary, rest);
}

/// The rod's nodes and the plate's nodes, triangles and edges of a loaded scene.
struct Bodies {
  std::vector<int> rod_nodes;
  std::vector<std::array<int, 3>> triangles;
  std::vector<std::array<int, 2>> shell_edges;
};

Bodies bodies(const sim::RodScene& scene) {
  return {scene.rod_nodes[0], scene.model.shells.triangles, scene.model.shells.edges};
}

/// Smallest exact centre-line distance between the rod and the plate's mid-surface [m]: rod nodes
/// against triangles and rod edges against shell edges (their minimum is the segment-triangle
/// distance unless they intersect), and the smallest height of a rod node above the plate along
/// the normal at its closest point (negative once a node is below).
struct Separation {
  double distance = 1e300;
  double height = 1e300;
};

Separation separation(const Bodies& b, const VecX& q) {
  Separation out;
  const auto x = [&](int n) { return Vec3(q.segment<3>(3 * n)); };
  for (int n : b.rod_nodes) {
    contact::TriangleClosestPoint nearest;
    nearest.distance = 1e300;
    for (const auto& t : b.triangles) {
      const auto c = contact::point_triangle_closest_point(x(n), x(t[0]), x(t[1]), x(t[2]));
      if (c.distance < nearest.distance) nearest = c;
    }
    out.distance = std::min(out.distance, nearest.distance);
    out.height = std::min(out.height, nearest.w.z());
  }
  for (std::size_t k = 0; k + 1 < b.rod_nodes.size(); ++k)
    for (const auto& e : b.shell_edges)
      out.distance =
          std::min(out.distance, contact::segment_closest_points(
                                     x(b.rod_nodes[k]), x(b.rod_nodes[k + 1]), x(e[0]), x(e[1]))
                                     .distance);
  return out;
}

/// Sum of the self-contact forces (edge-edge and point-triangle) on the rod's nodes [N].
Vec3 contact_force_on_rod(const sim::Simulation& sim, const Bodies& b) {
  int terms = 0;
  const Vec3 total = testing::energy_force_on(sim, b.rod_nodes, [&](const Energy& e) {
    const bool pair_contact = dynamic_cast<const contact::SelfContact*>(&e) != nullptr ||
                              dynamic_cast<const contact::PointTriangleContact*>(&e) != nullptr;
    terms += pair_contact;
    return pair_contact;
  });
  EXPECT_EQ(terms, 2);
  return total;
}

double rod_mass(const Model& m, const Bodies& b) {
  double mass = 0.0;
  for (int n : b.rod_nodes) mass += m.mass[m.dofs.node(n)];
  return mass;
}

const std::string kContact = R"(forces: {gravity: [0, 0, -9.8]}
contact: {stiffness: 100, distance_tolerance: 2.0e-4, self: {}})";

// a rod across the plate, not along any mesh line, radius 1 mm: its surface touches the plate's
// (thickness 1 mm) when the centre line is 1.5 mm above the mid-surface
std::string rod_at(double z) {
  return fmt::format(
      R"(  - geometry: {{type: straight, start: [0.012, 0.017, {0}], end: [0.068, 0.061, {0}], num_nodes: 8}}
    material: {{E: 1.0e6, nu: 0.3, density: 1000, radius: 0.001}})",
      z);
}

TEST(RodOnShell, RestingRodCarriesExactlyItsWeight) {
  const std::string scene = plate_scene(rod_at(0.0015 + 1e-5), kContact + R"(
boundary_conditions:
  fixed_dofs: [{node: 0, components: [x, y]}, {node: -1, components: [y]}]
  fixed_twists: [{edges: [0]}]
duration: 0
integrator: {type: static})");
  const sim::RodScene loaded = sim::load_rod_scene_text(scene);
  const Bodies b = bodies(loaded);
  sim::Simulation sim(loaded);
  const StepReport report = sim.step();
  ASSERT_TRUE(report.ok()) << report.message;
  const double weight = rod_mass(sim.model(), b) * 9.8;
  const Vec3 f = contact_force_on_rod(sim, b);
  EXPECT_NEAR(f.z(), weight, 1e-6 * weight);
  const Separation s = separation(b, sim.state().q);
  EXPECT_GT(s.height, 0.0);
  // the surfaces' gap lies in the smooth zone (-delta, delta)
  EXPECT_GT(s.distance, 0.0015 - 2e-4);
  EXPECT_LT(s.distance, 0.0015 + 2e-4);
}

TEST(RodOnShell, DroppedRodComesToRestOnThePlateWithoutCrossing) {
  // dropped from 2 mm above touching; 0.3 s at dt = 1 ms. Without friction the rod would slide
  // about the bowl of the sagging plate: the horizontal rigid motions are held as in the static
  // case
  const std::string scene = plate_scene(rod_at(0.0035), kContact + R"(
boundary_conditions:
  fixed_dofs: [{node: 0, components: [x, y]}, {node: -1, components: [y]}]
  fixed_twists: [{edges: [0]}]
duration: 0.3
integrator: {type: implicit_euler, dt: 1.0e-3})");
  const sim::RodScene loaded = sim::load_rod_scene_text(scene);
  const Bodies b = bodies(loaded);
  sim::Simulation sim(loaded);
  double lowest = 1e300, mean_force = 0.0;  // contact force on the rod over the last 0.1 s [N]
  for (int step = 0; step < 300; ++step) {
    const StepReport report = sim.step();
    ASSERT_TRUE(report.ok()) << "step " << step << ": " << report.message;
    const Separation s = separation(b, sim.state().q);
    ASSERT_GT(s.height, 0.0) << "a rod node crossed the plate at step " << step;
    ASSERT_GT(s.distance, 0.0) << "the rod touches the mid-surface at step " << step;
    lowest = std::min(lowest, s.distance);
    if (step >= 200) mean_force += contact_force_on_rod(sim, b).z() / 100.0;
  }
  // it touched (surfaces within delta), never overlapped by more than delta, and is at rest
  EXPECT_LT(lowest, 0.0015 + 2e-4);
  EXPECT_GT(lowest, 0.0015 - 2e-4);
  double speed = 0.0;
  for (int n : b.rod_nodes)
    speed = std::max(speed, sim.state().u.segment<3>(sim.model().dofs.node(n)).norm());
  EXPECT_LT(speed, 0.01) << "5% of the impact speed sqrt(2 g 2 mm) = 0.2 m/s";
  // at rest its weight is carried by the plate: the contact force over the last 0.1 s averages m g
  const double weight = rod_mass(sim.model(), b) * 9.8;
  EXPECT_NEAR(mean_force, weight, 0.01 * weight);
}

// a thin rod (r = 0.5 mm) 4 mm above the plate pushed down by 0.1 N on 0.15 g at dt = 10 ms: free
// flight would carry it ~0.3 m in the first step
const std::string kFastRod =
    R"(  - geometry: {type: straight, start: [0.02, 0.037, 0.0045], end: [0.06, 0.043, 0.0045], num_nodes: 4}
    material: {E: 1.0e7, nu: 0.3, density: 1000, radius: 0.0005})";
const std::string kFastRest = R"(boundary_conditions:
  fixed_dofs: [{node: 0, components: [x, y]}, {node: -1, components: [x, y]}]
  fixed_twists: [{edges: [0]}]
forces:
  point_loads: [{node: 1, force: [0, 0, -0.05]}, {node: 2, force: [0, 0, -0.05]}]
contact: {stiffness: 1000, distance_tolerance: 1.0e-4, self: {}}
duration: 0.2
integrator: {type: implicit_euler, dt: 1.0e-2})";

TEST(RodOnShell, FastThinRodDoesNotTunnelThroughTheSheetWithTheCollisionCheck) {
  const sim::RodScene loaded = sim::load_rod_scene_text(plate_scene(kFastRod, kFastRest));
  const Bodies b = bodies(loaded);
  sim::Simulation sim(loaded);
  for (int step = 0; step < 20; ++step) {
    const StepReport report = sim.step();
    ASSERT_TRUE(report.ok()) << "step " << step << ": " << report.message;
    ASSERT_GT(separation(b, sim.state().q).height, 0.0)
        << "the rod passed through the sheet at step " << step;
  }
}

TEST(RodOnShell, WithoutTheCheckTheSameStepPassesThrough) {
  const sim::RodScene loaded = sim::load_rod_scene_text(plate_scene(kFastRod, kFastRest),
                                                        {"contact.self.collision_check=false"});
  const Bodies b = bodies(loaded);
  sim::Simulation sim(loaded);
  const StepReport report = sim.step();
  ASSERT_TRUE(report.ok()) << report.message;
  EXPECT_LT(separation(b, sim.state().q).height, 0.0);
}

}  // namespace
}  // namespace tendril
