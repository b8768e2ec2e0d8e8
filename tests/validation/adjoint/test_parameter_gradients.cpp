// Gradients of whole rod runs with respect to the parameters beyond the material's E and rho,
// against central differences of whole runs (gradient_case.hpp): the rods' radius (a quartic in
// the residual), the shear modulus, the components of a point load and the knots of a natural
// curvature schedule (the per-step control a controller sets), under implicit Euler and the
// midpoint rule; the scale of the rest lengths and the Poisson ratio, which the residual is not a
// polynomial in (their stencils move along a tangent); the rest lengths of single edges, the
// natural angles of shell hinges and the natural folds of mid-edge shell edges.
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "tendril/adjoint/control_parameters.hpp"
#include "tendril/adjoint/rest_shape_parameters.hpp"
#include "tendril/adjoint/run_gradient.hpp"
#include "tendril/adjoint/section_parameters.hpp"
#include "tendril/forces/point_load.hpp"
#include "validation/adjoint/gradient_case.hpp"
#include "validation/adjoint/swinging_strip.hpp"

namespace tendril {
namespace {

/// The cantilever under gravity, curled out of plane by a uniform kappa_2 of -1.5 1/m and initial
/// twist rates, with its kappa_bar_1 scheduled through four knots (0, 0.04, 0.08, 0.12 s: 0, 0.2,
/// -0.1, 0.15) and a point load (0.05, 0, -0.1) N at the tip.
test::GradientCase actuated_cantilever() {
  test::GradientCase c = test::cantilever();
  for (int e = 1; e < 10; ++e) c.initial.u[c.model.dofs.twist(e)] = 3.0 * e;
  std::vector<int> springs(c.model.rods.springs.size());
  for (std::size_t k = 0; k < springs.size(); ++k) springs[k] = static_cast<int>(k);
  c.model.actuators.push_back(std::make_shared<adjoint::ControlSchedule>(
      c.model, RestQuantity::natural_curvature_1, springs, std::vector{0.0, 0.04, 0.08, 0.12},
      std::vector{0.0, 0.2, -0.1, 0.15}));
  c.model.forces.push_back(std::make_shared<PointLoad>(10, Vec3(0.05, 0.0, -0.1)));
  c.parameters = {
      adjoint::uniform_natural_curvature(1, -1.5),  adjoint::rod_radius(c.model, 5e-3),
      adjoint::shear_modulus(c.model, 1e7 / 3.0),   adjoint::point_load_component(c.model, 0, 0),
      adjoint::point_load_component(c.model, 0, 2), adjoint::control_knot(c.model, 0, 1),
      adjoint::control_knot(c.model, 0, 2)};
  return c;
}

/// Every parameter's gradient (and those of the initial velocities `velocity_dofs`) against
/// converged whole-run differences (test::expect_gradient_matches_differences), one derivative per
/// parameter.
void expect_parameter_gradients(const test::GradientCase& c,
                                const std::vector<int>& velocity_dofs) {
  const adjoint::RunGradient g = test::expect_gradient_matches_differences(c, velocity_dofs);
  EXPECT_EQ(g.parameters.size(), static_cast<Eigen::Index>(c.parameters.size())) << g.message;
}

TEST(ParameterGradients, RadiusShearModulusLoadAndControlKnots) {
  const test::GradientCase c = actuated_cantilever();
  expect_parameter_gradients(c, {c.model.dofs.twist(5)});
}

TEST(ParameterGradients, ControlKnotsUnderTheMidpointRule) {
  test::GradientCase c = actuated_cantilever();
  c.options.scheme = Scheme::implicit_midpoint;
  expect_parameter_gradients(c, {});
}

/// The curled cantilever (natural curvature (2, -1.5) 1/m, twist rates; nu 0.5) with its rest
/// lengths scaled and its Poisson ratio moved, E and a uniform kappa_2 set after them.
TEST(ParameterGradients, RestLengthScaleAndPoissonRatio) {
  test::GradientCase c = test::curled_cantilever();
  c.parameters = {adjoint::rest_length_scale(c.model, 1.0), adjoint::poisson_ratio(c.model, 0.5),
                  adjoint::youngs_modulus(c.model, 1e7),
                  adjoint::uniform_natural_curvature(1, -1.5)};
  expect_parameter_gradients(c, {c.model.dofs.twist(5)});
}

/// The curled cantilever with the rest lengths of two adjacent edges (one set 10 % longer than
/// built, so that the rod is strained at rest) and E.
TEST(ParameterGradients, EdgeRestLengths) {
  test::GradientCase c = test::curled_cantilever();
  c.parameters = {adjoint::edge_rest_length(c.model, 4), adjoint::edge_rest_length(c.model, 5),
                  adjoint::youngs_modulus(c.model, 1e7)};
  c.parameters[0].value *= 1.1;
  expect_parameter_gradients(c, {});
}

/// The strip with hinge bending, its last hinge folded at rest by 0.2 rad: the natural angles of
/// two hinges and E.
TEST(ParameterGradients, HingeNaturalAngles) {
  test::GradientCase c = test::swinging_strip(ShellBending::hinge);
  const int last = static_cast<int>(c.model.shells.hinges.size()) - 1;
  c.model.shells.hinges.back().natural_angle = 0.2;
  c.parameters = {adjoint::hinge_natural_angle(c.model, last),
                  adjoint::hinge_natural_angle(c.model, last - 3),
                  adjoint::youngs_modulus(c.model, 2e7)};
  expect_parameter_gradients(c, {});
}

/// The strip with mid-edge bending: the natural folds of two interior edges near the tip (one
/// folded at rest by 0.2 rad) and E.
TEST(ParameterGradients, MidEdgeNaturalFolds) {
  test::GradientCase c = test::swinging_strip(ShellBending::midedge);
  std::vector<int> interior;
  for (int e = static_cast<int>(c.model.shells.edges.size()) - 1; e >= 0; --e)
    if (c.model.shells.edge_triangles[static_cast<std::size_t>(e)][1] >= 0) interior.push_back(e);
  c.parameters = {adjoint::midedge_natural_fold(c.model, interior[0]),
                  adjoint::midedge_natural_fold(c.model, interior[2]),
                  adjoint::youngs_modulus(c.model, 2e7)};
  c.parameters[0].value = 0.2;
  expect_parameter_gradients(c, {});
}

}  // namespace
}  // namespace tendril
