// Uniform torsion of a straight rod: twisting one end by theta relative to the clamped end needs
// the torque T = G J theta / L, and the twist angle grows linearly along the rod (Saint-Venant
// torsion of a circular bar; Timoshenko & Goodier, Theory of Elasticity, ch. 10). L is the distance
// between the midpoints of the two clamped edges (the twist DOFs live on edges).
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "rod/cantilever.hpp"
#include "support/conformance.hpp"
#include "tendril/integrate/static_solver.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril {
namespace {

constexpr double kPi = 3.14159265358979323846;

TEST(UniformTorsion, TorqueIsGJThetaOverL) {
  const double youngs = 1e7, nu = 0.5, radius = 5e-3, theta = 0.8;
  const int edges = 30;
  testing::ClampedRod rod =
      testing::make_clamped_rod(edges, 1.0, testing::circular_material(youngs, nu, 1000, radius));
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
    torque += conformance::evaluate_energy(*term, model, rod.state.frames, rod.state.q, false)
                  .gradient[last_twist];
  EXPECT_NEAR(torque, gj * theta / torsion_length, 1e-8 * gj * theta / torsion_length);
  // linear twist profile
  for (int e = 0; e < edges; ++e)
    EXPECT_NEAR(rod.state.q[model.dofs.twist(e)], theta * e / (edges - 1), 1e-9) << "edge " << e;
}

TEST(UniformTorsion, TorsionalOscillationPeriodWithFreePositions) {
  // Torsional vibration of a clamped-free circular shaft: omega_1 = (pi / 2L) sqrt(G / rho)
  // (Timoshenko, Vibration Problems in Engineering, torsional vibration of shafts). The discrete
  // rod is a fixed-free chain of n = E - 1 free twist DOFs (inertia rho J l each, springs G J / l):
  // omega_1 = 2 (c / l) sin(pi / (2 (2n + 1))) with mode shape theta_i = sin(i pi / (2n + 1)); L =
  // (n + 1/2) l by the clamp convention. Positions are free (scene with initial_conditions.twists),
  // time-stepped with the midpoint rule (no numerical damping).
  const double youngs = 1e7, nu = 0.5, density = 1000.0, length = 1.0, amplitude = 0.05;
  const int num_nodes = 21, n = num_nodes - 2;
  const double l = length / (num_nodes - 1.5), c = std::sqrt(youngs / (2 * (1 + nu)) / density);
  const double omega_discrete = 2.0 * c / l * std::sin(kPi / (2.0 * (2 * n + 1)));
  const double omega_beam = kPi / (2.0 * length) * c;
  const double period = 2.0 * kPi / omega_discrete;
  std::string scene =
      "duration: " + std::to_string(2.0 * period) +
      "\nrods:\n  - geometry: {type: straight, direction: [1, 0, 0], length: 1.0, num_nodes: " +
      std::to_string(num_nodes) +
      "}\n    clamp: start\n    material: {E: 1.0e7, nu: 0.5, density: 1000, "
      "radius: 0.005}\ninitial_conditions:\n  twists:\n";
  for (int i = 1; i <= n; ++i)
    scene += "    - {edges: [" + std::to_string(i) +
             "], angle: " + std::to_string(amplitude * std::sin(i * kPi / (2 * n + 1))) + "}\n";
  scene += "integrator: {type: implicit_midpoint, dt: " + std::to_string(period / 200.0) + "}\n";
  sim::Simulation simulation(sim::load_rod_scene_text(scene));
  const int tip_twist = simulation.model().dofs.twist(n);
  std::vector<double> crossings;
  double off_axis = 0.0;
  double t_before = 0.0, theta_before = simulation.state().q[tip_twist];
  EXPECT_NEAR(theta_before, amplitude * std::sin(n * kPi / (2 * n + 1)), 1e-6);
  while (!simulation.finished()) {
    ASSERT_TRUE(simulation.step().ok());
    const VecX& q = simulation.state().q;
    for (int i = 0; i < num_nodes; ++i)
      off_axis = std::max(off_axis, q.segment<2>(3 * i + 1).norm());
    const double t = simulation.state().time, theta = q[tip_twist];
    if ((theta_before > 0.0) != (theta > 0.0))
      crossings.push_back(t_before + (t - t_before) * theta_before / (theta_before - theta));
    t_before = t;
    theta_before = theta;
  }
  ASSERT_EQ(crossings.size(), 4u);  // at T/4, 3T/4, 5T/4, 7T/4
  const double measured = 2.0 * (crossings.back() - crossings.front()) / 3.0;
  std::printf("torsional period: measured %.6e s, discrete chain %.6e s, shaft %.6e s\n", measured,
              period, 2.0 * kPi / omega_beam);
  EXPECT_NEAR(measured, period, 1e-3 * period);  // midpoint rule: (omega dt)^2 / 12 ~ 8e-5
  EXPECT_NEAR(measured, 2.0 * kPi / omega_beam,
              1e-3 * period);  // discretisation: (pi / (4n + 2))^2 / 6 ~ 3e-4
  EXPECT_LT(off_axis, 1e-9);   // twisting a straight isotropic rod does not bend it
}

}  // namespace
}  // namespace tendril
