// The 3D vine's inflated-beam bending law (docs/physics/vine3d.md#inflated-beam-bending): a
// cantilever along x sagging under gravity along -z. At rest every bending joint is a rotation
// about y, so its moment from the law equals the statics moment about y of gravity on the distal
// bodies, sum_i ((p_i - p_joint) x m_i g)_y, computed here from the final positions. Light bodies
// keep the joints in the linear range (angle = moment / (EI / l)); heavy ones load the base beyond
// the collapse moment pi p r^3 and the base joint folds until the lever arm carries less than it.
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "tendril/vine3d/bending_joints.hpp"
#include "tendril/vine3d/vine3d_stepper.hpp"

namespace tendril::vine3d {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kG = 9.81;

Vine3dModel cantilever(double mass) {
  UniformVine3dParameters p;
  p.bodies = 3;
  p.half_length = 0.05;
  p.tube_diameter = 0.024;
  p.mass = mass;
  p.damping = 1e-3;
  p.dt = 1e-3;
  Vine3dModel m = uniform_vine3d(p);
  m.bending_law = BendingLaw::inflated_beam;
  m.inflated_beam = {2000.0, 0.012, 0.024, 0.2};  // p, r, eps_w (E t = 500 N/m), l
  m.gravity = Vec3(0.0, 0.0, -kG);
  m.validate();
  return m;
}

Vine3dState settle(const Vine3dModel& m) {
  Vine3dStepper stepper(m);
  Vine3dState s = straight_state(m);
  for (int k = 0; k < 60000; ++k) EXPECT_TRUE(stepper.step(s).ok());
  EXPECT_LT(s.velocity.lpNorm<Eigen::Infinity>(), 1e-9);
  return s;
}

/// The statics moment about y at bending joint j's point from gravity on the distal bodies [N m].
double statics_moment(const Vine3dModel& m, const Vine3dState& s, int joint) {
  const int b = m.bending_body(joint);
  const Vec3 point = s.position[b] - m.half_length[b] * (s.orientation[b] * Vec3::UnitX());
  double moment = 0.0;
  for (int i = b; i < m.num_bodies; ++i)
    moment += (s.position[i] - point).cross(m.mass[i] * m.gravity).y();
  return moment;
}

/// Bend of joint j about y (its only component here) [rad].
double bend_y(const Vine3dModel& m, const Vine3dState& s, int joint) {
  Vec3 phi;
  const Vec2 beta = bend_angles(m, s, joint, phi);
  EXPECT_LT(std::abs(phi.x()) + std::abs(beta.y()), 1e-12);  // no twist, no bend about z
  return beta.x();
}

TEST(InflatedCantilever3d, LinearRangeMatchesStatics) {
  const Vine3dModel m = cantilever(1e-3);
  const Vine3dState s = settle(m);
  std::printf("linear range: base angle %.6f rad, load %.6e N m\n", bend_y(m, s, 0),
              statics_moment(m, s, 0));
  const double k_joint = m.inflated_beam.bending_stiffness() / m.inflated_beam.joint_length;
  const double angle_w = m.inflated_beam.wrinkling_curvature() * m.inflated_beam.joint_length;
  for (int j = 0; j < m.num_bending(); ++j) {
    const double load = statics_moment(m, s, j);
    const double angle = bend_y(m, s, j);
    EXPECT_GT(angle, 0.0);
    EXPECT_LT(angle, angle_w);  // below wrinkling: the joint is linear
    EXPECT_NEAR(k_joint * angle, load, 1e-6 * std::abs(load)) << "joint " << j;
  }
}

TEST(InflatedCantilever3d, LoadAboveCollapseFoldsTheBaseJoint) {
  const Vine3dModel m = cantilever(5e-3);
  const double m_c = kPi * 2000.0 * std::pow(0.012, 3);
  ASSERT_GT(statics_moment(m, straight_state(m), 0), m_c);  // horizontal: more than M_c
  const Vine3dState s = settle(m);
  const double angle_w = m.inflated_beam.wrinkling_curvature() * m.inflated_beam.joint_length;
  const double base_angle = bend_y(m, s, 0);
  std::printf("collapse: base angle %.6f rad (wrinkles at %.3f), load %.6e N m, M_c %.6e N m\n",
              base_angle, angle_w, statics_moment(m, s, 0), m_c);
  EXPECT_GT(base_angle, angle_w);  // folded beyond wrinkling
  for (int j = 0; j < m.num_bending(); ++j) {
    const double load = statics_moment(m, s, j);
    EXPECT_LT(load, m_c);
    EXPECT_NEAR(bend_moment(m, j, Vec2(bend_y(m, s, j), 0.0)).x(), load, 1e-6 * load)
        << "joint " << j;
  }
  // softer than linear: it turns farther than a joint of the initial slope EI / l under its load
  const double k_joint = m.inflated_beam.bending_stiffness() / m.inflated_beam.joint_length;
  EXPECT_GT(base_angle, statics_moment(m, s, 0) / k_joint);
}

}  // namespace
}  // namespace tendril::vine3d
