// The `contact` keys of scenes (sim/contact_scene.cpp): terms built from the keys (rods and
// shells), and bad input (negative stiffness or tolerance, friction without contact, an obstacle
// that starts inside a rod or shell, a shell index out of range) reported as InputError naming the
// key and the value.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "support/input_error.hpp"
#include "tendril/contact/friction/obstacle_friction.hpp"
#include "tendril/contact/friction/point_triangle_friction.hpp"
#include "tendril/contact/friction/self_friction.hpp"
#include "tendril/contact/obstacle_contact.hpp"
#include "tendril/contact/point_triangle_contact.hpp"
#include "tendril/contact/self_contact.hpp"
#include "tendril/sim/rod_scene.hpp"

namespace tendril::sim {
namespace {

using testing::expect_input_error;

const std::string kRod = R"(
duration: 0.01
rods:
  - geometry: {type: straight, start: [0, 0, 0.01], end: [0.1, 0, 0.01], num_nodes: 6}
    material: {E: 1.0e6, nu: 0.3, density: 1000, radius: 0.002}
)";

RodScene load(const std::string& contact) {
  return load_rod_scene_text(kRod + contact);
}

template <class T>
int count(const RodScene& s) {
  int n = 0;
  for (const auto& e : s.model.energies) n += dynamic_cast<const T*>(e.get()) != nullptr;
  for (const auto& f : s.model.forces) n += dynamic_cast<const T*>(f.get()) != nullptr;
  return n;
}

TEST(ContactScene, BuildsGroundObstaclesSelfContactAndFriction) {
  const RodScene s = load(R"(
contact:
  ground: {friction: 0.3}
  self: {}
  obstacles:
    - {shape: sphere, center: [0.05, 0, 0.1], radius: 0.02, friction: 0.1, path: [[0, 0, 0, 0], [1, 0, 0, -0.05]]}
    - {shape: capsule, p0: [0, 0.1, 0], p1: [0.1, 0.1, 0], radius: 0.01}
    - {shape: box, center: [0, -0.1, 0], half_extents: [0.01, 0.02, 0.03], rotation: [0, 0, 0.3]}
)");
  EXPECT_EQ(count<contact::ObstacleContact>(s), 4);
  EXPECT_EQ(count<contact::ObstacleFriction>(s), 2);  // mu = 0 adds no friction term
  EXPECT_EQ(count<contact::SelfContact>(s), 1);
  for (const auto& e : s.model.energies)
    if (const auto* c = dynamic_cast<const contact::ObstacleContact*>(e.get())) {
      EXPECT_EQ(c->nodes().nodes.size(), 6u);
      EXPECT_EQ(c->nodes().radius[0], 0.002);  // the rod's radius
      EXPECT_EQ(c->parameters().stiffness, 20.0);
    }
}

TEST(ContactScene, RejectsBadValuesNamingKeyAndValue) {
  expect_input_error([] { load("contact: {stiffness: -5, ground: {}}\n"); },
                     {"contact.stiffness", "-5", "> 0"});
  expect_input_error([] { load("contact: {distance_tolerance: 0, ground: {}}\n"); },
                     {"contact.distance_tolerance", "0", "> 0"});
  expect_input_error([] { load("contact: {slip_tolerance: -1e-3, ground: {}}\n"); },
                     {"contact.slip_tolerance"});
  expect_input_error([] { load("contact: {ground: {friction: -0.2}}\n"); },
                     {"contact.ground.friction", "-0.2"});
  expect_input_error([] { load("contact: {ground: {normal: [0, 0, 0]}}\n"); },
                     {"contact.ground.normal"});
  expect_input_error([] { load("contact: {rods: [3], ground: {}}\n"); }, {"contact.rods[0]", "3"});
  expect_input_error([] { load("contact: {}\n"); }, {"contact", "nothing enabled"});
}

TEST(ContactScene, RejectsFrictionWithoutContact) {
  expect_input_error([] { load("contact: {ground: {enabled: false, friction: 0.4}}\n"); },
                     {"contact.ground.friction", "0.4", "friction needs contact"});
  expect_input_error([] { load("contact: {ground: {}, self: {enabled: false, friction: 0.2}}\n"); },
                     {"contact.self.friction", "0.2"});
}

TEST(ContactScene, RejectsAnObstacleThatStartsInsideARod) {
  // the rod lies at z = 0.01 with radius 2 mm: a sphere around its middle node, a ground above it
  expect_input_error(
      [] {
        load("contact: {obstacles: [{shape: sphere, center: [0.04, 0, 0.01], radius: 0.005}]}\n");
      },
      {"contact.obstacles[0]", "rods[0].nodes[2] at", "inside", "gap >= 0"});
  expect_input_error([] { load("contact: {ground: {point: [0, 0, 0.009]}}\n"); },
                     {"contact.ground", "inside"});
}

TEST(ContactScene, RejectsTheMidpointRuleWithContact) {
  expect_input_error(
      [] { load("contact: {ground: {}}\nintegrator: {type: implicit_midpoint, dt: 1.0e-4}\n"); },
      {"integrator.type", "implicit_midpoint", "implicit_euler or static with contact"});
}

TEST(ContactScene, RejectsBodiesThatStartIntersecting) {
  // a second rod crossing the first (radius 2 mm, at z = 0.01) through its centre line, then 1 mm
  // above it (surfaces overlap by 3 mm), then resting on it (overlap 5e-5 m < delta): accepted
  const auto crossing = [](double z) {
    return load_rod_scene_text(kRod + fmt::format(R"(
  - geometry: {{type: straight, start: [0.05, -0.05, {}], end: [0.05, 0.05, {}], num_nodes: 5}}
    material: {{E: 1.0e6, nu: 0.3, density: 1000, radius: 0.002}}
contact: {{self: {{}}}}
)",
                                                  z, z));
  };
  expect_input_error(
      [&] { crossing(0.01); },
      {"contact.self",
       "the edges rods[0].nodes[2]-rods[0].nodes[3] and rods[1].nodes[1]-rods[1].nodes[2]",
       "intersect", "overlap by 0.004 m", "start apart"});
  expect_input_error([&] { crossing(0.011); },
                     {"contact.self", "centre lines 0.001 m apart", "overlap by 0.003 m"});
  EXPECT_NO_THROW(crossing(0.01 + 0.004 - 5e-5));
  // a rod through a sheet (thickness 1 mm at z = 0.005): its node 2 lies in the sheet's plane
  expect_input_error(
      [] {
        load_rod_scene_text(R"(
duration: 0.01
rods:
  - geometry: {type: straight, start: [0.03, 0.01, -0.005], end: [0.03, 0.01, 0.015], num_nodes: 5}
    material: {E: 1.0e6, nu: 0.3, density: 1000, radius: 0.001}
shells:
  - geometry: {type: rectangle, length: 0.1, width: 0.1, nodes_x: 3, nodes_y: 3, pattern: right, origin: [0, -0.05, 0.005]}
    material: {E: 1.0e6, nu: 0.3, density: 100, thickness: 0.001}
contact: {self: {}}
)");
      },
      {"contact.self", "intersect", "shells[0].nodes"});
}

