#pragma once
/// The fitting tests' synthetic vine: six bodies released 0.3 rad off their rest heading while
/// growing (the base spring swings the robot back: K sets the period, about 0.4 s; C the decay,
/// about 1 / s). Also the step map's second-derivative test's model.

#include "tendril/vine/vine_model.hpp"

namespace tendril::testing {

inline constexpr double kSwingStiffness = 0.05, kSwingDamping = 5e-4;  // [N m/rad], [N m s/rad]

inline vine::VineModel swinging_vine() {
  vine::UniformVineParameters p;
  p.bodies = 6;
  p.half_length = 0.02;
  p.mass = 1e-3;
  p.inertia = 2e-4;
  p.stiffness = kSwingStiffness;
  p.damping = kSwingDamping;
  p.heading = 1.2;
  p.dt = 1.0 / 90.0;
  vine::VineModel m = vine::uniform_vine(p);
  m.growth = vine::GrowthSchedule::constant(0.02);
  return m;
}

inline vine::VineState swinging_start(const vine::VineModel& m) {
  return vine::straight_state(m, 1.5, 0.002);
}

}  // namespace tendril::testing
