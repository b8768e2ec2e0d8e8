// Two crossed rods pressed together (mat_dismech sec. 4, IMC self-contact): rod A lies across rod
// B, B is held at its ends, A is pushed down by a force F at its middle and can only move
// vertically at its ends. At static equilibrium the contact transmits exactly F (force balance on
// A) and B receives -F (Newton's third law), to the Newton tolerance.
#include <gtest/gtest.h>

#include "tendril/contact/self_contact.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril {
namespace {

TEST(CrossedRods, ContactTransmitsTheAppliedForce) {
  // radius 1 mm each, crossing at mid-edge; the centrelines start 2 r - F / (2 k_c) apart, near the
  // equilibrium of the deep-contact spring 2 k_c
  const std::string scene = R"(
duration: 0
rods:
  - geometry: {type: straight, start: [-0.03, 0, 0.00195], end: [0.03, 0, 0.00195], num_nodes: 4}
    material: {E: 1.0e7, nu: 0.3, density: 1000, radius: 0.001}
  - geometry: {type: straight, start: [0, -0.03, 0], end: [0, 0.03, 0], num_nodes: 4}
    material: {E: 1.0e7, nu: 0.3, density: 1000, radius: 0.001}
boundary_conditions:
  fixed_nodes: [{rod: 1, nodes: [0, -1]}]
  fixed_dofs: [{rod: 0, node: 0, components: [x, y]}, {rod: 0, node: -1, components: [x, y]}]
  fixed_twists: [{rod: 0, edges: [0]}, {rod: 1, edges: [0]}]
forces:
  point_loads: [{rod: 0, node: 1, force: [0, 0, -0.005]}, {rod: 0, node: 2, force: [0, 0, -0.005]}]
contact:
  stiffness: 100
  distance_tolerance: 1.0e-4
  self: {}
integrator: {type: static}
)";
  sim::Simulation sim(sim::load_rod_scene_text(scene));
  const StepReport report = sim.step();
  ASSERT_TRUE(report.ok()) << report.message;
  const Model& m = sim.model();
  Kinematics kin;
  compute_kinematics(m, sim.state().frames, sim.state().q, kin);
  const EvalInput in{m, sim.state().q, sim.state().u, 0.0, kin};
  VecX gradient = VecX::Zero(m.dofs.size());
  EnergyOutput out;
  out.gradient = &gradient;
  for (const auto& e : m.energies)
    if (dynamic_cast<const contact::SelfContact*>(e.get())) e->accumulate(in, out);
  Vec3 on_a = Vec3::Zero(), on_b = Vec3::Zero();
  for (int i = 0; i < 4; ++i) on_a -= gradient.segment<3>(3 * i);
  for (int i = 4; i < 8; ++i) on_b -= gradient.segment<3>(3 * i);
  EXPECT_NEAR(on_a.z(), 0.01, 1e-6 * 0.01);
  EXPECT_NEAR(on_b.z(), -0.01, 1e-6 * 0.01);
  EXPECT_LT(on_a.head<2>().norm(), 1e-9);
  const contact::ContactStatistics stats = sim.contact_statistics();
  EXPECT_EQ(stats.active, 1);
  EXPECT_LT(stats.min_gap, 0.0);  // pressed into each other
}

}  // namespace
}  // namespace tendril