TEST(ContactScene, RejectsARodThroughASheetBetweenItsNodes) {
  // a vertical rod edge (r = 1 mm, one edge from z = -0.005 to 0.015) through the 3 x 3-node sheet
  // (h = 1 mm at z = 0.005) at (0.04, 0.02): its nodes are 1 cm from the sheet and the sheet's
  // edges 7 mm or more from it, so no node-triangle or edge-edge pair overlaps; the edge crosses
  // the sheet's mid-surface at (0.04, 0.02, 0.005), where the surfaces overlap by r + h / 2
  const auto rod_at = [](double x) {
    return fmt::format(R"(
duration: 0.01
rods:
  - geometry: {{type: straight, start: [{x}, 0.02, -0.005], end: [{x}, 0.02, 0.015], num_nodes: 2}}
    material: {{E: 1.0e6, nu: 0.3, density: 1000, radius: 0.001}}
shells:
  - geometry: {{type: rectangle, length: 0.1, width: 0.1, nodes_x: 3, nodes_y: 3, pattern: right, origin: [0, -0.05, 0.005]}}
    material: {{E: 1.0e6, nu: 0.3, density: 100, thickness: 0.001}}
contact: {{self: {{}}}}
)",
                       fmt::arg("x", x));
  };
  expect_input_error([&] { load_rod_scene_text(rod_at(0.04)); },
                     {"contact.self", "the edge rods[0].nodes[0]-rods[0].nodes[1]",
                      "passes through the triangle shells[0].nodes[", "at (0.04, 0.02, 0.005) m",
                      "overlap by 0.0015 m", "start apart"});
  // beside the sheet (x = 0.12 > 0.1): accepted
  EXPECT_NO_THROW(load_rod_scene_text(rod_at(0.12)));
}

