// Degenerate and overflowing systems (issue 8): a model with no free DOF runs (nothing moves), and
// a non-finite or overflowing residual or state never passes the convergence test: the step fails
// with status non_finite, says which quantity went bad where, and leaves the State unchanged.
#include <gtest/gtest.h>

#include "tendril/forces/gravity.hpp"
#include "tendril/forces/point_load.hpp"
#include "tendril/integrate/static_solver.hpp"
#include "tendril/integrate/time_stepper.hpp"
#include "unit/rod/rod_shapes.hpp"

namespace tendril {
namespace {

void fix_all(Model& model) {
  std::fill(model.fixed.begin(), model.fixed.end(), std::uint8_t{1});
}

TEST(DegenerateSystems, RodClampedEverywhereRunsAndNothingMoves) {
  // a three-node rod clamped at both ends: every position and twist is fixed
  test::BuiltRod rod = test::clamped_benchmark_rod(3);
  fix_all(rod.model);
  rod.model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0.0, 0.0, -9.81)));
  for (Scheme scheme : {Scheme::implicit_euler, Scheme::implicit_midpoint}) {
    DynamicsOptions options;
    options.scheme = scheme;
    TimeStepper stepper(rod.model, options, rod.q);
    EXPECT_EQ(stepper.system().free_dofs().size(), 0u);
    EXPECT_EQ(stepper.system().linear_solver(), nullptr);
    State state = test::rest_state(rod);
    for (int k = 0; k < 3; ++k) {
      const StepReport report = stepper.step(state);
      ASSERT_TRUE(report.ok()) << report.message;
      EXPECT_EQ(report.iterations, 0);
    }
    EXPECT_EQ(state.q, rod.q);
    EXPECT_DOUBLE_EQ(state.time, 3 * options.dt);
  }
  StaticSolver statics(rod.model, StaticOptions{}, rod.q);
  State state = test::rest_state(rod);
  const StaticReport report = statics.solve(state);
  ASSERT_TRUE(report.ok()) << report.message;
  EXPECT_EQ(state.q, rod.q);
}

TEST(DegenerateSystems, FullyFixedNetworkRuns) {
  // a star of three rods meeting at a joint, every DOF fixed
  RodNetworkInput in;
  in.nodes = {Vec3(0.0, 0.0, 0.0), Vec3(0.5, 0.0, 0.0), Vec3(0.0, 0.5, 0.0), Vec3(0.0, 0.0, 0.5)};
  in.edges = {{0, 1}, {0, 2}, {0, 3}};
  in.materials = {test::unit_material()};
  test::BuiltRod star = test::build(in);
  fix_all(star.model);
  TimeStepper stepper(star.model, DynamicsOptions{}, star.q);
  State state = test::rest_state(star);
  const StepReport report = stepper.step(state);
  ASSERT_TRUE(report.ok()) << report.message;
  EXPECT_EQ(state.q, star.q);
}

TEST(DegenerateSystems, OverflowingLoadFailsTheStepAndSaysWhere) {
  // 1e200 N on the tip: every entry is finite but ||f||^2 overflows (today it passed as converged)
  test::BuiltRod rod = test::clamped_benchmark_rod(6);
  rod.model.forces.push_back(std::make_shared<PointLoad>(5, Vec3(0.0, 0.0, -1e200)));
  DynamicsOptions options;
  options.max_dt_halvings = 1;
  TimeStepper stepper(rod.model, options, rod.q);
  State state = test::rest_state(rod);
  const State before = state;
  const StepReport report = stepper.step(state);
  EXPECT_EQ(report.status, StepStatus::non_finite);
  EXPECT_NE(report.message.find("node 5 (z)"), std::string::npos) << report.message;
  EXPECT_NE(report.message.find("t = 0 s"), std::string::npos) << report.message;
  EXPECT_EQ(state.q, before.q);
  EXPECT_EQ(state.time, before.time);

  StaticSolver statics(rod.model, StaticOptions{}, rod.q);
  const StaticReport static_report = statics.solve(state);
  EXPECT_EQ(static_report.status, StepStatus::non_finite) << static_report.message;
  EXPECT_EQ(state.q, before.q);
}

TEST(DegenerateSystems, InfiniteLoadAndNaNStateFail) {
  test::BuiltRod rod = test::clamped_benchmark_rod(6);
  // a load history that overflows (a constant infinite load is refused as input)
  rod.model.forces.push_back(std::make_shared<PointLoad>(4, [](double t) {
    return Vec3(0.0, t > 0.0 ? std::numeric_limits<double>::infinity() : 0.0, 0.0);
  }));
  TimeStepper stepper(rod.model, DynamicsOptions{}, rod.q);
  State state = test::rest_state(rod);
  StepReport report = stepper.step(state);
  EXPECT_EQ(report.status, StepStatus::non_finite);
  EXPECT_NE(report.message.find("node 4 (y)"), std::string::npos) << report.message;

  test::BuiltRod plain = test::clamped_benchmark_rod(6);
  TimeStepper plain_stepper(plain.model, DynamicsOptions{}, plain.q);
  State bad = test::rest_state(plain);
  bad.q[3 * 3 + 1] = std::numeric_limits<double>::quiet_NaN();
  report = plain_stepper.step(bad);
  EXPECT_EQ(report.status, StepStatus::non_finite) << report.message;
  EXPECT_NE(report.message.find("node 3 (y)"), std::string::npos) << report.message;
}

}  // namespace
}  // namespace tendril
