// Gradients of whole shell runs by the discrete adjoint against central differences of whole runs
// (gradient_case.hpp): a small strip clamped along one end swinging down under gravity, with
// mid-edge bending (xi DOFs) and with hinge bending, CST membranes; parameters Young's modulus,
// thickness (the residual is a cubic in it) and density.
#include <gtest/gtest.h>

#include "tendril/adjoint/run_gradient.hpp"
#include "validation/adjoint/gradient_case.hpp"
#include "validation/adjoint/swinging_strip.hpp"

namespace tendril {
namespace {

TEST(ShellGradients, MidEdgeStripUnderGravity) {
  const test::GradientCase c = test::swinging_strip(ShellBending::midedge);
  ASSERT_GT(c.model.dofs.num_shell_edges, 0) << "xi DOFs";
  const adjoint::RunGradient g = test::expect_gradient_matches_differences(
      c, {c.model.dofs.node(20) + 2, c.model.dofs.node(10) + 1}, {c.model.dofs.node(13) + 2});
  EXPECT_LT(g.final_state.q[c.model.dofs.node(20) + 2], -5e-3) << "the strip bends";
}

TEST(ShellGradients, HingeStripUnderGravity) {
  const test::GradientCase c = test::swinging_strip(ShellBending::hinge);
  test::expect_gradient_matches_differences(c, {c.model.dofs.node(20) + 2},
                                            {c.model.dofs.node(13) + 2});
}

}  // namespace
}  // namespace tendril
