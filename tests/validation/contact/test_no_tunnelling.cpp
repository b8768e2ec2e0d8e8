// No tunnelling (the contact issue, "a step never lets an edge pass through another", as IPC codes
// guarantee by limiting the line search with a continuous collision check; Li et al. 2020, 2021):
// a thin rod (r = 0.5 mm) is driven onto another at a time step in which free flight would carry
// it 0.3 m, 75 times the 4 mm gap. With the check, the crossing edges stay on their side at every
// step and the rod comes to rest on the other; without it the very first step passes through.
// Over four decades of speed (1e-3 to 10 m/s) at dt = 1e-2 s, a rod falling onto another rod or
// onto a sheet between its nodes never crosses it, by the exact distances computed here.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "exact_distances.hpp"
#include "tendril/contact/distance/edge_edge_distance.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril {
namespace {

const std::string kScene = R"(
duration: 0.2
rods:
  - geometry: {type: straight, start: [-0.03, 0, 0.004], end: [0.03, 0, 0.004], num_nodes: 4}
    material: {E: 1.0e7, nu: 0.3, density: 1000, radius: 0.0005}
  - geometry: {type: straight, start: [0, -0.03, 0], end: [0, 0.03, 0], num_nodes: 4}
    material: {E: 1.0e7, nu: 0.3, density: 1000, radius: 0.0005}
boundary_conditions:
  fixed_nodes: [{rod: 1, nodes: [0, -1]}]
  fixed_dofs: [{rod: 0, node: 0, components: [x, y]}, {rod: 0, node: -1, components: [x, y]}]
  fixed_twists: [{rod: 0, edges: [0]}, {rod: 1, edges: [0]}]
forces:
  point_loads: [{rod: 0, node: 1, force: [0, 0, -0.05]}, {rod: 0, node: 2, force: [0, 0, -0.05]}]
contact:
  stiffness: 1000
  distance_tolerance: 1.0e-4
  self: {}
integrator: {type: implicit_euler, dt: 1.0e-2}
)";

// signed distance of rod 0's middle edge (nodes 1, 2) above rod 1's middle edge (nodes 5, 6) along
// the normal of both: its sign flips when one passes through the other
double side(const VecX& q) {
  const Vec3 a0 = q.segment<3>(3), a1 = q.segment<3>(6), b0 = q.segment<3>(15),
             b1 = q.segment<3>(18);
  const contact::SegmentClosestPoints c = contact::segment_closest_points(a0, a1, b0, b1);
  return c.w.dot((a1 - a0).cross(b1 - b0).normalized());
}

TEST(NoTunnelling, FastThinRodStaysOnItsSideWithTheCollisionCheck) {
  sim::Simulation sim(sim::load_rod_scene_text(kScene));
  ASSERT_GT(side(sim.state().q), 0.0);
  for (int step = 0; step < 20; ++step) {
    const StepReport report = sim.step();
    ASSERT_TRUE(report.ok()) << "step " << step << ": " << report.message;
    ASSERT_GT(side(sim.state().q), 0.0) << "rod 0 passed through rod 1 at step " << step;
  }
  // at rest on the other rod: the contact carries the load 0.1 N through the deep-contact spring
  // 2 k_c, so the centre lines are about 2 r - 0.1 / 2000 = 0.95 mm apart
  EXPECT_NEAR(side(sim.state().q), 0.001 - 0.1 / 2000.0, 2e-5);
}

TEST(NoTunnelling, WithoutTheCheckTheSameStepPassesThrough) {
  sim::Simulation sim(sim::load_rod_scene_text(kScene, {"contact.self.collision_check=false"}));
  const StepReport report = sim.step();
  ASSERT_TRUE(report.ok()) << report.message;
  EXPECT_LT(side(sim.state().q), 0.0);
}

