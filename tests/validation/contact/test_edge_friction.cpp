// Friction of rod edges against rigid obstacles (docs/physics/contact.md, "Obstacles"): a rod
// (r = 1 mm, one 4 cm edge) rests across two horizontal capsules (R = 3 mm) 2 cm apart, its nodes
// 8 mm off them, so only the edge touches; gravity tilted by theta along the capsules' axes. By
// Coulomb's law the rod sticks when tan(theta) < mu and otherwise slides with the acceleration
// a = g (sin(theta) - mu cos(theta)); without friction on the edges it would slide freely
// (a = g sin(theta)) in both cases.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <numbers>

#include "tendril/sim/simulation.hpp"

namespace tendril {
namespace {

constexpr double kG = 9.81, kDuration = 0.2;  // [m/s^2], [s]

/// The rod's displacement along the capsules' axes (x) after kDuration at the tilt theta [rad].
double slide(double theta, double mu) {
  const double r = 0.001, radius = 0.003;
  const std::string scene = fmt::format(
      R"(
duration: {T}
rods:
  - geometry: {{type: straight, start: [0, -0.02, {z}], end: [0, 0.02, {z}], num_nodes: 2}}
    material: {{E: 1.0e7, nu: 0.3, density: 1000, radius: {r}}}
forces: {{gravity: [{gx}, 0, {gz}]}}
contact:
  stiffness: 100
  distance_tolerance: 1.0e-4
  slip_tolerance: 1.0e-4
  obstacles:
    - {{shape: capsule, p0: [-0.3, -0.01, 0], p1: [0.3, -0.01, 0], radius: {R}, friction: {mu}}}
    - {{shape: capsule, p0: [-0.3, 0.01, 0], p1: [0.3, 0.01, 0], radius: {R}, friction: {mu}}}
integrator: {{type: implicit_euler, dt: 1.0e-3}}
)",
      fmt::arg("T", kDuration), fmt::arg("z", radius + r), fmt::arg("r", r), fmt::arg("R", radius),
      fmt::arg("mu", mu), fmt::arg("gx", kG * std::sin(theta)),
      fmt::arg("gz", -kG * std::cos(theta)));
  sim::Simulation sim(sim::load_rod_scene_text(scene));
  while (!sim.finished()) {
    const StepReport report = sim.step();
    EXPECT_TRUE(report.ok()) << report.message;
    if (!report.ok()) break;
  }
  // it stayed on the capsules (no node fell below their tops)
  EXPECT_GT(sim.state().q[2], radius);
  EXPECT_GT(sim.state().q[5], radius);
  return 0.5 * (sim.state().q[0] + sim.state().q[3]);
}

TEST(EdgeFriction, RodAcrossTwoCapsulesSticksBelowTheFrictionAngle) {
  // tan(10 deg) = 0.18 < mu = 0.5: it stays; sliding freely it would go g sin(theta) T^2 / 2 = 3.4
  // cm (the smooth law's stick zone lets it creep at about (tan(theta) / mu) nu (2 / 15) = 5e-6
  // m/s)
  const double theta = 10.0 * std::numbers::pi / 180.0;
  EXPECT_LT(std::abs(slide(theta, 0.5)), 1e-4);
}

TEST(EdgeFriction, RodAcrossTwoCapsulesSlidesWithCoulombsDeceleration) {
  // tan(30 deg) = 0.58 > mu = 0.3: x = g (sin(theta) - mu cos(theta)) T^2 / 2 = 4.71 cm (implicit
  // Euler's first-order error at dt = 1 ms over 200 steps is +0.5 %)
  const double theta = 30.0 * std::numbers::pi / 180.0, mu = 0.3;
  const double expected =
      0.5 * kG * (std::sin(theta) - mu * std::cos(theta)) * kDuration * kDuration;
  EXPECT_NEAR(slide(theta, mu), expected, 0.02 * expected);
}

}  // namespace
}  // namespace tendril
