// Contact of the 3D vine (src/tendril/vine3d/vine3d_stepper.hpp, obstacles.hpp): a vine growing
// into a sphere off its axis is deflected in both lateral directions and never enters it; a vine
// sagging under gravity comes to rest on a floor. Distances are computed in the test from the
// closed forms (segment to point, segment ends to plane).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "tendril/vine3d/vine3d_stepper.hpp"

namespace tendril::vine3d {
namespace {

Vine3dModel growing_vine() {
  UniformVine3dParameters p;
  p.bodies = 8;
  p.half_length = 0.01;
  p.tube_diameter = 0.01;
  p.mass = 1e-3;
  p.stiffness = 0.01;
  p.damping = 2e-4;
  p.dt = 5e-4;  // explicit springs: omega dt = 0.13 for the stiffest mode
  Vine3dModel m = uniform_vine3d(p);
  m.growth = GrowthSchedule::constant(0.05);
  return m;
}

/// Distance from the segment p +- d e to the point c [m].
double segment_point_distance(const Vec3& p, const Vec3& e, double d, const Vec3& c) {
  const double s = std::clamp((c - p).dot(e), -d, d);
  return (p + s * e - c).norm();
}

TEST(Vine3dContact, GrowthIntoASphereOffAxisSlidesAroundIt) {
  Vine3dModel m = growing_vine();
  const Vec3 centre(0.2, 0.012, 0.009);
  const double radius = 0.03;
  m.obstacles = {make_sphere(centre, radius)};
  Vine3dStepper stepper(m);
  Vine3dState s = straight_state(m, 0.0);
  double worst = HUGE_VAL;
  int contact_steps = 0;
  for (int k = 0; k < 3000; ++k) {
    const Vine3dStepReport r = stepper.step(s);
    ASSERT_TRUE(r.ok()) << "step " << k << ": " << qp::to_string(r.status) << ", joint error "
                        << r.joint_error;
    contact_steps += r.active_contacts > 0;
    for (int i = 0; i < m.num_bodies; ++i) {
      const Vec3 e = s.orientation[i] * Vec3::UnitX();
      worst = std::min(worst, segment_point_distance(s.position[i], e, m.half_length[i], centre) -
                                  radius - m.contact_radius);
    }
  }
  EXPECT_GT(contact_steps, 100);
  // the rows hold the linearised distance of the closest point and the ends; what they leave is
  // second order in a step's motion: (v dt)^2 / (2 R) = (0.1 m/s 5e-4 s)^2 / 0.06 m < 1e-7 m and
  // (omega dt)^2 d / 2 ~ 1e-7 m for omega ~ 10 rad/s
  EXPECT_GT(worst, -1e-6);
  // deflected away from the sphere's offset in both lateral directions
  const Vec3 tip =
      s.position.back() + m.half_length.back() * (s.orientation.back() * Vec3::UnitX());
  std::printf("%d steps in contact, smallest distance %.3g m, tip (%.4f, %.4f, %.4f) m\n",
              contact_steps, worst, tip.x(), tip.y(), tip.z());
  EXPECT_LT(tip.y(), -0.005);
  EXPECT_LT(tip.z(), -0.005);
}

TEST(Vine3dContact, SaggingVineComesToRestOnAFloor) {
  Vine3dModel m = growing_vine();
  m.growth = GrowthSchedule::constant(0.0);
  m.stiffness.assign(m.num_bending(), 2e-3);
  m.gravity = Vec3(0.0, 0.0, -9.81);
  const double floor = -0.03;
  m.obstacles = {make_half_space(Vec3(0.0, 0.0, floor), Vec3::UnitZ())};
  Vine3dStepper stepper(m);
  Vine3dState s = straight_state(m, 0.0);
  double worst = HUGE_VAL;
  for (int k = 0; k < 4000; ++k) {
    const Vine3dStepReport r = stepper.step(s);
    ASSERT_TRUE(r.ok()) << "step " << k << ": " << qp::to_string(r.status) << ", joint error "
                        << r.joint_error;
    for (int i = 0; i < m.num_bodies; ++i) {
      const Vec3 e = s.orientation[i] * Vec3::UnitX();
      for (const double end : {-1.0, 1.0})
        worst = std::min(
            worst, (s.position[i] + end * m.half_length[i] * e).z() - floor - m.contact_radius);
    }
  }
  std::printf(
      "smallest distance %.3g m, tip height %.6f m, speed %.3g\n", worst,
      (s.position.back() + m.half_length.back() * (s.orientation.back() * Vec3::UnitX())).z(),
      s.velocity.norm());
  // the plane is flat, so only a body's rotation over a step leaves its ends below their rows:
  // (omega dt)^2 d / 2 < (10 rad/s 5e-4 s)^2 0.01 m / 2 ~ 1e-7 m
  EXPECT_GT(worst, -1e-6);
  // at rest with the tip on the floor
  const Vec3 tip =
      s.position.back() + m.half_length.back() * (s.orientation.back() * Vec3::UnitX());
  EXPECT_NEAR(tip.z(), floor + m.contact_radius, 1e-6);
  EXPECT_LT(s.velocity.norm(), 1e-3);
}

}  // namespace
}  // namespace tendril::vine3d
