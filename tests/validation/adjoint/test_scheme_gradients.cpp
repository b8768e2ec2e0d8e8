// Gradients of whole rod runs by the discrete adjoint beyond implicit Euler, against central
// differences of whole runs (gradient_case.hpp): the static equilibrium of a cantilever, a static
// solve followed by dynamics, implicit midpoint and the generalised midpoint rule on a 3D rod whose
// frames turn, and a run whose steps were split (dt halved), which the backward pass follows.
#include <cmath>
#include <memory>

#include <gtest/gtest.h>

#include "tendril/adjoint/run_gradient.hpp"
#include "tendril/forces/point_load.hpp"
#include "validation/adjoint/gradient_case.hpp"

namespace tendril {
namespace {

using test::GradientCase;

/// Static options with Newton to its round-off floor.
StaticOptions tight_static() {
  StaticOptions options;
  options.newton.force_tolerance = 1e-14;
  return options;
}

/// The curled cantilever's equilibrium under gravity: L is the tip's distance to a point (state 0
/// of a run of no steps), its gradient one transposed solve at the solution.
TEST(StaticGradients, CantileverEquilibrium) {
  GradientCase c = test::curled_cantilever();
  c.steps = 0;
  c.gradient.static_start = tight_static();
  c.objective =
      adjoint::distance_to_targets(c.model, {{10, 0, {0.7, 0.1, -0.3}}, {5, 0, Vec3::Zero()}});
  const adjoint::RunGradient g = test::expect_gradient_matches_differences(c, {});
  EXPECT_GT(std::abs(g.final_state.q[c.model.dofs.node(10) + 1]), 1e-2) << "out of plane";
  EXPECT_EQ(g.initial_position.norm(), 0.0) << "the equilibrium does not depend on the start";
}

/// A static solve under gravity (the point load is zero at t = 0), then 30 steps in which a point
/// load at the tip grows: the dynamic run starts at the equilibrium, which depends on the
/// parameters too.
TEST(StaticGradients, StaticSolveThenDynamics) {
  GradientCase c = test::curled_cantilever();
  c.model.forces.push_back(
      std::make_shared<PointLoad>(10, [](double t) { return Vec3(0.0, 0.2 * t, -0.5 * t); }));
  c.gradient.static_start = tight_static();
  c.steps = 30;
  c.objective = adjoint::sum(
      {adjoint::distance_to_targets(c.model, {{10, 30, {0.8, 0.0, -0.2}}, {7, 0, Vec3::Zero()}}),
       adjoint::position_time_integral(c.model, 10, Vec3(0.0, 1.0, 1.0), c.options.dt)});
  test::expect_gradient_matches_differences(c, {});
}

/// The curled rod with twist under the midpoint rule (alpha 1/2, no numerical damping) and the
/// generalised midpoint rule (alpha 0.7), with initial velocities and positions.
TEST(MidpointGradients, CurledRodWithTwist) {
  for (double alpha : {0.5, 0.7}) {
    SCOPED_TRACE(alpha);
    GradientCase c = test::curled_cantilever();
    c.options.scheme = Scheme::implicit_midpoint;
    c.options.midpoint_alpha = alpha;
    const int tip = c.model.dofs.node(10);
    test::expect_gradient_matches_differences(
        c, {tip + 1, c.model.dofs.twist(9)},
        {tip + 2, c.model.dofs.node(4), c.model.dofs.twist(3)});
  }
}

/// Steps of 20 ms with at most 4 Newton iterations: the first steps of the release fail whole and
/// are split (dt halved, once or more); the backward pass follows the substeps taken.
TEST(HalvedSteps, BackwardPassFollowsTheSubsteps) {
  GradientCase c = test::halved_steps_cantilever();
  for (int m : {1, 2}) {
    c.gradient.checkpoint_interval = m;
    const adjoint::RunGradient g =
        test::expect_gradient_matches_differences(c, {c.model.dofs.node(10) + 2});
    EXPECT_GT(g.substeps, c.steps) << "some steps were split";
  }
}

}  // namespace
}  // namespace tendril
