// Gradients of whole runs through IMC contact and friction with the ground, against central
// differences of whole runs (gradient_case.hpp): a rod sliding on the ground and a rod held by
// static friction, separately, each without a change of contact state within the run (the
// smooth laws are differentiable there), and a rod sliding across another (edge-edge contact and
// friction); and the count of state changes a run reports when a sliding rod comes to rest.
#include <memory>

#include <gtest/gtest.h>

#include "tendril/adjoint/contact_parameters.hpp"
#include "tendril/adjoint/run_gradient.hpp"
#include "tendril/contact/friction/obstacle_friction.hpp"
#include "tendril/contact/friction/self_friction.hpp"
#include "tendril/contact/obstacle_contact.hpp"
#include "tendril/contact/self_contact.hpp"
#include "tendril/forces/gravity.hpp"
#include "tendril/forces/point_load.hpp"
#include "validation/adjoint/gradient_case.hpp"
#include "validation/adjoint/rod_across_rail.hpp"

namespace tendril {
namespace {

/// The rod (11 nodes, L 1 m, r 5 mm, E 1e7 Pa, rho 1273.52 kg/m^3), free, lying along x on
/// the ground z = 0 (its nodes at height r) under gravity, with node contact (k_c 1e3 N/m, delta
/// 1 mm, contact radius r) and friction (mu 0.4, nu 1 mm/s); 40 steps of 2 ms. The parameters
/// are rho, k_c and mu (E is not: the straight rod hardly bends, dL/dE ~ 1e-16, below what
/// whole-run differences resolve).
test::GradientCase rod_on_ground() {
  test::GradientCase c = test::cantilever();
  std::fill(c.model.fixed.begin(), c.model.fixed.end(), std::uint8_t{0});
  contact::ContactNodes nodes;
  for (int i = 0; i < 11; ++i) {
    nodes.nodes.push_back(i);
    nodes.radius.push_back(5e-3);
    c.initial.q[c.model.dofs.node(i) + 2] = 5e-3;
  }
  initialize_frames(c.model, c.initial.q, c.initial.frames);
  const contact::ContactParameters params{
      .stiffness = 1e3, .distance_tolerance = 1e-3, .slip_tolerance = 1e-3, .friction = 0.4};
  const auto ground = std::make_shared<contact::HalfSpace>(Vec3::Zero(), Vec3::UnitZ());
  c.model.energies.push_back(std::make_shared<contact::ObstacleContact>(ground, nodes, params));
  c.model.forces.push_back(std::make_shared<contact::ObstacleFriction>(ground, nodes, params));
  c.steps = 40;
  // the first step's residual can stall at 9e-12 N, above its relative tolerance and not caught by
  // the round-off test (a load-free start; the Newton stopping floor of contact scenes): such a
  // step would be split in two at some parameter values and not at others, a jump in L
  c.options.newton.force_tolerance_abs = 1e-11;
  c.objective = adjoint::sum(
      {adjoint::distance_to_targets(c.model,
                                    {{10, 40, {1.1, 0.02, 0.0}}, {3, 40, {0.3, 0.0, 0.0}}}),
       adjoint::position_time_integral(c.model, 5, Vec3(1.0, 0.5, 100.0), c.options.dt)});
  c.parameters = {adjoint::density(c.model, 1273.52),
                  adjoint::contact_stiffness(c.model, c.model.energies.size() - 1, 0),
                  adjoint::friction_coefficient(c.model, c.model.energies.size() - 1, 0)};
  return c;
}

/// Every node in contact and in the given state (1 sticking, 2 slipping) at `state`.
void expect_all_in_state(const test::GradientCase& c, const State& state, std::uint8_t expected) {
  for (std::uint8_t s : adjoint::contact_states(c.model, state).nodes) EXPECT_EQ(s, expected);
}

/// Sliding along x (and a little along y) at 0.5 m/s: friction decelerates it by about mu g =
/// 3.9 m/s^2, so it slides throughout the 80 ms.
TEST(ContactGradients, RodSlidingOnTheGround) {
  test::GradientCase c = rod_on_ground();
  for (int i = 0; i < 11; ++i) c.initial.u.segment<3>(c.model.dofs.node(i)) = Vec3(0.5, 0.1, 0.0);
  const adjoint::RunGradient g = test::expect_gradient_matches_differences(
      c, {c.model.dofs.node(10), c.model.dofs.node(4) + 1}, {c.model.dofs.node(7) + 1});
  EXPECT_EQ(g.contact_switches, 0);
  expect_all_in_state(c, g.final_state, 2);
}

/// At rest on the ground, pushed along x at one end by a force growing to 0.1 N, a quarter of the
/// friction limit mu m g = 0.39 N: static friction holds it (the smooth law's creep stays below
/// nu; it reaches 0.4 nu). The initial velocities are not checked here: the stiff stick law
/// (K2 = 15 / nu) damps them within a step, their gradient is 1e-4 of mu's and cancels to where
/// whole-run differences and the adjoint agree to 4e-5 only.
TEST(ContactGradients, RodStickingOnTheGround) {
  test::GradientCase c = rod_on_ground();
  c.model.forces.push_back(
      std::make_shared<PointLoad>(0, [](double t) { return Vec3(1.25 * t, 0.0, 0.0); }));
  // the creep along x, which mu sets, weighed by 1e3
  c.objective = adjoint::sum({c.objective, adjoint::position_time_integral(
                                               c.model, 0, Vec3(1e3, 0.0, 0.0), c.options.dt)});
  const adjoint::RunGradient g =
      test::expect_gradient_matches_differences(c, {}, {c.model.dofs.node(7) + 1});
  EXPECT_EQ(g.contact_switches, 0);
  expect_all_in_state(c, g.final_state, 1);
}

/// Sliding at 0.1 m/s, the rod stops within about 26 ms of the 80 ms run: every node switches
/// from slipping to sticking, and the run says so.
TEST(ContactGradients, RunCountsTheSwitchesOfContactState) {
  test::GradientCase c = rod_on_ground();
  for (int i = 0; i < 11; ++i) c.initial.u[c.model.dofs.node(i)] = 0.1;
  const adjoint::RunGradient g =
      adjoint::run_with_gradient(c.model, c.options, c.initial, c.steps, c.objective, c.parameters);
  ASSERT_TRUE(g.ok) << g.message;
  EXPECT_GE(g.contact_switches, 11);
  expect_all_in_state(c, g.final_state, 1);
}

}  // namespace
}  // namespace tendril

