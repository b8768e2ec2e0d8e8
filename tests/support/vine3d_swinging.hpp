#pragma once
/// A 3D vine of five bodies growing at 50 mm/s and swinging out of its plane under gravity with
/// rest bends about both axes (implicit springs, Delta t = 5 ms): the scene of the 3D step
/// derivative and shooting-fit tests.

#include "tendril/vine3d/vine3d_model.hpp"

namespace tendril::testing {

inline vine3d::Vine3dModel swinging_vine3d(double stiffness, double damping) {
  vine3d::UniformVine3dParameters p;
  p.bodies = 5;
  p.half_length = 0.02;
  p.tube_diameter = 0.02;
  p.mass = 2e-3;
  p.stiffness = stiffness;
  p.damping = damping;
  p.dt = 0.005;
  vine3d::Vine3dModel m = vine3d::uniform_vine3d(p);
  m.springs = vine3d::SpringIntegration::implicit;
  m.gravity = Vec3(0.0, -3.0, -9.81);
  m.growth = vine3d::GrowthSchedule::constant(0.05);
  for (int j = 0; j < m.num_bending(); ++j) m.rest_bend[j] = Vec2(0.1 * j, -0.05);
  return m;
}

}  // namespace tendril::testing
