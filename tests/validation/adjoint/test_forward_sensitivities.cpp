// Forward sensitivities of whole runs (adjoint/forward_sensitivity.hpp) against two independent
// references: central differences of whole runs (validation/adjoint/whole_run_difference.hpp) and
// the discrete adjoint's gradient of each objective (adjoint/run_gradient.hpp, its own backward
// pass). A 3D rod curling out of plane with initial twist rates in a viscous medium (frame angles,
// damping, two objectives from one run), and the flagellated robot's speed and rotation rates with
// respect to C1, C2, mu and the motor's rpm (the observables and parameters of `tendril fit`).
// Beyond the curled rod: a run whose steps were split (dt halved), a rod's radius (the residual a
// quartic in it) and shell strips with mid-edge and hinge bending (thickness a cubic), against
// whole-run differences. What they do not differentiate is refused with the key.
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/input_error.hpp"

#include "support/source_tree.hpp"
#include "tendril/adjoint/forward_sensitivity.hpp"
#include "tendril/adjoint/medium_parameter.hpp"
#include "tendril/adjoint/rest_shape_parameters.hpp"
#include "tendril/adjoint/robot_objective.hpp"
#include "tendril/adjoint/run_gradient.hpp"
#include "tendril/adjoint/section_parameters.hpp"
#include "tendril/forces/gravity.hpp"
#include "tendril/forces/head_drag.hpp"
#include "tendril/forces/viscous_drag.hpp"
#include "tendril/sim/rod_scene.hpp"
#include "unit/rod/rod_shapes.hpp"
#include "validation/adjoint/gradient_case.hpp"
#include "validation/adjoint/rod_across_rail.hpp"
#include "validation/adjoint/swinging_strip.hpp"
#include "validation/adjoint/whole_run_difference.hpp"

namespace tendril {
namespace {

using adjoint::Parameter;

struct SensitivityCase {
  Model model;
  State initial;
  DynamicsOptions options;
  int steps = 0;
  std::vector<adjoint::Objective> objectives;
  std::vector<Parameter> parameters;
};

/// The 11-node cantilever (L 1 m, r 5 mm, E 1e7 Pa, rho 1273.52 kg/m^3) clamped at x = 0 under
/// gravity, with natural curvature about both material axes, initial twist rates and viscous drag:
/// it curls out of plane, so the reference frames turn in 3D.
SensitivityCase curled_rod_in_medium() {
  test::BuiltRod rod = test::clamped_benchmark_rod(11);
  rod.model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0.0, 0.0, -9.81)));
  rod.model.forces.push_back(std::make_shared<ViscousDrag>(rod.model, std::vector<int>{}, 0.5));
  SensitivityCase c;
  c.initial = test::rest_state(rod);
  for (int e = 1; e < 10; ++e) c.initial.u[rod.model.dofs.twist(e)] = 3.0 * e;
  c.options.dt = 2e-3;
  c.options.newton.force_tolerance = 1e-14;  // Newton to its round-off floor
  c.steps = 50;
  c.objectives = {adjoint::distance_to_targets(rod.model, {{10, 50, {0.9, 0.0, -0.1}}}),
                  adjoint::position_time_integral(rod.model, 10, Vec3(0.2, 1.0, 0.3), 2e-3)};
  c.parameters = {adjoint::youngs_modulus(rod.model, 1e7),
                  adjoint::density(rod.model, 1273.52),
                  adjoint::uniform_natural_curvature(0, 2.0),
                  adjoint::uniform_natural_curvature(1, -1.5),
                  adjoint::spring_natural_curvature(rod.model, 6, 0),
                  adjoint::viscosity(rod.model, 0, {}, 0.5)};
  c.model = std::move(rod.model);
  return c;
}

/// Every derivative against the adjoint gradient of its objective (the same discrete derivative
/// by the transposed recursion: equal to round-off, relative 1e-9 of the row's largest entry).
void expect_sensitivities_match_adjoint(const SensitivityCase& c) {
  const adjoint::RunSensitivities s = adjoint::run_with_sensitivities(
      c.model, c.options, c.initial, c.steps, c.objectives, c.parameters);
  ASSERT_TRUE(s.ok) << s.message;
  for (std::size_t j = 0; j < c.objectives.size(); ++j) {
    const adjoint::RunGradient g = adjoint::run_with_gradient(
        c.model, c.options, c.initial, c.steps, c.objectives[j], c.parameters);
    ASSERT_TRUE(g.ok) << g.message;
    const auto jj = static_cast<Eigen::Index>(j);
    EXPECT_DOUBLE_EQ(s.values[jj], g.value);
    const double scale = g.parameters.cwiseAbs().maxCoeff();
    for (std::size_t i = 0; i < c.parameters.size(); ++i)
      EXPECT_NEAR(s.derivatives(jj, static_cast<Eigen::Index>(i)),
                  g.parameters[static_cast<Eigen::Index>(i)], 1e-9 * scale)
          << "objective " << j << ", " << c.parameters[i].name;
  }
}

