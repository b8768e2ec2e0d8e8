// Actuators inside the solvers: rest quantities are set at the time of each Newton solve, i.e. at
// t_{k+1} for implicit Euler, at t_k + dt/2 for implicit midpoint, and along a static homotopy from
// the last solved time to the new one; the caller's Model is never changed.
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "support/input_error.hpp"
#include "tendril/actuation/rest_shape_schedule.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/integrate/static_solver.hpp"
#include "tendril/integrate/time_stepper.hpp"
#include "tendril/rod/bend_twist.hpp"
#include "unit/rod/rod_shapes.hpp"

namespace tendril {
namespace {

/// A clamped straight rod whose middle spring's natural twist follows a recording schedule.
struct RecordingRod {
  test::BuiltRod rod = test::clamped_benchmark_rod(5);
  std::shared_ptr<std::vector<double>> times = std::make_shared<std::vector<double>>();
  int spring = 1;
  RecordingRod() {
    auto record = times;
    rod.model.actuators.push_back(std::make_shared<RestShapeSchedule>(
        rod.model, RestQuantity::natural_twist, std::vector<int>{spring},
        std::vector<Schedule>{[record](double t) {
          record->push_back(t);
          return 0.5 * t;  // [rad]
        }}));
  }
};

TEST(ActuatedSolvers, ImplicitEulerAppliesAtTheEndOfTheStep) {
  RecordingRod r;
  DynamicsOptions options;
  options.dt = 0.1;
  TimeStepper stepper(r.rod.model, options, r.rod.q);
  State state = test::rest_state(r.rod);
  ASSERT_TRUE(stepper.step(state).ok());
  ASSERT_FALSE(r.times->empty());
  for (double t : *r.times) EXPECT_DOUBLE_EQ(t, 0.1);
  EXPECT_EQ(r.rod.model.rods.springs[r.spring].natural_twist, 0.0)
      << "the caller's Model is unchanged";
}

TEST(ActuatedSolvers, ImplicitMidpointAppliesAtTheMidpointTime) {
  RecordingRod r;
  DynamicsOptions options;
  options.scheme = Scheme::implicit_midpoint;
  options.dt = 0.1;
  TimeStepper stepper(r.rod.model, options, r.rod.q);
  State state = test::rest_state(r.rod);
  ASSERT_TRUE(stepper.step(state).ok());
  ASSERT_TRUE(stepper.step(state).ok());
  ASSERT_EQ(r.times->size(), 2u);
  EXPECT_DOUBLE_EQ((*r.times)[0], 0.05);
  EXPECT_DOUBLE_EQ((*r.times)[1], 0.15);
}

TEST(ActuatedSolvers, StaticHomotopyFollowsTheScheduleToTheSolveTime) {
  // a free end: the twist of the middle spring settles at the natural twist 0.5 t
  RecordingRod r;
  StaticOptions options;
  StaticSolver solver(r.rod.model, options, r.rod.q);
  State state = test::rest_state(r.rod);
  state.time = 2.0;
  const StaticReport report = solver.solve(state);
  ASSERT_TRUE(report.ok()) << report.message;
  ASSERT_FALSE(r.times->empty());
  EXPECT_DOUBLE_EQ(r.times->back(), 2.0);
  for (double t : *r.times) {
    EXPECT_GT(t, 0.0);
    EXPECT_LE(t, 2.0);
  }
  Kinematics kin;
  compute_kinematics(r.rod.model, state.frames, state.q, kin);
  EXPECT_NEAR(spring_twist(oriented_stencil(r.rod.model, kin, state.q, r.spring)), 1.0, 1e-8);
}

TEST(ActuatedSolvers, RestShapeScheduleChecksItsTargets) {
  const test::BuiltRod rod = test::clamped_benchmark_rod(4);
  const Schedule zero = [](double) { return 0.0; };
  testing::expect_input_error(
      [&] {
        RestShapeSchedule(rod.model, RestQuantity::natural_twist, {0, 7}, {zero});
      },
      {"targets[1]", "7", "spring"});
  testing::expect_input_error(
      [&] {
        RestShapeSchedule(rod.model, RestQuantity::rest_length, {0, 1, 2}, {zero, zero});
      },
      {"schedules"});
}

}  // namespace
}  // namespace tendril
