// The medium and motor parameters of the flagellated robot (adjoint/medium_parameter.hpp): each
// enters the implicit Euler residual affinely, so dr/dp = (r(p + d) - r(p)) / d is the same for
// two steps d and equals a central difference of r with a small step; each parameter at its value
// leaves the model's residual unchanged; and bad parameters are refused with the key.
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/input_error.hpp"
#include "support/source_tree.hpp"
#include "tendril/adjoint/medium_parameter.hpp"
#include "tendril/adjoint/step_adjoint.hpp"
#include "tendril/core/actuator.hpp"
#include "tendril/forces/head_drag.hpp"
#include "tendril/integrate/newton_system.hpp"
#include "tendril/integrate/time_stepper.hpp"
#include "tendril/sim/rod_scene.hpp"
#include "unit/rod/rod_shapes.hpp"

namespace tendril {
namespace {

sim::RodScene robot() {
  return sim::load_rod_scene_file(testing::source_tree() / "examples" / "flagellated_robot.yaml",
                                  {"flagellated_robot.motor_rpm=150"});
}

std::size_t head_drag_index(const Model& model) {
  for (std::size_t j = 0; j < model.forces.size(); ++j)
    if (dynamic_cast<const HeadDrag*>(model.forces[j].get())) return j;
  ADD_FAILURE() << "no head drag";
  return 0;
}

struct RobotStep {
  sim::RodScene scene;
  std::vector<adjoint::Parameter> parameters;
  State start, end;
};

/// Step 21 of the robot's run (the tails bent and turning, the motor's twist at 0.21 s).
RobotStep robot_step() {
  RobotStep s{robot(), {}, {}, {}};
  const Model& model = s.scene.model;
  const std::size_t head = head_drag_index(model);
  s.parameters = {adjoint::head_drag_c1(model, head), adjoint::head_drag_c2(model, head),
                  adjoint::medium_mu(model, 6.828), adjoint::motor_rpm(model, 0)};
  s.start.q = s.scene.q_initial;
  s.start.u = s.scene.u_initial;
  initialize_frames(model, s.start.q, s.start.frames);
  TimeStepper stepper(model, s.scene.dynamics, s.start.q);
  for (int k = 0; k < 20; ++k) EXPECT_TRUE(stepper.step(s.start).ok());
  s.end = s.start;
  EXPECT_TRUE(stepper.step(s.end).ok());
  return s;
}

/// The residual of the step with parameter i at `value` (the others at theirs; none applied for i
/// past the last), the rest quantities actuated at the step's end time.
VecX residual(const RobotStep& s, std::size_t i, double value) {
  Model model = s.scene.model;
  for (std::size_t j = 0; i < s.parameters.size() && j < s.parameters.size(); ++j)
    s.parameters[j].apply(model, j == i ? value : s.parameters[j].value);
  VecX predicted;
  const NewtonProblem problem =
      adjoint::implicit_euler_problem(s.start, s.scene.dynamics.dt, predicted);
  const Model rest = model;
  actuated_rods(rest, problem.time, model.rods);
  NewtonSystem system(model, s.scene.dynamics.newton);
  EXPECT_TRUE(system.evaluate(problem, s.end.q, false));
  return system.residual();
}

TEST(MediumParameters, AffineDifferenceIsTheResidualDerivative) {
  const RobotStep s = robot_step();
  const VecX unchanged = residual(s, s.parameters.size(), 0.0);  // the scene's model
  for (std::size_t i = 0; i < s.parameters.size(); ++i) {
    const adjoint::Parameter& p = s.parameters[i];
    const double d = p.difference_step();
    const VecX base = residual(s, i, p.value);
    const VecX affine = (residual(s, i, p.value + d) - base) / d;
    const VecX other = (residual(s, i, p.value - 0.37 * d) - base) / (-0.37 * d);
    const double h = 1e-5 * d;
    const VecX central = (residual(s, i, p.value + h) - residual(s, i, p.value - h)) / (2.0 * h);
    EXPECT_LE((base - unchanged).norm(), 1e-12 * unchanged.norm())
        << p.name << " at its value is the scene's model";
    ASSERT_GT(affine.norm(), 0.0) << p.name;
    EXPECT_LE((affine - other).norm(), 1e-9 * affine.norm()) << p.name << ": affine in p";
    EXPECT_LE((affine - central).norm(), 1e-6 * affine.norm()) << p.name;
  }
}

TEST(MediumParameters, BadInputIsRefused) {
  const sim::RodScene scene = robot();
  const Model& model = scene.model;
  testing::expect_input_error([&] { adjoint::medium_mu(model, 0.0); }, {"mu", "0"});
  testing::expect_input_error([&] { adjoint::head_drag_c1(model, 99); }, {"force_index", "99"});
  testing::expect_input_error([&] { adjoint::head_drag_c2(model, model.forces.size()); },
                              {"force_index"});
  testing::expect_input_error([&] { adjoint::motor_rpm(model, 1); }, {"actuator_index", "1"});
  EXPECT_NEAR(adjoint::motor_rpm(model, 0).value, 150.0, 1e-12);
  const test::BuiltRod rod = test::clamped_benchmark_rod(5);
  testing::expect_input_error([&] { adjoint::medium_mu(rod.model, 1.0); }, {"forces"});
}

}  // namespace
}  // namespace tendril