TEST(ContactScene, RejectsAnEdgeThroughAnObstacleBetweenItsNodes) {
  // the rod (r = 2 mm, nodes 2 cm apart at z = 0.01) across obstacles centred under the middle of
  // its edge 1-2 at x = 0.03, 1 cm from its nodes: a sphere (R = 5 mm), a capsule across it
  // (R = 4 mm) and a thin plate (a box 2 mm thick): no node overlaps them, the edge's centre line
  // passes through each, so its surface overlaps by r + R (r + 1 mm for the plate)
  const std::string edge = "the edge rods[0].nodes[1]-rods[0].nodes[2] overlaps it by ";
  expect_input_error(
      [] {
        load("contact: {obstacles: [{shape: sphere, center: [0.03, 0, 0.01], radius: 0.005}]}\n");
      },
      {"contact.obstacles[0]", edge + "0.007 m", "centre line -0.005 m from the surface",
       "min(delta, r / 2)"});
  expect_input_error(
      [] {
        load(
            "contact: {obstacles: [{shape: capsule, p0: [0.03, -0.05, 0.01], p1: [0.03, 0.05, "
            "0.01], radius: 0.004}]}\n");
      },
      {"contact.obstacles[0]", edge + "0.006 m", "centre line -0.004 m"});
  expect_input_error(
      [] {
        load(
            "contact: {obstacles: [{shape: box, center: [0.03, 0, 0.01], half_extents: [0.001, "
            "0.05, 0.05]}]}\n");
      },
      {"contact.obstacles[0]", edge + "0.003 m", "centre line -0.001 m"});
  // a sphere below the edge's middle overlapping its surface by 0.5 mm (allowed: min(delta, r / 2)
  // = 1 mm) is accepted, by 1.5 mm refused
  const auto sphere_below = [](double overlap) {
    return fmt::format(
        "contact: {{obstacles: [{{shape: sphere, center: [0.03, 0, {}], radius: 0.005}}]}}\n",
        0.01 - 0.002 - 0.005 + overlap);
  };
  EXPECT_NO_THROW(load(sphere_below(5e-4)));
  expect_input_error([&] { load(sphere_below(1.5e-3)); }, {edge + "0.0015 m"});
}

// the rod above a 3 x 3-node sheet (8 triangles, 16 edges, thickness 1 mm) at z = 0.005
const std::string kSheet = R"(
shells:
  - geometry: {type: rectangle, length: 0.1, width: 0.1, nodes_x: 3, nodes_y: 3, pattern: right, origin: [0, -0.05, 0.005]}
    material: {E: 1.0e6, nu: 0.3, density: 100, thickness: 0.001}
)";

TEST(ContactScene, ShellsTakePartInGroundObstaclesAndSelfContact) {
  const RodScene s = load(kSheet + "contact: {ground: {}, self: {friction: 0.2}}\n");
  EXPECT_EQ(count<contact::ObstacleContact>(s), 1);
  EXPECT_EQ(count<contact::SelfContact>(s), 1);
  EXPECT_EQ(count<contact::PointTriangleContact>(s), 1);
  EXPECT_EQ(count<contact::SelfFriction>(s), 1);
  EXPECT_EQ(count<contact::PointTriangleFriction>(s), 1);
  for (const auto& e : s.model.energies) {
    if (const auto* c = dynamic_cast<const contact::ObstacleContact*>(e.get())) {
      // 6 rod nodes (radius 2 mm) and 9 shell nodes (half the thickness)
      ASSERT_EQ(c->nodes().nodes.size(), 15u);
      EXPECT_EQ(c->nodes().radius[0], 0.002);
      EXPECT_EQ(c->nodes().radius[14], 0.0005);
    }
    if (const auto* c = dynamic_cast<const contact::SelfContact*>(e.get())) {
      EXPECT_EQ(c->pairs().edges().nodes.size(), 5u + 16u);  // rod edges and shell edges
      EXPECT_EQ(c->pairs().edges().radius.back(), 0.0005);
    }
    if (const auto* c = dynamic_cast<const contact::PointTriangleContact*>(e.get())) {
      EXPECT_EQ(c->pairs().points().nodes.size(), 15u);
      EXPECT_EQ(c->pairs().triangles().nodes.size(), 8u);
    }
  }
  // only the rod: no triangles, no point-triangle term; only the sheet: 9 nodes on the ground
  EXPECT_EQ(
      count<contact::PointTriangleContact>(load(kSheet + "contact: {shells: [], self: {}}\n")), 0);
  const RodScene sheet_only = load(kSheet + "contact: {rods: [], ground: {}}\n");
  for (const auto& e : sheet_only.model.energies)
    if (const auto* c = dynamic_cast<const contact::ObstacleContact*>(e.get())) {
      EXPECT_EQ(c->nodes().nodes.size(), 9u);
    }
}

TEST(ContactScene, RejectsABadShellIndexAndAnObstacleInsideAShell) {
  expect_input_error([] { load(kSheet + "contact: {shells: [1], ground: {}}\n"); },
                     {"contact.shells[0]", "1", "a shell index in 0..0"});
  expect_input_error([] { load("contact: {shells: [0], ground: {}}\n"); },
                     {"contact.shells[0]", "no shells"});
  // the sheet's surface is 0.5 mm below its mid-surface at z = 0.005: a ground at z = 0.0046 cuts
  // it
  expect_input_error(
      [] { load(kSheet + "contact: {rods: [], ground: {point: [0, 0, 0.0046]}}\n"); },
      {"contact.ground", "shells[0].nodes[0] at", "inside", "shell's surface"});
}

}  // namespace
}  // namespace tendril::sim
