// The integrators on real rods (stretch + bend-twist energies): a clamped cantilever and a rod
// network under gravity step with few Newton iterations, the automatic linear solver picks the
// banded one for a single rod, and the banded and sparse solvers give the same trajectory.
#include <memory>

#include <gtest/gtest.h>

#include "tendril/forces/gravity.hpp"
#include "tendril/integrate/banded_ldlt_solver.hpp"
#include "tendril/integrate/static_solver.hpp"
#include "tendril/integrate/time_stepper.hpp"
#include "unit/rod/rod_shapes.hpp"

namespace tendril {
namespace {

/// The cantilever (L 1 m, r 5 mm, E 1e7 Pa, rho 1273.52, nu 0.5) with nodes 0, 1 and twist
/// 0 fixed, under gravity.
test::BuiltRod cantilever(int num_nodes) {
  test::BuiltRod rod = test::clamped_benchmark_rod(num_nodes);
  rod.model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0.0, 0.0, -9.81)));
  return rod;
}

TEST(RodStepping, AutomaticSolverIsBandedForASingleRod) {
  const test::BuiltRod rod = cantilever(41);
  const TimeStepper stepper(rod.model, DynamicsOptions{}, rod.q);
  ASSERT_NE(stepper.system().linear_solver(), nullptr);
  EXPECT_EQ(stepper.system().linear_solver()->name(), "banded_ldlt");
  const auto& banded = dynamic_cast<const BandedLdltSolver&>(*stepper.system().linear_solver());
  EXPECT_LE(banded.bandwidth(), 11) << "interleaved x_i, theta_i";
}

TEST(RodStepping, CantileverStepsConvergeAndSolversAgree) {
  for (Scheme scheme : {Scheme::implicit_euler, Scheme::implicit_midpoint}) {
    const test::BuiltRod rod = cantilever(21);
    State banded_state = test::rest_state(rod), sparse_state = test::rest_state(rod);
    DynamicsOptions options;
    options.scheme = scheme;
    options.dt = 1e-3;
    options.newton.linear_solver = LinearSolverKind::banded_ldlt;
    TimeStepper banded(rod.model, options, rod.q);
    options.newton.linear_solver = LinearSolverKind::sparse_ldlt;
    TimeStepper sparse(rod.model, options, rod.q);
    for (int k = 0; k < 100; ++k) {
      const StepReport a = banded.step(banded_state);
      const StepReport b = sparse.step(sparse_state);
      ASSERT_TRUE(a.ok()) << a.message;
      ASSERT_TRUE(b.ok()) << b.message;
      EXPECT_LE(a.iterations, 4);
      EXPECT_EQ(a.dt_halvings, 0);
    }
    EXPECT_LT(banded_state.q[3 * 20 + 2], -1e-3) << "the tip falls";
    EXPECT_LE((banded_state.q - sparse_state.q).norm(), 1e-9 * banded_state.q.norm());
  }
}

TEST(RodStepping, UnloadedRodAtRestStaysAtRest) {
  // residuals at round-off level must not fail the line search
  for (Scheme scheme : {Scheme::implicit_euler, Scheme::implicit_midpoint}) {
    test::BuiltRod helix = test::build(test::helix(12));
    for (int d = 0; d < 6; ++d) helix.model.fixed[d] = 1;
    State state = test::rest_state(helix);
    DynamicsOptions options;
    options.scheme = scheme;
    options.dt = 1e-2;
    TimeStepper stepper(helix.model, options, helix.q);
    for (int k = 0; k < 20; ++k) {
      const StepReport report = stepper.step(state);
      ASSERT_TRUE(report.ok()) << report.message;
      EXPECT_LE(report.iterations, 1);
    }
    EXPECT_LE((state.q - helix.q).norm(), 1e-12);
  }
}

TEST(RodStepping, RodNetworkUnderGravityConverges) {
  test::BuiltRod star = test::build(test::star_network());
  star.model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0.0, 0.0, -0.5)));
  for (int d = 0; d < 3; ++d) star.model.fixed[d] = 1;  // the joint node is pinned
  State state = test::rest_state(star);
  DynamicsOptions options;
  options.dt = 0.05;
  TimeStepper stepper(star.model, options, star.q);
  for (int k = 0; k < 40; ++k) {
    const StepReport report = stepper.step(state);
    ASSERT_TRUE(report.ok()) << report.message;
  }
  EXPECT_TRUE(state.q.allFinite());
  EXPECT_EQ(state.q.head<3>(), star.q.head<3>());
}

TEST(RodStepping, StaticCantileverUnderGravityConverges) {
  const test::BuiltRod rod = cantilever(21);
  State banded_state = test::rest_state(rod), sparse_state = test::rest_state(rod);
  StaticOptions options;
  options.newton.linear_solver = LinearSolverKind::banded_ldlt;
  StaticSolver banded(rod.model, options, rod.q);
  options.newton.linear_solver = LinearSolverKind::sparse_ldlt;
  StaticSolver sparse(rod.model, options, rod.q);
  const StaticReport a = banded.solve(banded_state);
  const StaticReport b = sparse.solve(sparse_state);
  ASSERT_TRUE(a.ok()) << a.message;
  ASSERT_TRUE(b.ok()) << b.message;
  EXPECT_LT(banded_state.q[3 * 20 + 2], -0.01);
  EXPECT_LE((banded_state.q - sparse_state.q).norm(), 1e-9 * banded_state.q.norm());
}

}  // namespace
}  // namespace tendril
