// Gradients of whole rod runs by the discrete adjoint of implicit Euler against central differences
// of whole runs (validation/adjoint/whole_run_difference.hpp picks the difference step by a
// convergence check): a 2D cantilever under gravity, a 3D rod with natural curvature out of plane
// and an initial twist rate (the frame angle), a cantilever in a viscous medium, a rod network with
// a joint, and checkpointing.
#include <cmath>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "tendril/adjoint/run_gradient.hpp"
#include "tendril/forces/gravity.hpp"
#include "tendril/forces/viscous_drag.hpp"
#include "unit/rod/rod_shapes.hpp"
#include "validation/adjoint/gradient_case.hpp"

namespace tendril {
namespace {

using adjoint::Parameter;
using test::cantilever;
using test::expect_gradient_matches_differences;
using test::GradientCase;
using test::tight_euler;

TEST(RunGradients, PlanarCantileverUnderGravity) {
  const GradientCase c = cantilever();
  expect_gradient_matches_differences(c, {c.model.dofs.node(10) + 2, c.model.dofs.node(5) + 0});
}

/// The clamped rod along x with natural curvature about both material axes curls out of the
/// plane as it falls, with an initial twist rate: the reference frames turn in 3D, so the gradient
/// needs the frame angles' adjoint.
TEST(RunGradients, CurledRodWithTwistOutOfPlane) {
  const GradientCase c = test::curled_cantilever();
  const adjoint::RunGradient g =
      adjoint::run_with_gradient(c.model, c.options, c.initial, c.steps, c.objective, c.parameters);
  ASSERT_TRUE(g.ok) << g.message;
  EXPECT_GT(std::abs(g.final_state.q[c.model.dofs.node(10) + 1]), 1e-3) << "the rod leaves y = 0";
  expect_gradient_matches_differences(
      c, {c.model.dofs.node(10) + 1, c.model.dofs.twist(9), c.model.dofs.twist(3)},
      {c.model.dofs.node(10) + 2, c.model.dofs.node(4), c.model.dofs.twist(3)});
}

TEST(RunGradients, CantileverInViscousMedium) {
  GradientCase c = cantilever();
  c.model.forces.push_back(std::make_shared<ViscousDrag>(c.model, std::vector<int>{}, 0.5));
  c.parameters.push_back(adjoint::viscosity(c.model, 0, {}, 0.5));
  expect_gradient_matches_differences(c, {c.model.dofs.node(10) + 2});
}

/// The star network of four bent arms (rod_shapes.hpp; edges pointing into and out of the joint,
/// so its springs see every orientation sign) with its joint pinned, swinging under gravity with
/// initial twist rates.
TEST(RunGradients, RodNetworkWithJoint) {
  RodNetworkInput input = test::star_network();
  input.materials = {test::unit_material()};  // E 3 Pa, rho 2 kg/m^3
  input.edge_material.clear();
  test::BuiltRod star = test::build(input);
  star.model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0.0, 0.0, -0.5)));
  for (int d = 0; d < 3; ++d) star.model.fixed[d] = 1;
  ASSERT_EQ(star.model.rods.springs[0].node, 0) << "a joint spring";
  int chain_spring = 0;
  while (star.model.rods.springs[static_cast<std::size_t>(chain_spring)].node == 0) ++chain_spring;
  GradientCase c;
  c.initial = test::rest_state(star);
  for (int e = 0; e < star.model.dofs.num_edges; ++e)
    c.initial.u[star.model.dofs.twist(e)] = 0.5 * (e % 3) - 0.4;
  c.options = tight_euler(0.02);
  c.steps = 30;
  c.objective =
      adjoint::sum({adjoint::distance_to_targets(
                        star.model, {{3, 30, {1.0, 0.2, 0.0}}, {6, 30, {0.0, 1.0, 0.3}}}),
                    adjoint::position_time_integral(star.model, 9, Vec3(0.3, -0.2, 1.0), 0.02)});
  c.parameters = {adjoint::youngs_modulus(star.model, 3.0), adjoint::density(star.model, 2.0),
                  adjoint::uniform_natural_curvature(1, 0.3),
                  adjoint::spring_natural_curvature(star.model, 0, 0),
                  adjoint::spring_natural_curvature(star.model, chain_spring, 1)};
  c.model = std::move(star.model);
  expect_gradient_matches_differences(c, {c.model.dofs.node(5) + 1, c.model.dofs.twist(4)});
}

TEST(RunGradients, CheckpointingRecomputesTheSameGradient) {
  const GradientCase c = test::curled_cantilever();
  adjoint::GradientOptions every_state, every_seventh;
  every_seventh.checkpoint_interval = 7;
  const adjoint::RunGradient a = adjoint::run_with_gradient(c.model, c.options, c.initial, c.steps,
                                                            c.objective, c.parameters, every_state);
  const adjoint::RunGradient b = adjoint::run_with_gradient(
      c.model, c.options, c.initial, c.steps, c.objective, c.parameters, every_seventh);
  ASSERT_TRUE(a.ok && b.ok) << a.message << b.message;
  EXPECT_EQ(a.recomputed_steps, 0);
  // checkpoints at 0, 7, ..., 49: six recomputed states in each of the seven full intervals
  EXPECT_EQ(b.recomputed_steps, 7 * 6);
  for (Eigen::Index i = 0; i < a.parameters.size(); ++i)
    EXPECT_EQ(a.parameters[i], b.parameters[i]) << c.parameters[static_cast<std::size_t>(i)].name;
  EXPECT_EQ(a.initial_velocity, b.initial_velocity);
  EXPECT_EQ(a.value, b.value);
}

}  // namespace
}  // namespace tendril