TEST(NoTunnelling, FastStiffImpactCompletesAtTheUsersDtWithSubsteps) {
  // the thin rod thrown at 5 m/s onto the held one with k_c = 1e4 N/m at dt = 1e-3 s (5 mm, 10
  // diameters, per step): the impact needs smaller steps, which the stepper takes within the step
  // (halving dt where the Newton solve fails, growing it back after); the run keeps dt = 1e-3 s
  sim::Simulation sim(sim::load_rod_scene_text(
      kScene,
      {"forces.point_loads=[]", "contact.stiffness=1.0e4", "integrator.dt=1.0e-3", "duration=0.05",
       "initial_conditions={velocities: [{rod: 0, nodes: [1, 2], velocity: [0, 0, -5]}]}"}));
  int split = 0;
  for (int step = 0; step < 50; ++step) {
    const StepReport report = sim.step();
    ASSERT_TRUE(report.ok()) << "step " << step << ": " << report.message;
    ASSERT_GT(side(sim.state().q), 0.0) << "rod 0 passed through rod 1 at step " << step;
    EXPECT_NEAR(sim.state().time, (step + 1) * 1e-3, 1e-12);
    EXPECT_GE(report.substeps, 1);
    if (report.substeps > 1) ++split;
  }
  EXPECT_GT(split, 0);  // the impact was resolved by substeps, counted in the step report
}

