// Gradients of whole runs through contact and friction between a rod and a shell (IMC
// point-triangle and edge-edge contact), against central differences of whole runs
// (gradient_case.hpp): the example rod_on_trampoline.yaml with the rod landing on the trampoline
// and sliding across it.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/source_tree.hpp"
#include "tendril/adjoint/contact_parameters.hpp"
#include "tendril/adjoint/run_gradient.hpp"
#include "tendril/contact/point_triangle_contact.hpp"
#include "tendril/sim/rod_scene.hpp"
#include "validation/adjoint/gradient_case.hpp"

namespace tendril {
namespace {

/// rod_on_trampoline.yaml (a 9-node rod, r 2 mm, over an 8 x 8 cm membrane clamped at its rim;
/// k_c 100 N/m, delta 0.2 mm, mu 0.3) with the rod's axis at 6.2 mm above the membrane (4 mm
/// apart), moving at (0.1, 0, -1) m/s: it lands within 5 ms and slides; 12 steps of 1 ms, Newton to
/// its round-off floor. L: the rod's middle node's
/// distance to a point at the end plus the time integral of its height. Parameters: E (rod and
/// shell), rho, k_c of the rod-rod and rod-shell contacts, mu of their friction.
test::GradientCase rod_on_trampoline() {
  const sim::RodScene scene = sim::load_rod_scene_file(
      testing::source_tree() / "examples" / "rod_on_trampoline.yaml",
      {"rods.0.geometry.start=[0.02, 0.03, 0.0062]", "rods.0.geometry.end=[0.06, 0.05, 0.0062]",
       "initial_conditions.velocities=[{velocity: [0.1, 0, -1]}]",
       "integrator.newton.force_tolerance=1e-14", "integrator.newton.force_tolerance_abs=1e-11"});
  test::GradientCase c;
  c.model = scene.model;
  c.initial.q = scene.q_initial;
  c.initial.u = scene.u_initial;
  initialize_frames(c.model, c.initial.q, c.initial.frames);
  c.options = scene.dynamics;
  c.steps = 12;
  const int middle = scene.rod_nodes[0][4];
  c.objective = adjoint::sum(
      {adjoint::distance_to_targets(c.model, {{middle, 12, {0.045, 0.04, 0.0}}}),
       adjoint::position_time_integral(c.model, middle, Vec3(1.0, 0.5, 100.0), c.options.dt)});
  c.parameters = {adjoint::youngs_modulus(c.model, 1e6), adjoint::density(c.model, 1200.0)};
  std::vector<adjoint::Parameter> stiffness, friction;
  for (const adjoint::ContactTerm& t : adjoint::contact_terms(c.model)) {
    stiffness.push_back(adjoint::contact_stiffness(c.model, t.energy, t.friction));
    friction.push_back(
        adjoint::friction_coefficient(c.model, t.energy, static_cast<std::size_t>(t.friction)));
  }
  for (auto* parts : {&stiffness, &friction})
    c.parameters.push_back(
        {parts->front().name, parts->front().value, [parts = *parts](Model& m, double value) {
           for (const adjoint::Parameter& p : parts) p.apply(m, value);
         }});
  return c;
}

/// The contacts close within the run and pairs open and close as the rod slides from triangle to
/// triangle (the count of active pairs changes): the penalty vanishes smoothly at its cut-off and
/// the gradient holds, with the Jacobian of the pairs active at each step's end.
TEST(RodShellGradients, RodLandingAndSlidingOnAMembrane) {
  const test::GradientCase c = rod_on_trampoline();
  ASSERT_EQ(adjoint::contact_terms(c.model).size(), 2u) << "edge-edge and point-triangle";
  const adjoint::RunGradient g =
      test::expect_gradient_matches_differences(c, {c.model.dofs.node(4) + 1});
  EXPECT_GT(g.contact_switches, 0);
}

}  // namespace
}  // namespace tendril

namespace tendril {
namespace {

/// The point-triangle pairs in contact at `state` (the second contact term's), each in state
/// `expected` (1 sticking, 2 slipping); returns how many.
std::size_t expect_node_triangle_pairs_in_state(const Model& model, const State& state,
                                                std::uint8_t expected) {
  const adjoint::ContactStates states = adjoint::contact_states(model, state);
  EXPECT_EQ(states.pairs.size(), 2u) << "edge-edge and point-triangle pairs";
  if (states.pairs.size() < 2) return 0;
  for (const adjoint::PairState& p : states.pairs[1]) EXPECT_EQ(p.state, expected);
  return states.pairs[1].size();
}

/// The rod of rod_on_trampoline.yaml resting on the membrane made rigid (every node fixed), its
/// axis 0.1 mm inside the contact distance, sliding at 0.1 m/s along x: friction (mu 0.3) stops it
/// within about 35 ms of the 60 ms run. Every node-triangle pair in contact at the start slips;
/// at the end the pairs in contact all stick, so each pair of the start has switched (to sticking,
/// or opened as the rod settled), and contact_switches counts them.
TEST(RodShellGradients, RunCountsStickAndSlipOfARodOnAShell) {
  std::string fixed = "shells.0.fixed_nodes=[0";
  for (int i = 1; i < 81; ++i) fixed += ", " + std::to_string(i);
  const sim::RodScene scene = sim::load_rod_scene_file(
      testing::source_tree() / "examples" / "rod_on_trampoline.yaml",
      {"rods.0.geometry.start=[0.02, 0.03, 0.00235]", "rods.0.geometry.end=[0.06, 0.05, 0.00235]",
       "initial_conditions.velocities=[{velocity: [0.1, 0, 0]}]", fixed + "]",
       "integrator.newton.force_tolerance_abs=1e-11"});
  State initial;
  initial.q = scene.q_initial;
  initial.u = scene.u_initial;
  initialize_frames(scene.model, initial.q, initial.frames);
  const std::size_t slipping = expect_node_triangle_pairs_in_state(scene.model, initial, 2);
  EXPECT_GE(slipping, 9u) << "every rod node on a triangle";
  const adjoint::Objective objective =
      adjoint::distance_to_targets(scene.model, {{scene.rod_nodes[0][4], 60, Vec3::Zero()}});
  const adjoint::RunGradient g =
      adjoint::run_with_gradient(scene.model, scene.dynamics, initial, 60, objective, {});
  ASSERT_TRUE(g.ok) << g.message;
  // every pair slipping at the start is open or sticking at the end: each switched at least once
  EXPECT_GT(expect_node_triangle_pairs_in_state(scene.model, g.final_state, 1), 0u);
  EXPECT_GE(g.contact_switches, static_cast<int>(slipping));
}

}  // namespace
}  // namespace tendril