TEST(ForwardSensitivities, CurledRodInMediumAgainstWholeRunDifferences) {
  const SensitivityCase c = curled_rod_in_medium();
  const adjoint::RunSensitivities s = adjoint::run_with_sensitivities(
      c.model, c.options, c.initial, c.steps, c.objectives, c.parameters);
  ASSERT_TRUE(s.ok) << s.message;
  EXPECT_GT(std::abs(s.final_state.q[c.model.dofs.node(10) + 1]), 1e-3) << "the rod leaves y = 0";
  for (std::size_t j = 0; j < c.objectives.size(); ++j)
    for (std::size_t i = 0; i < c.parameters.size(); ++i) {
      const auto objective_at = [&](double value) {
        std::vector<Parameter> parameters = c.parameters;
        parameters[i].value = value;
        return adjoint::run_objective(c.model, c.options, c.initial, c.steps, c.objectives[j],
                                      parameters);
      };
      double uncertainty = 0.0;
      const double difference = test::converged_central_difference(
          objective_at, c.parameters[i].value, 1e-2 * c.parameters[i].difference_step(),
          &uncertainty);
      const double value =
          s.derivatives(static_cast<Eigen::Index>(j), static_cast<Eigen::Index>(i));
      EXPECT_NEAR(value, difference, 1e-6 * std::abs(difference))
          << "objective " << j << ", " << c.parameters[i].name << ": whole-run difference "
          << difference << " (converged to " << uncertainty << ")";
      EXPECT_GT(std::abs(difference), 1e3 * uncertainty) << "the difference is resolved";
    }
}

TEST(ForwardSensitivities, CurledRodInMediumAgainstTheAdjoint) {
  expect_sensitivities_match_adjoint(curled_rod_in_medium());
}

/// The example robot (implicit Euler, dt = 0.01 s, the motor an actuator) at 150 rpm for 1 s, with
/// Newton to its round-off floor; its speed and signed head and tail rotation rates over the second
/// half, with respect to C1, C2, mu and the motor's rpm.
SensitivityCase robot() {
  sim::RodScene scene = sim::load_rod_scene_file(
      testing::source_tree() / "examples" / "flagellated_robot.yaml",
      {"duration=1", "integrator.newton.force_tolerance=1e-14", "flagellated_robot.motor_rpm=150"});
  SensitivityCase c;
  c.initial.q = scene.q_initial;
  c.initial.u = scene.u_initial;
  initialize_frames(scene.model, c.initial.q, c.initial.frames);
  c.options = scene.dynamics;
  c.steps = 100;
  const adjoint::SlopeWindow window{0.0, scene.dt, c.steps, 0.5};
  const sim::ObservableSpec& spec = *scene.observables;
  c.objectives = {adjoint::robot_speed(scene.model, spec.head_edge, spec.axis, window),
                  adjoint::robot_head_rotation(scene.model, spec.head_edge, spec.axis, window),
                  adjoint::robot_head_rotation(scene.model, spec.tail_edge, spec.axis, window)};
  std::size_t head = 0;
  while (!dynamic_cast<const HeadDrag*>(scene.model.forces[head].get())) ++head;
  c.parameters = {adjoint::head_drag_c1(scene.model, head),
                  adjoint::head_drag_c2(scene.model, head), adjoint::medium_mu(scene.model, 6.828),
                  adjoint::motor_rpm(scene.model, 0)};
  c.model = std::move(scene.model);
  return c;
}

TEST(ForwardSensitivities, FlagellatedRobotAgainstTheAdjoint) {
  expect_sensitivities_match_adjoint(robot());
}

/// The derivatives of the case's objective from the forward sensitivities against converged
/// central differences of whole runs (relative error <= 1e-6); returns the sensitivities.
adjoint::RunSensitivities expect_sensitivities_match_differences(const test::GradientCase& c) {
  const adjoint::RunSensitivities s = adjoint::run_with_sensitivities(
      c.model, c.options, c.initial, c.steps, {c.objective}, c.parameters);
  EXPECT_TRUE(s.ok) << s.message;
  if (!s.ok) return s;
  for (std::size_t i = 0; i < c.parameters.size(); ++i) {
    const Parameter& p = c.parameters[i];
    double uncertainty = 0.0;
    const double difference =
        test::converged_central_difference([&](double v) { return test::objective_at(c, i, v); },
                                           p.value, 1e-2 * p.difference_step(), &uncertainty);
    test::expect_matches(s.derivatives(0, static_cast<Eigen::Index>(i)), difference, uncertainty,
                         p.name);
  }
  return s;
}

