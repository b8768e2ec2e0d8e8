// The flagellated robot's run differentiated (docs/physics/gradients.md, "The flagellated robot"):
// the gradients of its speed and its head's and tails' rotation rates (adjoint/robot_objective.hpp)
// with respect to the medium's C1, C2, mu and the motor's rpm (adjoint/medium_parameter.hpp)
// against central differences of whole runs of the scene loaded with the parameter changed in the
// scene itself (flagellated_robot.C1, ...), so the parameters' model changes are checked too. The
// run is the example's (implicit Euler, dt = 0.01 s, chord steps, the motor an actuator), shortened
// to 1 s, with Newton to its round-off floor.
#include <cmath>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/source_tree.hpp"
#include "tendril/adjoint/medium_parameter.hpp"
#include "tendril/adjoint/robot_objective.hpp"
#include "tendril/adjoint/run_gradient.hpp"
#include "tendril/core/number_text.hpp"
#include "tendril/forces/head_drag.hpp"
#include "tendril/sim/rod_scene.hpp"
#include "validation/adjoint/whole_run_difference.hpp"

namespace tendril {
namespace {

constexpr int kSteps = 100;  // 1 s of 0.01 s

sim::RodScene robot(const std::vector<std::string>& extra = {}) {
  std::vector<std::string> overrides = {"duration=1", "integrator.newton.force_tolerance=1e-14"};
  overrides.insert(overrides.end(), extra.begin(), extra.end());
  if (extra.empty() || extra.front().rfind("flagellated_robot.motor_rpm=", 0) != 0)
    overrides.push_back("flagellated_robot.motor_rpm=150");
  return sim::load_rod_scene_file(testing::source_tree() / "examples" / "flagellated_robot.yaml",
                                  overrides);
}

State start_of(const sim::RodScene& scene) {
  State s;
  s.q = scene.q_initial;
  s.u = scene.u_initial;
  initialize_frames(scene.model, s.q, s.frames);
  return s;
}

std::size_t head_drag_index(const Model& model) {
  for (std::size_t j = 0; j < model.forces.size(); ++j)
    if (dynamic_cast<const HeadDrag*>(model.forces[j].get())) return j;
  ADD_FAILURE() << "no head drag";
  return 0;
}

enum class Observable { speed, head_rotation, tail_rotation };

/// v or the signed head or tail rotation rate over the second half of the run (the observables'
/// window).
adjoint::Objective observable(const sim::RodScene& scene, Observable which) {
  const adjoint::SlopeWindow window{0.0, scene.dt, kSteps, 0.5};
  const sim::ObservableSpec& spec = *scene.observables;
  if (which == Observable::speed)
    return adjoint::robot_speed(scene.model, spec.head_edge, spec.axis, window);
  const int edge = which == Observable::head_rotation ? spec.head_edge : spec.tail_edge;
  return adjoint::robot_head_rotation(scene.model, edge, spec.axis, window);
}

/// The objective of the whole run of the scene with `key` = value.
double objective_of_scene(const std::string& key, double value, Observable which) {
  const sim::RodScene scene = robot({key + "=" + number_text(value, 17)});
  return adjoint::run_objective(scene.model, scene.dynamics, start_of(scene), kSteps,
                                observable(scene, which), {});
}

void expect_gradient_matches_scene_differences(Observable which) {
  const sim::RodScene scene = robot();
  const std::size_t head = head_drag_index(scene.model);
  const std::vector<adjoint::Parameter> parameters = {
      adjoint::head_drag_c1(scene.model, head), adjoint::head_drag_c2(scene.model, head),
      adjoint::medium_mu(scene.model, 6.828), adjoint::motor_rpm(scene.model, 0)};
  const std::vector<std::string> keys = {"flagellated_robot.C1", "flagellated_robot.C2",
                                         "flagellated_robot.mu", "flagellated_robot.motor_rpm"};
  const adjoint::RunGradient g = adjoint::run_with_gradient(
      scene.model, scene.dynamics, start_of(scene), kSteps, observable(scene, which), parameters);
  ASSERT_TRUE(g.ok) << g.message;
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    double uncertainty = 0.0;
    const double difference = test::converged_central_difference(
        [&](double v) { return objective_of_scene(keys[i], v, which); }, parameters[i].value,
        1e-2 * parameters[i].difference_step(), &uncertainty);
    const double value = g.parameters[static_cast<Eigen::Index>(i)];
    EXPECT_NEAR(value, difference, 1e-6 * std::abs(difference))
        << keys[i] << ": whole-run difference " << difference << " (converged to " << uncertainty
        << ")";
    EXPECT_GT(std::abs(difference), 1e3 * uncertainty) << keys[i] << ": the difference is resolved";
    const char* names[] = {"speed", "head rotation", "tail rotation"};
    std::printf("%s d/d%s: adjoint %.12g, difference %.12g, relative error %.2e\n",
                names[static_cast<int>(which)], keys[i].c_str(), value, difference,
                std::abs(value - difference) / std::abs(difference));
  }
}

TEST(RobotGradients, SpeedAgainstWholeRunDifferencesOfTheScene) {
  expect_gradient_matches_scene_differences(Observable::speed);
}

TEST(RobotGradients, HeadRotationAgainstWholeRunDifferencesOfTheScene) {
  expect_gradient_matches_scene_differences(Observable::head_rotation);
}

TEST(RobotGradients, TailRotationAgainstWholeRunDifferencesOfTheScene) {
  expect_gradient_matches_scene_differences(Observable::tail_rotation);
}

}  // namespace
}  // namespace tendril