namespace tendril {
namespace {

/// The rod-rod pairs in contact at `state`, each in state `expected` (1 sticking, 2 slipping);
/// returns how many.
std::size_t expect_pairs_in_state(const test::GradientCase& c, const State& state,
                                  std::uint8_t expected) {
  const adjoint::ContactStates states = adjoint::contact_states(c.model, state);
  EXPECT_EQ(states.pairs.size(), 1u);
  for (const adjoint::PairState& p : states.pairs.at(0)) EXPECT_EQ(p.state, expected);
  return states.pairs.at(0).size();
}

void expect_no_pairs_in_contact(const test::GradientCase& c, const State& state) {
  EXPECT_EQ(expect_pairs_in_state(c, state, 1), 0u);
}

/// Touching the rail and sliding along it at 0.5 m/s: the contact stays on the same edge pairs
/// (those at the free rod's middle node and the rail's edge 5) and slipping.
TEST(ContactGradients, RodSlidingOnARod) {
  const test::GradientCase c = test::rod_across_rail_case(1e-2, Vec3(0.5, 0.0, 0.0));
  const adjoint::RunGradient g = test::expect_gradient_matches_differences(
      c, {c.model.dofs.node(13), c.model.dofs.node(12) + 1}, {c.model.dofs.node(14) + 2});
  EXPECT_EQ(g.contact_switches, 0);
  EXPECT_GT(expect_pairs_in_state(c, g.final_state, 2), 0u);
  EXPECT_GT(g.final_state.q[c.model.dofs.node(13)], 0.01) << "it slides";
  // the gap between the axes' distance and the radii stays below delta: in contact throughout
  EXPECT_LT(g.final_state.q[c.model.dofs.node(13) + 2] - 1e-2, 1e-3) << "resting on the rail";
}

/// Resting on the rail, pushed along it at the ends of its middle edge by forces growing to 0.032
/// N in all, a sixth of the friction limit mu m g = 0.196 N: static friction holds it (its creep,
/// which mu sets, is weighed by 1e3 in L). The initial velocities are not checked, as on the
/// ground.
TEST(ContactGradients, RodStickingOnARod) {
  test::GradientCase c = test::rod_across_rail_case(1e-2, Vec3::Zero());
  for (int node : {13, 14})
    c.model.forces.push_back(
        std::make_shared<PointLoad>(node, [](double t) { return Vec3(0.2 * t, 0.0, 0.0); }));
  c.objective = adjoint::sum({c.objective, adjoint::position_time_integral(
                                               c.model, 13, Vec3(1e3, 0.0, 0.0), c.options.dt)});
  const adjoint::RunGradient g =
      test::expect_gradient_matches_differences(c, {}, {c.model.dofs.node(14) + 2});
  EXPECT_EQ(g.contact_switches, 0);
  EXPECT_GT(expect_pairs_in_state(c, g.final_state, 1), 0u);
  EXPECT_LT(std::abs(g.final_state.u[c.model.dofs.node(13)]), 1e-3) << "below the slip tolerance";
}

/// Sliding along the rail at 0.1 m/s, the rod stops within about 26 ms of the 80 ms run: its pairs
/// switch from slipping to sticking (the number in contact stays the same), and the run says so.
TEST(ContactGradients, RunCountsStickAndSlipBetweenRods) {
  const test::GradientCase c = test::rod_across_rail_case(1e-2, Vec3(0.1, 0.0, 0.0));
  const adjoint::RunGradient g =
      adjoint::run_with_gradient(c.model, c.options, c.initial, c.steps, c.objective, c.parameters);
  ASSERT_TRUE(g.ok) << g.message;
  const std::size_t pairs = expect_pairs_in_state(c, g.final_state, 1);
  EXPECT_GT(pairs, 0u);
  EXPECT_GE(g.contact_switches, static_cast<int>(pairs));
}

/// Falling onto the rail at 1 m/s from a gap of 17.5 mm: the contact closes in step 8 of 40 and
/// the rod bounces. The penalty and its derivatives vanish at the cut-off (to 1e-14 delta^2), so
/// the run stays differentiable through the closing: the gradient holds with the Jacobian of the
/// pairs active at each step's end (candidates chosen there, friction's dF/du with them), which
/// the step's start does not give (17.5 mm apart at step 0, 2.4 mm at the start of step 8).
TEST(ContactGradients, RodFallingOntoARod) {
  test::GradientCase c = test::rod_across_rail_case(2.75e-2, Vec3(0.0, 0.0, -1.0));
  c.parameters.pop_back();  // mu: falling straight, nothing slips (dL/dmu = 0)
  const adjoint::RunGradient g =
      test::expect_gradient_matches_differences(c, {c.model.dofs.node(13) + 2});
  expect_no_pairs_in_contact(c, c.initial);
  EXPECT_GE(g.contact_switches, 1);
}

/// Falling onto the rail from a gap of 5 mm at 0.5 m/s: the contact closes within the run (about
/// 10 ms), and the run counts it.
TEST(ContactGradients, RunCountsAClosingContactBetweenRods) {
  const test::GradientCase c = test::rod_across_rail_case(1.5e-2, Vec3(0.0, 0.0, -0.5));
  const adjoint::RunGradient g =
      adjoint::run_with_gradient(c.model, c.options, c.initial, c.steps, c.objective, c.parameters);
  ASSERT_TRUE(g.ok) << g.message;
  expect_no_pairs_in_contact(c, c.initial);
  EXPECT_GE(g.contact_switches, 1);
}

}  // namespace
}  // namespace tendril

