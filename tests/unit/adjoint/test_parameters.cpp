// The parameters' affine residual derivatives: dr/dp = (r(p + d) - r(p)) / d is the same for
// different steps d and equals a central difference of r with a small step (each parameter
// factory); and the clear errors for bad parameters, objectives and options.
#include <cmath>

#include <gtest/gtest.h>

#include "support/input_error.hpp"
#include "tendril/adjoint/objective.hpp"
#include "tendril/adjoint/run_gradient.hpp"
#include "tendril/adjoint/step_adjoint.hpp"
#include "tendril/integrate/newton_system.hpp"
#include "tendril/integrate/time_stepper.hpp"
#include "unit/adjoint/curled_rod.hpp"

namespace tendril {
namespace {

/// The implicit Euler residual r(y) of the step from `start` to y = end.q on `model` with
/// parameter i of c at `value` (free and fixed DOFs).
VecX residual(const test::CurledRod& c, std::size_t i, double value, const State& start,
              const State& end) {
  Model model = c.model;
  for (std::size_t j = 0; j < c.parameters.size(); ++j)
    c.parameters[j].apply(model, j == i ? value : c.parameters[j].value);
  NewtonSystem system(model, c.options.newton);
  VecX predicted;
  const NewtonProblem problem = adjoint::implicit_euler_problem(start, c.options.dt, predicted);
  EXPECT_TRUE(system.evaluate(problem, end.q, false));
  return system.residual();
}

TEST(Parameters, AffineDifferenceIsTheResidualDerivative) {
  const test::CurledRod c = test::curled_rod();
  const auto [start, end] = test::step_of_run(c, 10);
  for (std::size_t i = 0; i < c.parameters.size(); ++i) {
    const adjoint::Parameter& p = c.parameters[i];
    const double d = p.difference_step();
    const VecX base = residual(c, i, p.value, start, end);
    const VecX affine = (residual(c, i, p.value + d, start, end) - base) / d;
    const VecX other = (residual(c, i, p.value - 0.37 * d, start, end) - base) / (-0.37 * d);
    const double h = 1e-5 * d;
    const VecX central =
        (residual(c, i, p.value + h, start, end) - residual(c, i, p.value - h, start, end)) /
        (2.0 * h);
    ASSERT_GT(affine.norm(), 0.0) << p.name;
    EXPECT_LE((affine - other).norm(), 1e-9 * affine.norm()) << p.name << ": affine in p";
    EXPECT_LE((affine - central).norm(), 1e-6 * affine.norm()) << p.name;
  }
}

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

}  // namespace
}  // namespace tendril
