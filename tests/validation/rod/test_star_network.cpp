// A symmetric star of k = 4 straight arms of length L, each clamped at its outer end and joined at
// a free hub, under a small vertical load P at the hub. By symmetry the hub does not turn, so every
// arm is a clamped-guided beam with end stiffness 12 EI / L^3 (Timoshenko & Gere, Mechanics of
// Materials, fixed- guided beam) and the arms act in parallel: hub deflection delta = P L^3 / (12 k
// EI), the sum of the arms' stiffnesses. A rod-network scene (joints) under a static solve.
#include <cmath>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "tendril/sim/simulation.hpp"

namespace tendril {
namespace {

constexpr double kPi = 3.14159265358979323846;

/// Hub deflection [m] of the star with `num_nodes` nodes per arm under the load P [N] (along -z).
double hub_deflection(int num_nodes, double load) {
  std::string scene = "duration: 0\nrods:\n";
  const char* directions[4] = {"[1, 0, 0]", "[0, 1, 0]", "[-1, 0, 0]", "[0, -1, 0]"};
  for (const char* d : directions) {
    // clamp: start puts the first edge's midpoint on `start`, the outer end; the arm runs inwards
    // to the hub
    scene += std::string("  - geometry: {type: straight, start: ") + d +
             ", end: [0, 0, 0], num_nodes: " + std::to_string(num_nodes) +
             "}\n    clamp: start\n"
             "    material: {E: 1.0e7, nu: 0.5, density: 1000, radius: 0.005}\n";
  }
  scene +=
      "joints:\n  - nodes: [[0, -1], [1, -1], [2, -1], [3, -1]]\n"
      "forces:\n  point_loads: [{rod: 0, node: -1, force: [0, 0, " +
      std::to_string(-load) +
      "]}]\n"
      "integrator: {type: static}\n";
  sim::Simulation simulation(sim::load_rod_scene_text(scene));
  const StepReport report = simulation.step();
  EXPECT_TRUE(report.ok()) << report.message;
  const int hub = simulation.scene().rod_nodes[0].back();
  const Vec3 x = simulation.state().q.segment<3>(3 * hub);
  EXPECT_LE(x.head<2>().norm(), 1e-12);  // symmetric: the hub moves straight down
  return -x.z();
}

TEST(StarNetwork, CentralLoadMatchesParallelGuidedCantilevers) {
  const double length = 1.0, ei = 1e7 * kPi * std::pow(5e-3, 4) / 4.0;
  const double load =
      1e-4 * 12.0 * 4.0 * ei / std::pow(length, 3);  // delta / L = 1e-4: linear regime
  const double expected = load * std::pow(length, 3) / (12.0 * 4.0 * ei);
  const double coarse = hub_deflection(21, load), fine = hub_deflection(41, load);
  std::printf(
      "hub deflection: %.6e m (21 nodes per arm), %.6e m (41), parallel guided cantilevers %.6e "
      "m\n",
      coarse, fine, expected);
  // second order in the edge length (measured: 3.3 % and 0.72 % low, order 2.2), so the Richardson
  // extrapolation of the two lands on the closed form (measured 0.15 % off)
  const double order = std::log2(std::abs(coarse - expected) / std::abs(fine - expected));
  EXPECT_GT(order, 1.7);
  EXPECT_NEAR(fine + (fine - coarse) / 3.0, expected, 5e-3 * expected);
}

}  // namespace
}  // namespace tendril
