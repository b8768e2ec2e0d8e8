// Each parameter's dr/dp, as StepAdjoint takes it from its difference stencil (Parameter::degree:
// affine, or the fourth-order central difference, exact for polynomials of degree <= 4; in the
// parameter or along its tangent), against a central difference of the step residual in the
// parameter with a small step, in the conformance suite's style; and the stencil's exactness: the
// same derivative for two stencil widths. Terms: E, density, natural curvatures and viscosity on a
// 3D rod with twist, rod radius and shear modulus, rest lengths (scaled, and single edges') and
// the Poisson ratio, hinges' natural angles,
// point-load components and schedule knots (actuated at the solve time), contact stiffness and
// friction with an obstacle and between rods, shell thickness, Young's modulus and Poisson ratio.
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tendril/adjoint/contact_parameters.hpp"
#include "tendril/adjoint/control_parameters.hpp"
#include "tendril/adjoint/rest_shape_parameters.hpp"
#include "tendril/adjoint/section_parameters.hpp"
#include "tendril/adjoint/step_adjoint.hpp"
#include "tendril/contact/friction/obstacle_friction.hpp"
#include "tendril/contact/obstacle_contact.hpp"
#include "tendril/core/actuator.hpp"
#include "tendril/forces/gravity.hpp"
#include "tendril/forces/point_load.hpp"
#include "tendril/integrate/time_stepper.hpp"
#include "tendril/io/shell_generators.hpp"
#include "tendril/shell/shell_builder.hpp"
#include "unit/adjoint/curled_rod.hpp"
#include "unit/adjoint/rods_in_contact.hpp"
#include "unit/rod/rod_shapes.hpp"

namespace tendril {
namespace {

/// A model with parameters and the step of its run at which dr/dp is checked.
struct StencilCase {
  Model model;
  State initial;
  DynamicsOptions options;
  std::vector<adjoint::Parameter> parameters;
  int step = 5;
};

/// The residual r(y) (all DOFs) of the implicit Euler step start -> end on `model`, the actuators
/// at the solve time.
VecX residual(const StencilCase& c, const Model& model, const State& start, const State& end) {
  VecX predicted;
  const NewtonProblem problem = adjoint::implicit_euler_problem(start, c.options.dt, predicted);
  Model actuated = model;
  actuated_rods(model, problem.time, actuated.rods);
  NewtonSystem system(actuated, c.options.newton);
  system.update_stencils(start);
  EXPECT_TRUE(system.evaluate(problem, end.q, false));
  return system.residual();
}

/// The residual on c.model with parameter i at `value` (the others at theirs).
VecX residual(const StencilCase& c, std::size_t i, double value, const State& start,
              const State& end) {
  Model model = c.model;
  for (std::size_t j = 0; j < c.parameters.size(); ++j)
    c.parameters[j].apply(model, j == i ? value : c.parameters[j].value);
  return residual(c, model, start, end);
}

/// dr/dp of parameter i from its stencil at width d (its value moved, or its tangent).
VecX stencil_derivative(const StencilCase& c, std::size_t i, double d, const State& start,
                        const State& end) {
  const auto r = [&](double offset) {
    return residual(c, adjoint::with_moved_parameter(c.model, c.parameters, i, offset * d), start,
                    end);
  };
  if (c.parameters[i].degree == 1) return (r(1.0) - r(0.0)) / d;
  return (8.0 * (r(1.0) - r(-1.0)) - (r(2.0) - r(-2.0))) / (12.0 * d);
}

void expect_stencils_are_residual_derivatives(const StencilCase& c) {
  State start = c.initial;
  TimeStepper stepper(c.model, c.options, c.initial.q);
  for (int k = 0; k < c.step; ++k) ASSERT_TRUE(stepper.step(start).ok());
  State end = start;
  ASSERT_TRUE(stepper.step(end).ok());
  for (std::size_t i = 0; i < c.parameters.size(); ++i) {
    const adjoint::Parameter& p = c.parameters[i];
    const double d = p.difference_step();
    const VecX stencil = stencil_derivative(c, i, d, start, end);
    const VecX narrower = stencil_derivative(c, i, -0.37 * d, start, end);
    const double h = 1e-5 * d;
    const VecX central =
        (residual(c, i, p.value + h, start, end) - residual(c, i, p.value - h, start, end)) /
        (2.0 * h);
    ASSERT_GT(stencil.norm(), 0.0) << p.name;
    EXPECT_LE((stencil - narrower).norm(), 1e-9 * stencil.norm()) << p.name << ": exact stencil";
    EXPECT_LE((stencil - central).norm(), 1e-6 * stencil.norm()) << p.name;
  }
}

/// The curled 3D rod with twist in a viscous medium: E, rho, uniform and per-spring natural
/// curvatures, viscosity (all affine).
TEST(ParameterStencils, MaterialCurvatureAndViscosity) {
  test::CurledRod rod = test::curled_rod();
  StencilCase c{std::move(rod.model), std::move(rod.initial), rod.options,
                std::move(rod.parameters), 10};
  expect_stencils_are_residual_derivatives(c);
}

/// The clamped 11-node rod under gravity with twist rates, its kappa_bar_1 scheduled and a tip
/// load.
TEST(ParameterStencils, SectionLoadAndControlKnots) {
  test::BuiltRod rod = test::clamped_benchmark_rod(11);
  rod.model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0.0, 0.0, -9.81)));
  StencilCase c;
  c.initial = test::rest_state(rod);
  for (int e = 1; e < 10; ++e) c.initial.u[rod.model.dofs.twist(e)] = 3.0 * e;
  rod.model.actuators.push_back(std::make_shared<adjoint::ControlSchedule>(
      rod.model, RestQuantity::natural_curvature_1, std::vector<int>{2, 3, 4, 5},
      std::vector{0.0, 0.008, 0.016, 0.02}, std::vector{0.0, 0.2, -0.1, 0.15}));
  rod.model.forces.push_back(std::make_shared<PointLoad>(10, Vec3(0.05, 0.0, -0.1)));
  c.options.dt = 2e-3;
  c.parameters = {adjoint::rod_radius(rod.model, 5e-3),
                  adjoint::shear_modulus(rod.model, 1e7 / 3.0),
                  adjoint::point_load_component(rod.model, 0, 0),
                  adjoint::point_load_component(rod.model, 0, 2),
                  adjoint::control_knot(rod.model, 0, 1),
                  adjoint::control_knot(rod.model, 0, 2)};
  c.model = std::move(rod.model);
  expect_stencils_are_residual_derivatives(c);
}

