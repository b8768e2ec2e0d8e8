// The clear errors for bad parameters, objectives and options, and the checkpoint interval that
// fits a memory budget (the parameters' dr/dp: test_parameter_stencils.cpp).
#include <gtest/gtest.h>

#include "support/input_error.hpp"
#include "tendril/adjoint/objective.hpp"
#include "tendril/adjoint/run_gradient.hpp"
#include "tendril/adjoint/step_adjoint.hpp"
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
