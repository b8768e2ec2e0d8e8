// Uniform torsion of a straight rod: twisting one end by theta relative to the clamped end needs
// the torque T = G J theta / L, and the twist angle grows linearly along the rod (Saint-Venant
// torsion of a circular bar; Timoshenko & Goodier, Theory of Elasticity, ch. 10). L is the distance
// between the midpoints of the two clamped edges (the twist DOFs live on edges).
#include <cmath>

#include <gtest/gtest.h>

#include "rod/cantilever.hpp"
#include "support/conformance.hpp"
#include "tendril/integrate/static_solver.hpp"

namespace tendril {
namespace {

constexpr double kPi = 3.14159265358979323846;

TEST(UniformTorsion, TorqueIsGJThetaOverL) {
  const double youngs = 1e7, nu = 0.5, radius = 5e-3, theta = 0.8;
  const int edges = 30;
  testing::ClampedRod rod = testing::make_clamped_rod(edges, 1.0, testing::circular_material(youngs, nu, 1000, radius));
  Model& model = rod.model;
  // every position held (pure torsion); the last edge's twist turned by theta
  for (int i = 0; i < 3 * model.dofs.num_nodes; ++i) model.fixed[i] = 1;
  const int last_twist = model.dofs.twist(edges - 1);
  model.fixed[last_twist] = 1;
  rod.state.q[last_twist] = theta;
  StaticSolver solver(model, StaticOptions{}, rod.state.q);
  const StaticReport report = solver.solve(rod.state);
  ASSERT_EQ(report.status, StepStatus::converged) << report.message;

  const double shear = youngs / (2 * (1 + nu));
  const double gj = shear * kPi * std::pow(radius, 4) / 2;
  const double torsion_length = (edges - 1) * rod.edge_length;
  // the reaction torque at the turned end is dE/dtheta there
  double torque = 0.0;
  for (const auto& term : model.energies)
    torque += conformance::evaluate_energy(*term, model, rod.state.frames, rod.state.q, false).gradient[last_twist];
  EXPECT_NEAR(torque, gj * theta / torsion_length, 1e-8 * gj * theta / torsion_length);
  // linear twist profile
  for (int e = 0; e < edges; ++e)
    EXPECT_NEAR(rod.state.q[model.dofs.twist(e)], theta * e / (edges - 1), 1e-9) << "edge " << e;
}

}  // namespace
}  // namespace tendril
