// No tunnelling (the contact issue, "a step never lets an edge pass through another", as IPC codes
// guarantee by limiting the line search with a continuous collision check; Li et al. 2020, 2021):
// a thin rod (r = 0.5 mm) is driven onto another at a time step in which free flight would carry
// it 0.3 m, 75 times the 4 mm gap. With the check, the crossing edges stay on their side at every
// step and the rod comes to rest on the other; without it the very first step passes through.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace tendril