/// Steps of 20 ms with at most 4 Newton iterations: the first steps of the release are split (dt
/// halved); the sensitivities follow the substeps taken.
TEST(ForwardSensitivities, HalvedStepsFollowTheSubsteps) {
  const test::GradientCase c = test::halved_steps_cantilever();
  const adjoint::RunGradient g =
      adjoint::run_with_gradient(c.model, c.options, c.initial, c.steps, c.objective, c.parameters);
  ASSERT_TRUE(g.ok) << g.message;
  EXPECT_GT(g.substeps, c.steps) << "some steps were split";
  expect_sensitivities_match_differences(c);
}

/// The cantilever's rod radius, on which the residual depends as a polynomial of degree 4 (its
/// derivative from the fourth-order stencil), with E and the density.
TEST(ForwardSensitivities, RodRadiusOfDegreeFour) {
  test::GradientCase c = test::cantilever();
  c.parameters = {adjoint::rod_radius(c.model, 5e-3), adjoint::youngs_modulus(c.model, 1e7),
                  adjoint::density(c.model, 1273.52)};
  expect_sensitivities_match_differences(c);
}

TEST(ForwardSensitivities, ShellStripsWithMidEdgeAndHingeBending) {
  for (const ShellBending bending : {ShellBending::midedge, ShellBending::hinge}) {
    SCOPED_TRACE(bending == ShellBending::midedge ? "mid-edge" : "hinge");
    test::GradientCase c = test::swinging_strip(bending);
    c.parameters.push_back(adjoint::poisson_ratio(c.model, 0.3));
    const adjoint::RunSensitivities s = expect_sensitivities_match_differences(c);
    EXPECT_LT(s.final_state.q[c.model.dofs.node(20) + 2], -5e-3) << "the strip bends";
  }
}

/// The case's sensitivities against the adjoint gradient of its objective (equal to round-off,
/// relative 1e-9 of the largest entry), the run's contact state changes counted.
void expect_gradient_matches_adjoint(const test::GradientCase& c,
                                     const adjoint::RunSensitivities& s) {
  const adjoint::RunGradient g =
      adjoint::run_with_gradient(c.model, c.options, c.initial, c.steps, c.objective, c.parameters);
  ASSERT_TRUE(g.ok) << g.message;
  EXPECT_GE(g.contact_switches, 1) << "the contact closes within the run";
  EXPECT_DOUBLE_EQ(s.values[0], g.value);
  const double scale = g.parameters.cwiseAbs().maxCoeff();
  for (std::size_t i = 0; i < c.parameters.size(); ++i)
    EXPECT_NEAR(s.derivatives(0, static_cast<Eigen::Index>(i)),
                g.parameters[static_cast<Eigen::Index>(i)], 1e-9 * scale)
        << c.parameters[i].name;
}

/// The free rod falling onto the rail at 1 m/s from a gap of 17.5 mm (validate_adjoint's
/// ContactGradients.RodFallingOntoARod) while sliding along it at 0.5 m/s: the contact closes in
/// step 8 of 40 and the rod slips along the rail. Each step's linearisation needs the pairs active
/// at its end (2.4 mm apart at the start of step 8) and friction's dF/du with them (the contact
/// candidates of the step's end, not those of a new workspace, the initial shape's).
TEST(ForwardSensitivities, RodFallingOntoARodWithFriction) {
  const test::GradientCase c = test::rod_across_rail_case(2.75e-2, Vec3(0.5, 0.0, -1.0));
  const adjoint::RunSensitivities s = expect_sensitivities_match_differences(c);
  expect_gradient_matches_adjoint(c, s);
  EXPECT_GT(s.final_state.q[c.model.dofs.node(13)], 0.01) << "it slides";
  EXPECT_LT(s.final_state.q[c.model.dofs.node(13) + 2] - 1e-2, 1e-3) << "resting on the rail";
}

TEST(ForwardSensitivities, WhatItDoesNotDifferentiateIsRefusedWithTheKey) {
  SensitivityCase c = curled_rod_in_medium();
  const auto run = [&] {
    adjoint::run_with_sensitivities(c.model, c.options, c.initial, c.steps, c.objectives,
                                    c.parameters);
  };
  c.parameters = {adjoint::density(c.model, 1273.52)};
  c.options.scheme = Scheme::implicit_midpoint;
  testing::expect_input_error(run, {"scheme", "implicit_midpoint", "implicit_euler"});
  c.options.scheme = Scheme::implicit_euler;
  c.steps = 0;
  testing::expect_input_error(run, {"steps", "0", ">= 1"});
  c.steps = 3;  // 3 steps end at 3 dt, not 4 dt
  testing::expect_input_error(
      [&] {
        adjoint::run_with_sensitivities(c.model, c.options, c.initial, c.steps, c.objectives,
                                        c.parameters, c.initial.time + 4.0 * c.options.dt);
      },
      {"end_time", "within 1e-9 dt"});
}

}  // namespace
}  // namespace tendril
