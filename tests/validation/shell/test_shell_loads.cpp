// Loads on shells from scene keys, no dummy rods or masses under gravity: `forces.surface_loads` (a
// uniform load per unit area) and `forces.point_loads` with `shell` on a mid-edge cantilever strip with
// nu = 0 against Euler-Bernoulli beam theory (Gere & Timoshenko, Mechanics of Materials, Table G-1):
// w = p b L^4 / (8 E I) under a uniform load p over the width b, w = P L^3 / (3 E I) under a tip force P,
// I = b h^3 / 12. Small loads (w / L ~ 1e-3), equilateral mesh (on which the clamped strip converges to the
// beam at second order, test_plate_strip.cpp). One static solve each.
#include <cmath>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "tendril/geometry/kinematics.hpp"
#include "tendril/integrate/static_solver.hpp"
#include "tendril/sim/rod_scene.hpp"

namespace tendril {
namespace {

constexpr double length = 0.1, youngs = 1e9, thickness = 0.002;
constexpr int nodes_x = 41, rows = 4;
const double dx = length / (nodes_x - 1), width = rows * std::sqrt(3.0) / 2.0 * dx;

const std::string kStrip = fmt::format(R"(duration: 0
rods: []
shells:
  - geometry: {{type: rectangle, length: {}, width: {}, nodes_x: {}, nodes_y: {}, pattern: equilateral}}
    material: {{E: {}, nu: 0.0, density: 1000, thickness: {}}}
    clamp: {{side: x_min, rows: 2}}
integrator: {{type: static}}
)",
                                       length, width, nodes_x, rows + 1, youngs, thickness);

/// The mean z of the nodes at x = L after one static solve of the strip with `forces` [m].
double tip_deflection(const std::string& forces) {
  const sim::RodScene s = sim::load_rod_scene_text(kStrip + forces, {}, "test.yaml");
  StaticSolver solver(s.model, StaticOptions{}, s.q_initial);
  State state;
  state.q = s.q_initial;
  state.u = VecX::Zero(s.q_initial.size());
  initialize_frames(s.model, state.q, state.frames);
  const StaticReport report = solver.solve(state);
  EXPECT_TRUE(report.ok()) << report.message;
  double z = 0.0;
  int count = 0;
  for (int i = 0; i < s.model.dofs.num_nodes; ++i)
    if (s.q_initial[3 * i] > length - 1e-9) z += state.q[3 * i + 2], ++count;
  return z / count;
}

const double inertia = width * std::pow(thickness, 3) / 12.0;

TEST(ShellLoads, UniformSurfaceLoadBendsTheStripLikeABeam) {
  const double p = 2.0;  // N/m^2
  const double w = tip_deflection("forces: {surface_loads: [{shell: 0, load: [0, 0, -2.0]}]}\n");
  const double beam = -p * width * std::pow(length, 4) / (8.0 * youngs * inertia);
  std::printf("surface load: w / w_EB = %.5f\n", w / beam);
  EXPECT_NEAR(w / beam, 1.0, 0.01);
}

TEST(ShellLoads, PointLoadsOnShellNodesBendTheStripLikeABeam) {
  // P split equally over the nodes at x = L (every other row of the equilateral mesh ends there)
  const sim::RodScene s = sim::load_rod_scene_text(kStrip, {}, "test.yaml");
  std::string loads = "forces:\n  point_loads:\n";
  int tip = 0;
  for (int i = 0; i < s.model.dofs.num_nodes; ++i) tip += s.q_initial[3 * i] > length - 1e-9;
  const double force = 1e-3;  // N
  for (int i = 0; i < s.model.dofs.num_nodes; ++i)
    if (s.q_initial[3 * i] > length - 1e-9) loads += fmt::format("    - {{shell: 0, node: {}, force: [0, 0, {}]}}\n", i, -force / tip);
  const double w = tip_deflection(loads);
  const double beam = -force * std::pow(length, 3) / (3.0 * youngs * inertia);
  std::printf("tip point loads on %d nodes: w / w_EB = %.5f\n", tip, w / beam);
  EXPECT_NEAR(w / beam, 1.0, 0.01);
}

}  // namespace
}  // namespace tendril