/// The free rod sliding on the ground with node contact and friction.
TEST(ParameterStencils, ContactStiffnessAndFriction) {
  test::BuiltRod rod = test::clamped_benchmark_rod(11);
  std::fill(rod.model.fixed.begin(), rod.model.fixed.end(), std::uint8_t{0});
  rod.model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0.0, 0.0, -9.81)));
  StencilCase c;
  c.initial = test::rest_state(rod);
  contact::ContactNodes nodes;
  for (int i = 0; i < 11; ++i) {
    nodes.nodes.push_back(i);
    nodes.radius.push_back(5e-3);
    c.initial.q[rod.model.dofs.node(i) + 2] = 5e-3;
    c.initial.u.segment<3>(rod.model.dofs.node(i)) = Vec3(0.5, 0.1, 0.0);
  }
  const contact::ContactParameters params{.stiffness = 1e3, .friction = 0.4};
  const auto ground = std::make_shared<contact::HalfSpace>(Vec3::Zero(), Vec3::UnitZ());
  rod.model.energies.push_back(std::make_shared<contact::ObstacleContact>(ground, nodes, params));
  rod.model.forces.push_back(std::make_shared<contact::ObstacleFriction>(ground, nodes, params));
  c.options.dt = 2e-3;
  const std::size_t contact = rod.model.energies.size() - 1;
  c.parameters = {adjoint::contact_stiffness(rod.model, contact, 0),
                  adjoint::friction_coefficient(rod.model, contact, 0)};
  c.model = std::move(rod.model);
  expect_stencils_are_residual_derivatives(c);
}

/// A free rod sliding across a fixed one with edge-edge contact and friction.
TEST(ParameterStencils, ContactStiffnessAndFrictionBetweenRods) {
  test::RodsInContact rods = test::rod_across_rail(1e-2, Vec3(0.5, 0.1, 0.0));
  StencilCase c;
  c.model = std::move(rods.model);
  c.initial = std::move(rods.initial);
  c.options.dt = 2e-3;
  const std::size_t contact = c.model.energies.size() - 1;
  c.parameters = {adjoint::contact_stiffness(c.model, contact, 0),
                  adjoint::friction_coefficient(c.model, contact, 0)};
  expect_stencils_are_residual_derivatives(c);
}

/// The curled 3D rod with twist (nu 0.5): the rest lengths' scale and the Poisson ratio, along
/// their tangents, with a uniform natural curvature set after the scale.
TEST(ParameterStencils, RestLengthsAndPoissonRatio) {
  test::CurledRod rod = test::curled_rod();
  rod.parameters = {adjoint::rest_length_scale(rod.model, 1.0),
                    adjoint::uniform_natural_curvature(1, -1.5),
                    adjoint::poisson_ratio(rod.model, 0.5)};
  StencilCase c{std::move(rod.model), std::move(rod.initial), rod.options,
                std::move(rod.parameters), 10};
  expect_stencils_are_residual_derivatives(c);
}

