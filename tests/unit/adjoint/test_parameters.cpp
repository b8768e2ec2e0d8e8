// The clear errors for bad parameters, objectives and options, the checkpoint interval that fits
// a memory budget, and the models the Poisson ratio and the rest lengths' scale set against models
// built with them, the fold a mid-edge edge's natural fold makes (the parameters' dr/dp:
// test_parameter_stencils.cpp).
#include <algorithm>
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "support/input_error.hpp"
#include "tendril/adjoint/objective.hpp"
#include "tendril/adjoint/rest_shape_parameters.hpp"
#include "tendril/adjoint/run_gradient.hpp"
#include "tendril/adjoint/step_adjoint.hpp"
#include "tendril/integrate/static_solver.hpp"
#include "tendril/io/shell_generators.hpp"
#include "tendril/shell/shell_builder.hpp"
#include "unit/adjoint/curled_rod.hpp"

namespace tendril {
namespace {

TEST(Parameters, BadInputIsRefused) {
  const test::CurledRod c = test::curled_rod();
  testing::expect_input_error([&] { adjoint::youngs_modulus(c.model, -1.0); },
                              {"youngs_modulus", "-1"});
  testing::expect_input_error([&] { adjoint::density(c.model, 0.0); }, {"density"});
  testing::expect_input_error([&] { adjoint::uniform_natural_curvature(2, 1.0); }, {"component"});
  testing::expect_input_error([&] { adjoint::spring_natural_curvature(c.model, 9, 0); },
                              {"spring", "9"});
  testing::expect_input_error([&] { adjoint::viscosity(c.model, 1, {}, 1.0); }, {"force_index"});
  testing::expect_input_error([&] { adjoint::viscosity(c.model, 0, {99}, 1.0); }, {"nodes[0]"});
  testing::expect_input_error([&] { adjoint::poisson_ratio(c.model, 0.7); },
                              {"poisson_ratio", "0.7", "(-1, 0.5]"});
  testing::expect_input_error([&] { adjoint::rest_length_scale(c.model, 0.0); },
                              {"rest_length_scale", "0"});
  testing::expect_input_error(
      [&] {
        adjoint::distance_to_targets(c.model, {{11, 0, {}}});
      },
      {"targets[0].node"});
  testing::expect_input_error(
      [&] { adjoint::position_time_integral(c.model, -1, Vec3::UnitZ(), 1e-3); }, {"node"});
}

TEST(RunGradient, BadRunsAreRefused) {
  const test::CurledRod c = test::curled_rod();
  const adjoint::Objective objective =
      adjoint::position_time_integral(c.model, 10, Vec3::UnitZ(), c.options.dt);
  testing::expect_input_error(
      [&] { adjoint::run_with_gradient(c.model, c.options, c.initial, 0, objective, {}); },
      {"steps"});
  adjoint::GradientOptions zero_interval;
  zero_interval.checkpoint_interval = 0;
  testing::expect_input_error(
      [&] {
        adjoint::run_with_gradient(c.model, c.options, c.initial, 3, objective, {}, zero_interval);
      },
      {"checkpoint_interval"});
  adjoint::GradientOptions late_end;  // 3 steps end at 3 dt, not 4 dt
  late_end.end_time = c.initial.time + 4.0 * c.options.dt;
  testing::expect_input_error(
      [&] {
        adjoint::run_with_gradient(c.model, c.options, c.initial, 3, objective, {}, late_end);
      },
      {"end_time", "within 1e-9 dt"});
}

TEST(RunGradient, QuasiStaticRunsRefuseTwistObjectivesAndAStaticStart) {
  const test::CurledRod c = test::curled_rod();
  adjoint::GradientOptions quasi_static;
  quasi_static.quasi_static = StaticOptions{};
  const int twist = c.model.dofs.twist(4);
  const adjoint::Objective on_twist{[twist](int, const State& s, VecX& dq, VecX&) {
                                      dq[twist] += 1.0;
                                      return s.q[twist];
                                    },
                                    {}};
  testing::expect_input_error(
      [&] {
        adjoint::run_with_gradient(c.model, c.options, c.initial, 2, on_twist, {}, quasi_static);
      },
      {"objective", "twist DOF", "node positions"});
  quasi_static.static_start = StaticOptions{};
  const adjoint::Objective height =
      adjoint::position_time_integral(c.model, 10, Vec3::UnitZ(), c.options.dt);
  testing::expect_input_error(
      [&] {
        adjoint::run_with_gradient(c.model, c.options, c.initial, 2, height, {}, quasi_static);
      },
      {"static_start", "quasi_static"});
}

TEST(RunGradient, CheckpointIntervalFitsTheMemory) {
  const test::CurledRod c = test::curled_rod();
  // a state of the 11-node rod: 2 x 43 doubles, 10 edges x 6 doubles, 9 springs, the State itself
  const double state = 8.0 * (2 * 43 + 6 * 10 + 9) + sizeof(State);
  EXPECT_EQ(adjoint::checkpoint_interval_for_memory(c.model, 100, 101 * state), 1);
  EXPECT_EQ(adjoint::checkpoint_interval_for_memory(c.model, 100, 52 * state), 2);
  EXPECT_EQ(adjoint::checkpoint_interval_for_memory(c.model, 100, 20 * state), 10);
  testing::expect_input_error(
      [&] { adjoint::checkpoint_interval_for_memory(c.model, 100, 19 * state); }, {"memory"});
}

/// A mid-edge strip with CST membranes (or hinge bending) of Poisson ratio nu.
Model strip(double nu, ShellBending bending) {
  const io::TriangleMesh mesh = io::rectangle_mesh(0.2, 0.05, 5, 3, io::MeshPattern::alternating);
  ShellInput input;
  input.triangles = mesh.triangles;
  input.material = {.youngs_modulus = 2e7, .poisson_ratio = nu, .density = 1e3, .thickness = 4e-3};
  input.bending = bending;
  return build_shell_model(mesh.nodes, {input});
}

/// Relative difference of two numbers.
double relative(double a, double b) {
  return std::abs(a - b) / std::max(std::abs(b), 1e-300);
}

TEST(Parameters, PoissonRatioSetsWhatTheBuildersDo) {
  for (const ShellBending bending : {ShellBending::midedge, ShellBending::hinge}) {
    const Model built = strip(0.42, bending);
    Model m = strip(0.3, bending);
    adjoint::poisson_ratio(m, 0.3).apply(m, 0.42);
    for (std::size_t t = 0; t < m.shells.membrane_triangles.size(); ++t) {
      EXPECT_LT(relative(m.shells.membrane_triangles[t].lame_mu,
                         built.shells.membrane_triangles[t].lame_mu),
                1e-14);
      EXPECT_LT(relative(m.shells.membrane_triangles[t].lame_lambda,
                         built.shells.membrane_triangles[t].lame_lambda),
                1e-14);
    }
    for (std::size_t h = 0; h < m.shells.hinges.size(); ++h)
      EXPECT_LT(relative(m.shells.hinges[h].stiffness, built.shells.hinges[h].stiffness), 1e-14);
    for (std::size_t t = 0; t < m.shells.midedge_triangles.size(); ++t) {
      const MidEdgeTriangle &a = m.shells.midedge_triangles[t],
                            &b = built.shells.midedge_triangles[t];
      EXPECT_LT(relative(a.stiffness, b.stiffness), 1e-14);
      EXPECT_LE((a.metric - b.metric).norm(), 1e-13 * b.metric.norm());
    }
  }
  // the 11-node rod (r 5 mm, E 1e7 Pa, nu 0.5) moved to nu 0.25: GJ = E / (2 (1 + nu)) pi r^4 / 2
  test::CurledRod rod = test::curled_rod();
  adjoint::poisson_ratio(rod.model, 0.5).apply(rod.model, 0.25);
  const double gj = 1e7 / 2.5 * std::numbers::pi * std::pow(5e-3, 4) / 2.0;
  for (const BendTwistSpring& s : rod.model.rods.springs)
    EXPECT_LT(relative(s.twist_stiffness, gj), 1e-14);
}

TEST(Parameters, RestLengthScaleSetsTheRestLengths) {
  test::CurledRod rod = test::curled_rod();  // 11 nodes over 1 m
  adjoint::rest_length_scale(rod.model, 1.0).apply(rod.model, 1.2);
  for (double l : rod.model.rods.rest_length) EXPECT_LT(relative(l, 0.12), 1e-14);
  for (const BendTwistSpring& s : rod.model.rods.springs)
    EXPECT_LT(relative(s.voronoi_length, 0.12), 1e-14);
}

/// The unit normal of triangle t of `model` at q.
Vec3 triangle_normal_at(const Model& model, const VecX& q, std::size_t t) {
  const auto& nodes = model.shells.triangles[t];
  const auto x = [&](int k) { return Vec3(q.segment<3>(3 * nodes[static_cast<std::size_t>(k)])); };
  return (x(1) - x(0)).cross(x(2) - x(0)).normalized();
}

/// A flat mid-edge strip (0.2 x 0.05 m, 9 x 3 nodes) clamped by its first two columns of nodes,
/// without loads, with the natural fold of every interior edge on the line x = 0.1 m set to 0.3
/// rad: its equilibrium is the strip folded along that line by 0.3 rad (each half flat, zero
/// bending energy), whatever the sign convention of the angles.
TEST(Parameters, MidEdgeNaturalFoldFoldsTheStrip) {
  const io::TriangleMesh mesh = io::rectangle_mesh(0.2, 0.05, 9, 3, io::MeshPattern::alternating);
  ShellInput input;
  input.triangles = mesh.triangles;
  input.material = {
      .youngs_modulus = 2e6, .poisson_ratio = 0.3, .density = 1000.0, .thickness = 2e-3};
  Model model = build_shell_model(mesh.nodes, {input});
  for (int i = 0; i < model.dofs.num_nodes; ++i)
    if (mesh.nodes[static_cast<std::size_t>(i)].x() < 0.03)
      for (int d = 0; d < 3; ++d) model.fixed[static_cast<std::size_t>(3 * i + d)] = 1;
  const auto at_fold = [&](int node) {
    return std::abs(mesh.nodes[static_cast<std::size_t>(node)].x() - 0.1) < 1e-9;
  };
  int folded = 0;
  for (std::size_t e = 0; e < model.shells.edges.size(); ++e)
    if (at_fold(model.shells.edges[e][0]) && at_fold(model.shells.edges[e][1])) {
      const adjoint::Parameter fold = adjoint::midedge_natural_fold(model, static_cast<int>(e));
      EXPECT_NEAR(fold.value, 0.0, 1e-15) << "flat at rest";
      fold.apply(model, 0.3);
      ++folded;
    }
  ASSERT_EQ(folded, 2);
  State state;
  state.q = rest_configuration(model);
  state.u = VecX::Zero(model.dofs.size());
  initialize_frames(model, state.q, state.frames);
  StaticSolver solver(model, StaticOptions{}, state.q);
  const StaticReport report = solver.solve(state);
  ASSERT_TRUE(report.ok()) << report.message;
  for (std::size_t t = 0; t < model.shells.triangles.size(); ++t) {
    double x = 0.0;  // the triangle's centroid's x at rest
    for (int n : model.shells.triangles[t]) x += mesh.nodes[static_cast<std::size_t>(n)].x() / 3.0;
    const double tilt =
        std::acos(std::min(1.0, std::abs(triangle_normal_at(model, state.q, t).z())));
    EXPECT_NEAR(tilt, x < 0.1 ? 0.0 : 0.3, 1e-6) << "triangle " << t << " at x = " << x;
  }
}

}  // namespace
}  // namespace tendril