namespace tendril {
namespace {

/// The gradient of a run with contact and friction does not depend on the checkpoint interval:
/// the backward pass recomputes each interval's steps bitwise as the forward run took them, with
/// the contact candidates chosen as then (the time of their last update restored with each
/// checkpoint).
void expect_checkpointing_recomputes_the_same_gradient(const test::GradientCase& c) {
  adjoint::GradientOptions every_seventh;
  every_seventh.checkpoint_interval = 7;
  const adjoint::RunGradient a =
      adjoint::run_with_gradient(c.model, c.options, c.initial, c.steps, c.objective, c.parameters);
  const adjoint::RunGradient b = adjoint::run_with_gradient(
      c.model, c.options, c.initial, c.steps, c.objective, c.parameters, every_seventh);
  ASSERT_TRUE(a.ok && b.ok) << a.message << b.message;
  EXPECT_EQ(b.recomputed_steps, 5 * 6 + 4);  // checkpoints at 0, 7, ..., 35 of 40 steps
  for (Eigen::Index i = 0; i < a.parameters.size(); ++i)
    EXPECT_EQ(a.parameters[i], b.parameters[i]) << c.parameters[static_cast<std::size_t>(i)].name;
  EXPECT_EQ(a.initial_velocity, b.initial_velocity);
  EXPECT_EQ(a.initial_position, b.initial_position);
}

TEST(ContactGradients, CheckpointingWithContactBetweenRods) {
  expect_checkpointing_recomputes_the_same_gradient(
      test::rod_across_rail_case(1e-2, Vec3(0.5, 0.0, 0.0)));
}

/// The rod falling onto the rail at 1 m/s from a gap of 17.5 mm: the contact closes in step 8, the
/// first step the backward pass recomputes from the checkpoint at step 7, whose candidate pairs
/// (motion allowance 2 |u| dt on top of delta) include the closing pairs only with the time of the
/// last candidate update as the forward run had it.
TEST(ContactGradients, CheckpointingThroughAClosingContactBetweenRods) {
  expect_checkpointing_recomputes_the_same_gradient(
      test::rod_across_rail_case(2.75e-2, Vec3(0.0, 0.0, -1.0)));
}

TEST(ContactGradients, CheckpointingWithFrictionOnTheGround) {
  test::GradientCase c = rod_on_ground();
  for (int i = 0; i < 11; ++i) c.initial.u.segment<3>(c.model.dofs.node(i)) = Vec3(0.5, 0.1, 0.0);
  expect_checkpointing_recomputes_the_same_gradient(c);
}

}  // namespace
}  // namespace tendril
