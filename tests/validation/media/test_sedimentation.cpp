// Closed form: a rigid straight rod sedimenting in a resistive medium with drag ratio eta_n / eta_t
// = 2 (the slender-body ratio; Batchelor 1970, Gray & Hancock 1955) drifts sideways. At terminal
// velocity under its weight W, with the axis at angle theta from the vertical,
//   v = -(W cos(theta) / (eta_t L)) t + (W sin(theta) / (eta_n L)) n,
// so the path makes the angle phi with the vertical, tan(phi) = sin(theta) cos(theta) / (1 +
// cos^2(theta))
// (= 1/3 at theta = 45 deg), and the rod does not turn (uniform force per length).
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "tendril/sim/simulation.hpp"

namespace tendril::sim {
namespace {

TEST(Sedimentation, TiltedRodDriftsAtTheClosedFormAngle) {
  for (double theta_deg : {30.0, 45.0, 70.0}) {
    const double theta = theta_deg * std::numbers::pi / 180.0;
    const Vec3 direction(std::sin(theta), 0.0, std::cos(theta));
    const std::string scene =
        "duration: 0.2\nrods:\n  - geometry: {type: straight, start: [0, 0, 0], direction: [" +
        std::to_string(direction.x()) + ", 0, " + std::to_string(direction.z()) +
        "], length: 0.1, num_nodes: 21}\n"
        "    material: {E: 1.0e9, nu: 0.5, density: 1000, radius: 0.001}\n"
        "forces:\n  gravity: [0, 0, -9.81]\n  rft: [{rods: [0], eta_t: 1.0, eta_n: 2.0}]\n"
        "integrator: {type: implicit_euler, dt: 0.002}\n";
    Simulation sim(load_rod_scene_text(scene));
    // inertial relaxation time m / (eta L) = 3.1e-3 s: terminal after 0.2 s
    while (!sim.finished()) ASSERT_TRUE(sim.step().ok());
    const int n = sim.model().dofs.num_nodes;
    Vec3 v = Vec3::Zero();
    for (int i = 0; i < n; ++i) v += sim.state().u.segment<3>(3 * i) / n;
    const double expected =
        std::atan(std::sin(theta) * std::cos(theta) / (1.0 + std::cos(theta) * std::cos(theta)));
    // the rod drifts towards -x (down along its axis, which leans towards +x at the top)
    EXPECT_NEAR(std::atan2(-v.x(), -v.z()), expected, 1e-6) << "theta = " << theta_deg;
    EXPECT_LT(v.z(), 0.0);
    EXPECT_NEAR(std::abs(sim.state().u.segment<3>(0).dot(Vec3::UnitY())), 0.0, 1e-12);
  }
}

}  // namespace
}  // namespace tendril::sim