/// The curled 3D rod with twist: the rest lengths of two adjacent edges (along the tangent of
/// 1/l), with the scale of all rest lengths listed between them.
TEST(ParameterStencils, EdgeRestLengths) {
  test::CurledRod rod = test::curled_rod();
  rod.parameters = {
      adjoint::edge_rest_length(rod.model, 3), adjoint::rest_length_scale(rod.model, 1.0),
      adjoint::edge_rest_length(rod.model, 4), adjoint::youngs_modulus(rod.model, 1e7)};
  rod.parameters[0].value *= 1.1;  // another rest length than the model's
  StencilCase c{std::move(rod.model), std::move(rod.initial), rod.options,
                std::move(rod.parameters), 10};
  expect_stencils_are_residual_derivatives(c);
}

/// A 0.2 x 0.05 m strip (5 x 3 nodes) with `bending`, clamped at one end, swinging under gravity.
StencilCase clamped_strip(ShellBending bending) {
  const io::TriangleMesh mesh = io::rectangle_mesh(0.2, 0.05, 5, 3, io::MeshPattern::alternating);
  ShellInput input;
  input.triangles = mesh.triangles;
  input.material = {
      .youngs_modulus = 2e7, .poisson_ratio = 0.3, .density = 1000.0, .thickness = 4e-3};
  input.bending = bending;
  StencilCase c;
  c.model = build_shell_model(mesh.nodes, {input});
  c.model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0.0, 0.0, -9.81)));
  for (int i = 0; i < c.model.dofs.num_nodes; ++i)
    if (mesh.nodes[static_cast<std::size_t>(i)].x() < 0.06)
      for (int d = 0; d < 3; ++d) c.model.fixed[static_cast<std::size_t>(3 * i + d)] = 1;
  c.initial.q = rest_configuration(c.model);
  c.initial.u = VecX::Zero(c.model.dofs.size());
  initialize_frames(c.model, c.initial.q, c.initial.frames);
  c.options.dt = 2e-3;
  return c;
}

/// The strip with hinge bending: the natural angles of two hinges (one folded at rest by 0.2 rad).
TEST(ParameterStencils, HingeNaturalAngles) {
  StencilCase c = clamped_strip(ShellBending::hinge);
  const int last = static_cast<int>(c.model.shells.hinges.size()) - 1;
  c.model.shells.hinges.back().natural_angle = 0.2;
  c.parameters = {adjoint::hinge_natural_angle(c.model, last),
                  adjoint::hinge_natural_angle(c.model, last - 3)};
  expect_stencils_are_residual_derivatives(c);
}

/// A mid-edge strip clamped at one end, swinging under gravity; then the natural folds of two
/// interior edges.
TEST(ParameterStencils, ShellThicknessModulusAndPoissonRatio) {
  StencilCase c = clamped_strip(ShellBending::midedge);
  c.parameters = {adjoint::shell_thickness(c.model, 4e-3), adjoint::youngs_modulus(c.model, 2e7),
                  adjoint::poisson_ratio(c.model, 0.3)};
  expect_stencils_are_residual_derivatives(c);
  // the natural folds of two interior edges, one set to 0.2 rad
  c.parameters.clear();
  for (int e = 0; e < static_cast<int>(c.model.shells.edges.size()); e += 3)
    if (c.model.shells.edge_triangles[static_cast<std::size_t>(e)][1] >= 0 &&
        c.parameters.size() < 2)
      c.parameters.push_back(adjoint::midedge_natural_fold(c.model, e));
  ASSERT_EQ(c.parameters.size(), 2u);
  c.parameters[0].value = 0.2;
  expect_stencils_are_residual_derivatives(c);
}

TEST(ParameterStencils, BadInputIsRefused) {
  test::BuiltRod rod = test::clamped_benchmark_rod(11);
  const Model& m = rod.model;
  EXPECT_THROW(adjoint::rod_radius(m, -1.0), InputError);
  EXPECT_THROW(adjoint::shell_thickness(m, 1e-3), InputError);
  EXPECT_THROW(adjoint::contact_stiffness(m, 0, -1), InputError);
  EXPECT_THROW(adjoint::point_load_component(m, 0, 0), InputError);
  EXPECT_THROW(adjoint::control_knot(m, 0, 0), InputError);
  EXPECT_THROW(adjoint::edge_rest_length(m, 10), InputError);
  EXPECT_THROW(adjoint::hinge_natural_angle(m, 0), InputError);
  EXPECT_THROW(adjoint::midedge_natural_fold(m, 0), InputError);
  EXPECT_THROW(adjoint::ControlSchedule(m, RestQuantity::rest_length, {0}, {0.0}, {1.0}),
               InputError);
}

}  // namespace
}  // namespace tendril
