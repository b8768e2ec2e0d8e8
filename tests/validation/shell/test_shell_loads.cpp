// Loads on shells from scene keys, no dummy rods or masses under gravity: `forces.surface_loads` (a
// uniform load per unit area) and `forces.point_loads` with `shell` on a mid-edge cantilever strip
// with nu = 0 against Euler-Bernoulli beam theory (Gere & Timoshenko, Mechanics of Materials, Table
// G-1): w = p b L^4 / (8 E I) under a uniform load p over the width b, w = P L^3 / (3 E I) under a
// tip force P, I = b h^3 / 12. Small loads (w / L ~ 1e-3), equilateral mesh (on which the clamped
// strip converges to the beam at second order, test_plate_strip.cpp). One static solve each. A
// clamped edge with `clamp: {rows: 1, hold_normal: true}` (the first row of nodes and the xi of the
// edges along it fixed) under the uniform load: the strip with nu = 0 in cylindrical bending is the
// Kirchhoff plate with D = E h^3 / 12, so its tip deflection is the beam's; the error must fall at
// second order in the node spacing on every mesh pattern (a clamp of two node rows puts the clamp
// inside the first cell: first order).
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

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

/// The mean z of the nodes at x = L after one static solve of `scene` [m].
double tip_deflection(const std::string& scene) {
  const sim::RodScene s = sim::load_rod_scene_text(scene, {}, "test.yaml");
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
  const double w =
      tip_deflection(kStrip + "forces: {surface_loads: [{shell: 0, load: [0, 0, -2.0]}]}\n");
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
    if (s.q_initial[3 * i] > length - 1e-9)
      loads += fmt::format("    - {{shell: 0, node: {}, force: [0, 0, {}]}}\n", i, -force / tip);
  const double w = tip_deflection(kStrip + loads);
  const double beam = -force * std::pow(length, 3) / (3.0 * youngs * inertia);
  std::printf("tip point loads on %d nodes: w / w_EB = %.5f\n", tip, w / beam);
  EXPECT_NEAR(w / beam, 1.0, 0.01);
}

TEST(ShellLoads, ClampedEdgeConvergesAtSecondOrder) {
  // square cells: nodes_x 21 / 41 / 81 along L = 0.1 m, nodes_y 5 / 9 / 17 across b = 0.02 m
  // (measured errors: right 3.75e-3, 9.37e-4, 2.34e-4; alternating 3.42e-3, 8.44e-4, 2.10e-4;
  // equilateral 2.28e-3, 5.71e-4, 1.43e-4)
  const double p = 2.0, b = 0.02;
  const double beam =
      -p * b * std::pow(length, 4) / (8.0 * youngs * b * std::pow(thickness, 3) / 12.0);
  for (const char* pattern : {"right", "alternating", "equilateral"}) {
    std::vector<double> error;
    for (int refine : {1, 2, 4}) {
      const std::string scene =
          fmt::format(R"(duration: 0
rods: []
shells:
  - geometry: {{type: rectangle, length: {}, width: {}, nodes_x: {}, nodes_y: {}, pattern: {}}}
    material: {{E: {}, nu: 0.0, density: 1000, thickness: {}}}
    clamp: {{side: x_min, rows: 1, hold_normal: true}}
forces: {{surface_loads: [{{shell: 0, load: [0, 0, {}]}}]}}
integrator: {{type: static}}
)",
                      length, b, 20 * refine + 1, 4 * refine + 1, pattern, youngs, thickness, -p);
      error.push_back(std::abs(tip_deflection(scene) / beam - 1.0));
    }
    const double order_coarse = std::log2(error[0] / error[1]),
                 order_fine = std::log2(error[1] / error[2]);
    std::printf("clamped %s: error %.3e %.3e %.3e, observed order %.3f %.3f\n", pattern, error[0],
                error[1], error[2], order_coarse, order_fine);
    EXPECT_NEAR(order_coarse, 2.0, 0.15) << pattern;
    EXPECT_NEAR(order_fine, 2.0, 0.15) << pattern;
    EXPECT_LT(error[2], 1e-3) << pattern;
  }
}

}  // namespace
}  // namespace tendril