/// Steps the simulation `steps` times; after each, check(step) asserts on its state.
template <class Check>
void step_checking(sim::Simulation& sim, int steps, Check check) {
  for (int step = 0; step < steps; ++step) {
    const StepReport report = sim.step();
    ASSERT_TRUE(report.ok()) << "step " << step << ": " << report.message;
    check(step);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

/// Start gap for a fall at `speed` [m/s] at dt = 1e-2 s (20 steps of free flight, at most
/// `most` [m]) and the steps until free flight would have carried the body 2 cm past touching (at
/// most 300).
std::pair<double, int> fall(double speed, double most) {
  const double gap0 = std::min(most, 20.0 * speed * 1e-2);
  return {gap0, std::min(300, static_cast<int>(std::ceil((gap0 + 0.02) / (speed * 1e-2))))};
}

/// Rod 0 (4 nodes, r = 0.5 mm) falls flat at `speed` [m/s] across rod 1 (held at its ends) at
/// dt = 1e-2 s; at the end of every step no pair of their edges is closer than 0 (the exact segment
/// distance) and rod 0 is above rod 1 where they cross. The scene has no load and no tolerance of
/// its own: once the rods rest, Newton's relative tolerance falls to ~1e-30 N, far below round-off,
/// and the solve ends at the round-off floor (positions counted at least at the nodes' spacing).
void drop_rod_on_rod(double speed) {
  SCOPED_TRACE(fmt::format("{:g} m/s", speed));
  const auto [gap0, steps] = fall(speed, 3e-3);
  sim::Simulation sim(sim::load_rod_scene_text(fmt::format(
      R"(
duration: 10
rods:
  - geometry: {{type: straight, start: [-0.03, 0, {z}], end: [0.03, 0, {z}], num_nodes: 4}}
    material: {{E: 1.0e7, nu: 0.3, density: 1000, radius: 0.0005}}
  - geometry: {{type: straight, start: [0, -0.03, 0], end: [0, 0.03, 0], num_nodes: 4}}
    material: {{E: 1.0e7, nu: 0.3, density: 1000, radius: 0.0005}}
boundary_conditions:
  fixed_nodes: [{{rod: 1, nodes: [0, -1]}}]
  fixed_twists: [{{rod: 1, edges: [0]}}]
initial_conditions: {{velocities: [{{rod: 0, velocity: [0, 0, {v}]}}]}}
contact: {{stiffness: 1.0e4, distance_tolerance: 1.0e-4, self: {{}}}}
integrator: {{type: implicit_euler, dt: 1.0e-2}}
)",
      fmt::arg("z", 0.001 + gap0), fmt::arg("v", -speed))));
  step_checking(sim, steps, [&](int step) {
    const VecX& q = sim.state().q;
    for (int i = 0; i < 3; ++i)
      for (int j = 4; j < 7; ++j)
        ASSERT_GT(testing::segment_segment_distance(q.segment<3>(3 * i), q.segment<3>(3 * i + 3),
                                                    q.segment<3>(3 * j), q.segment<3>(3 * j + 3)),
                  0.0)
            << "edges " << i << ", " << j << " at step " << step;
    ASSERT_GT(testing::crossing_coordinate(q, 0, 4, 0, 0.0, 2),
              testing::crossing_coordinate(q, 4, 4, 1, 0.0, 2))
        << "rod 0 passed through rod 1 at step " << step;
  });
}

TEST(NoTunnelling, RodFallingOnARodAtAnySpeedNeverCrossesIt) {
  // four decades at dt = 1e-2 s: 10 um to 10 cm (100 diameters) per step
  for (double speed : {1e-3, 1e-2, 0.1, 1.0, 10.0}) drop_rod_on_rod(speed);
}

/// A rod (4 nodes, r = 0.5 mm, 2 cm edges) falls flat at `speed` [m/s] onto a fixed sheet
/// (h = 1 mm, 3 x 3 nodes, 5 cm triangles, mid-surface z = 0, |x|, |y| <= 5 cm) between its nodes
/// at dt = 1e-2 s; at the end of every step the exact distance of every rod edge from the sheet's
/// mid-surface is positive and every rod node is above it.
void drop_rod_on_sheet(double speed) {
  SCOPED_TRACE(fmt::format("{:g} m/s", speed));
  const auto [gap0, steps] = fall(speed, 5e-3);
  const std::string scene = fmt::format(
      R"(
duration: 10
rods:
  - geometry: {{type: straight, start: [-0.03, 0.013, {z}], end: [0.03, 0.013, {z}], num_nodes: 4}}
    material: {{E: 1.0e7, nu: 0.3, density: 1000, radius: 0.0005}}
shells:
  - geometry: {{type: rectangle, length: 0.1, width: 0.1, nodes_x: 3, nodes_y: 3, pattern: right,
                origin: [-0.05, -0.05, 0]}}
    material: {{E: 1.0e6, nu: 0.3, density: 100, thickness: 0.001}}
    fixed_nodes: [0, 1, 2, 3, 4, 5, 6, 7, 8]
initial_conditions: {{velocities: [{{rod: 0, velocity: [0, 0, {v}]}}]}}
contact: {{stiffness: 1.0e4, distance_tolerance: 1.0e-4, self: {{}}}}
integrator: {{type: implicit_euler, dt: 1.0e-2}}
)",
      fmt::arg("z", 0.001 + gap0), fmt::arg("v", -speed));
  sim::Simulation sim(sim::load_rod_scene_text(scene));
  // the distance of x from the sheet's mid-surface, the square |x|, |y| <= 5 cm at z = 0
  const auto sheet = [](const Vec3& x) {
    return Vec3(x.x() - std::clamp(x.x(), -0.05, 0.05), x.y() - std::clamp(x.y(), -0.05, 0.05),
                x.z())
        .norm();
  };
  step_checking(sim, steps, [&](int step) {
    const VecX& q = sim.state().q;
    for (int i = 0; i < 4; ++i) ASSERT_GT(q[3 * i + 2], 0.0) << "node " << i << ", step " << step;
    for (int i = 0; i < 3; ++i) {
      const Vec3 a = q.segment<3>(3 * i), b = q.segment<3>(3 * i + 3);
      ASSERT_GT(testing::convex_minimum([&](double s) { return sheet(a + s * (b - a)); }), 0.0)
          << "edge " << i << " at step " << step;
    }
  });
}

TEST(NoTunnelling, RodFallingOnASheetAtAnySpeedNeverCrossesIt) {
  for (double speed : {1e-3, 1e-2, 0.1, 1.0, 10.0}) drop_rod_on_sheet(speed);
}

}  // namespace
}  // namespace tendril
