// Closed form: a rod whose natural curvature is the travelling wave
//   kappa_bar_1(s, t) = A sin(2 pi f t - k s)
// (actuation/schedule.hpp, sinusoid with phase_per_length k) takes that curvature when its bending
// stiffness dominates the medium's drag: the bending moment needed to move it against viscous drag
// f ~ eta v per length over its length L is ~ eta v L^2, so the curvature error relative to A is
// ~ eta v L^2 / (EI A) ~ 1e-3 here. The rod is free (no supports) in a viscous medium and stepped
// in time with implicit Euler; its material curvature kappa_1 at every spring must follow the wave.
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "tendril/geometry/kinematics.hpp"
#include "tendril/rod/bend_twist.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril::sim {
namespace {

TEST(TravellingWave, StiffRodFollowsThePrescribedCurvatureWave) {
  const double A = 0.05, f = 1.0, k = 2 * std::numbers::pi / 0.2;  // [-], [Hz], [rad/m]
  const std::string scene =
      "duration: 0.5\nrods:\n  - geometry: {type: straight, start: [0, 0, 0], direction: [1, 0, "
      "0], length: 0.4, "
      "num_nodes: 41}\n    material: {E: 1.0e10, nu: 0.5, density: 1000, radius: 0.005}\n"
      "forces:\n  viscous_drag: [{viscosity: 1.0}]\n"
      "actuation:\n  - {quantity: natural_curvature_1, schedule: {type: sinusoid, amplitude: " +
      std::to_string(A) + ", frequency: " + std::to_string(f) +
      ", phase_per_length: " + std::to_string(k) +
      "}}\n"
      "integrator: {type: implicit_euler, dt: 0.005}\n";
  Simulation sim(load_rod_scene_text(scene));
  const Model& m = sim.model();
  Kinematics kin;
  double worst = 0.0;
  int checked = 0;
  while (!sim.finished()) {
    ASSERT_TRUE(sim.step().ok());
    if (sim.steps_taken() % 20 != 0) continue;
    const State& s = sim.state();
    compute_kinematics(m, s.frames, s.q, kin);
    for (std::size_t j = 0; j < m.rods.springs.size(); ++j) {
      const double arc = 0.01 * static_cast<double>(m.rods.springs[j].node);  // node spacing 0.01 m
      const double prescribed = A * std::sin(2 * std::numbers::pi * f * s.time - k * arc);
      const double measured = material_curvature(oriented_stencil(m, kin, s.q, j))[0];
      worst = std::max(worst, std::abs(measured - prescribed));
      ++checked;
    }
  }
  EXPECT_GT(checked, 100);
  EXPECT_LE(worst, 0.01 * A) << "largest curvature error";
}

}  // namespace
}  // namespace tendril::sim
