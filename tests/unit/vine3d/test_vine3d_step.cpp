// The 3D vine's step (src/tendril/vine3d/vine3d_stepper.hpp): a rigidly moved vine (its base,
// base frame, state and gravity rotated and translated) gives the moved trajectory; a one-joint
// pendulum-spring oscillates at sqrt(K / (I_t + m d^2)) about any bending axis; the joints hold.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "tendril/core/error.hpp"
#include "tendril/vine3d/bending_joints.hpp"
#include "tendril/vine3d/vine3d_stepper.hpp"

namespace tendril::vine3d {
namespace {

/// Six bodies bending out of their plane: rest bends about both axes, gravity across the chain,
/// growth, damping.
Vine3dModel spatial_vine() {
  UniformVine3dParameters p;
  p.bodies = 6;
  p.half_length = 0.02;
  p.mass = 1e-3;
  p.stiffness = 2e-3;
  p.damping = 2e-5;
  p.dt = 1e-3;  // explicit springs: omega dt ~ 0.1 for the stiffest mode
  Vine3dModel m = uniform_vine3d(p);
  m.rest_bend = {Vec2(0.3, 0.2), Vec2(-0.4, 0.3), Vec2(0.2, -0.5)};
  m.base = Vec3(0.1, -0.2, 0.05);
  m.base_frame = rotation_exp(Vec3(0.1, 0.2, 0.3));
  m.gravity = Vec3(0.0, 0.0, -9.81);
  m.growth = GrowthSchedule::constant(0.03);
  return m;
}

TEST(Vine3dStep, RigidMotionGivesTheMovedTrajectory) {
  const Vine3dModel m = spatial_vine();
  const Quat q = rotation_exp(Vec3(0.9, -1.7, 0.4));
  const Vec3 t(0.3, 0.1, -0.2);
  Vine3dModel moved = m;
  moved.base = q * m.base + t;
  moved.base_frame = q * m.base_frame;
  moved.gravity = q * m.gravity;
  Vine3dState s = straight_state(m, 0.001);
  Vine3dState sm = s;
  for (int i = 0; i < m.num_bodies; ++i) {
    sm.position[i] = q * s.position[i] + t;
    sm.orientation[i] = q * s.orientation[i];
  }
  Vine3dStepper stepper(m), moved_stepper(moved);
  double deviation = 0.0, travel = 0.0;
  const Vec3 tip0 = s.position.back();
  for (int k = 0; k < 500; ++k) {
    ASSERT_TRUE(stepper.step(s).ok()) << k;
    ASSERT_TRUE(moved_stepper.step(sm).ok()) << k;
    for (int i = 0; i < m.num_bodies; ++i) {
      deviation = std::max(deviation, (sm.position[i] - (q * s.position[i] + t)).norm());
      deviation = std::max(deviation, sm.orientation[i].angularDistance(q * s.orientation[i]));
    }
  }
  travel = (s.position.back() - tip0).norm();
  EXPECT_GT(travel, 0.01);  // the vine moved (bending out of its plane, growing, sagging)
  // each step's QP is solved to a scaled KKT residual of 1e-10: the two runs may differ by that
  // relative to the velocities (< 1 m/s) times dt per step, 1e-12 m; 500 steps: < 1e-9 m or rad
  EXPECT_LT(deviation, 1e-9);
}

TEST(Vine3dStep, JointsHoldWhileTheVineMovesIn3d) {
  const Vine3dModel m = spatial_vine();
  Vine3dStepper stepper(m);
  Vine3dState s = straight_state(m, 0.001);
  const int position_rows = 3 * m.num_bending() + 4 * m.num_prismatic();
  double position_drift = 0.0, twist_drift = 0.0, bound = 0.0;
  for (int k = 0; k < 1000; ++k) {
    double rotation = 0.0;  // largest |omega| dt of the step
    for (int i = 0; i < m.num_bodies; ++i)
      rotation = std::max(rotation, s.velocity.segment<3>(6 * i + 3).norm() * m.dt);
    ASSERT_TRUE(stepper.step(s).ok()) << k;
    for (int i = 0; i < m.num_bodies; ++i)
      rotation = std::max(rotation, s.velocity.segment<3>(6 * i + 3).norm() * m.dt);
    bound = std::max(bound, rotation * rotation);
    const VecX c = stepper.joint_errors(s);
    for (int r = 0; r < c.size(); ++r) {
      const bool twist = stepper.rows()[r].kind == JointRowKind::twist;
      (twist ? twist_drift : position_drift) =
          std::max(twist ? twist_drift : position_drift, std::abs(c(r)));
    }
  }
  EXPECT_EQ(position_rows + m.num_bodies,
            static_cast<int>(stepper.rows().size()) - m.num_prismatic());
  // the rows are linearised (eq. 12): after a step whose bodies turn by at most theta = |omega| dt
  // each end point is off its tangent by d (1 - cos theta) < d theta^2 / 2, a joint by twice that,
  // and the relative twist by theta^2; the next step corrects it
  EXPECT_GT(bound, 1e-4);  // the vine does turn
  EXPECT_LT(position_drift, m.half_length[0] * bound);
  EXPECT_LT(twist_drift, bound);
}

/// Angle of the bend of a one-body vine released from `tilt` about `axis` (in the base frame's
/// y-z plane), sampled every step, with its frequency from the zero crossings.
double pendulum_frequency(const Vec3& axis, double tilt, double& off_axis) {
  UniformVine3dParameters p;
  p.bodies = 1;
  p.half_length = 0.05;
  p.mass = 2e-3;
  p.tube_diameter = 0.03;
  p.stiffness = 0.04;
  p.dt = 1e-4;
  Vine3dModel m = uniform_vine3d(p);
  m.base_frame = rotation_exp(Vec3(0.4, -0.3, 1.0));
  Vine3dState s = straight_state(m, 0.0);
  s.orientation[0] = m.base_frame * rotation_exp(tilt * axis);
  s.position[0] = m.base + m.half_length[0] * (s.orientation[0] * Vec3::UnitX());
  Vine3dStepper stepper(m);
  std::vector<double> crossings;
  double previous = tilt;
  off_axis = 0.0;
  const Vec3 unit = axis.normalized();
  for (int k = 0; k < 20000; ++k) {
    EXPECT_TRUE(stepper.step(s).ok());
    Vec3 phi;
    bend_angles(m, s, 0, phi);
    const double angle = phi.dot(unit);
    off_axis = std::max(off_axis, (phi - angle * unit).norm() / tilt);
    if (previous > 0.0 && angle <= 0.0)  // linear interpolation of the crossing
      crossings.push_back((k + previous / (previous - angle)) * m.dt);
    previous = angle;
  }
  EXPECT_GE(crossings.size(), 5u);
  return 2 * M_PI * (crossings.size() - 1) / (crossings.back() - crossings.front());
}

TEST(Vine3dStep, PendulumSpringFrequency) {
  // one body on the base's bending joint, no gravity: I_p thetadd = -K theta about the pivot,
  // I_p = I_t + m d^2, omega = sqrt(K / I_p) = 76 rad/s. Errors: semi-implicit Euler shifts the
  // frequency by (omega dt)^2 / 24 = 2.4e-6 relative, the amplitude 1e-3 rad by O(1e-6): the
  // bound 1e-4 leaves a margin of 40 over both.
  const double m = 2e-3, d = 0.05;
  const double inertia = m * (0.03 * 0.03 / 8 + 4 * d * d / 12) + m * d * d;
  const double omega = std::sqrt(0.04 / inertia);
  for (const Vec3& axis : {Vec3(0.0, 1.0, 0.0), Vec3(0.0, 0.6, -0.8)}) {
    double off_axis = 0.0;
    const double measured = pendulum_frequency(axis, 1e-3, off_axis);
    EXPECT_NEAR(measured / omega, 1.0, 1e-4) << axis.transpose();
    EXPECT_LT(off_axis, 1e-6);  // it swings in the plane it was released in
  }
}

TEST(Vine3dStep, ImplicitSpringsHoldAStiffVineNearItsRestShape) {
  // K = 2 N m/rad, 1000 times spatial_vine's: dt omega >> 2 for the stiffest mode, beyond the
  // explicit springs' limit. Implicit springs stay stable and the gravity sag is small:
  // |beta - beta_0| <= sum m g L / K ~ 6e-3 kg 9.81 m/s^2 0.12 m / 2 N m/rad = 3.5e-3 rad
  Vine3dModel m = spatial_vine();
  m.growth = GrowthSchedule::constant(0.0);
  m.stiffness.assign(m.num_bending(), 2.0);
  m.damping.assign(m.num_bending(), 2e-3);
  Vine3dState start = straight_state(m, 0.001);
  Vine3dModel explicit_model = m;
  m.springs = SpringIntegration::implicit;
  Vine3dStepper stepper(m), explicit_stepper(explicit_model);
  Vine3dState s = start, e = start;
  bool explicit_failed = false;
  for (int k = 0; k < 1000; ++k) {
    ASSERT_TRUE(stepper.step(s).ok()) << k;
    const Vine3dStepReport r = explicit_failed ? Vine3dStepReport{} : explicit_stepper.step(e);
    explicit_failed =
        explicit_failed || !r.ok() || !e.velocity.allFinite() || e.velocity.norm() > 1e3;
  }
  EXPECT_TRUE(explicit_failed);  // the case that needs implicit springs
  Vec3 phi;
  double deviation = 0.0;
  for (int j = 0; j < m.num_bending(); ++j)
    deviation = std::max(deviation, (bend_angles(m, s, j, phi) - m.rest_bend[j]).norm());
  EXPECT_LT(deviation, 3.5e-3);
}

TEST(Vine3dStep, KineticEnergyIsThatOfTheBodiesWithImplicitSprings) {
  // the report's kinetic energy is 1/2 sum_i (m_i |v_i|^2 + omega_i . R_i diag(I_a, I_t, I_t)
  // R_i^T omega_i) of the new velocities with the start's orientations (vine3d_stepper.hpp), also
  // when P holds the implicit springs' stiffness and damping
  Vine3dModel m = spatial_vine();
  m.springs = SpringIntegration::implicit;
  m.growth = GrowthSchedule::constant(0.0);
  Vine3dStepper stepper(m);
  Vine3dState s = straight_state(m, 0.001);
  for (int k = 0; k < 20; ++k) {
    const Vine3dState start = s;
    const Vine3dStepReport r = stepper.step(s);
    ASSERT_TRUE(r.ok()) << k;
    double twice = 0.0;
    for (int i = 0; i < m.num_bodies; ++i) {
      const Mat3 rotation = start.orientation[i].toRotationMatrix();
      const Vec3 body_omega = rotation.transpose() * s.velocity.segment<3>(6 * i + 3);
      twice += m.mass[i] * s.velocity.segment<3>(6 * i).squaredNorm() +
               m.axial_inertia[i] * body_omega.x() * body_omega.x() +
               m.transverse_inertia[i] * body_omega.tail<2>().squaredNorm();
    }
    EXPECT_NEAR(r.kinetic_energy, 0.5 * twice, 1e-12 * twice) << k;
  }
}

TEST(Vine3dStep, RejectsAStateOfTheWrongSize) {
  const Vine3dModel m = spatial_vine();
  Vine3dStepper stepper(m);
  Vine3dState s = straight_state(m, 0.0);
  s.position.pop_back();
  EXPECT_THROW(stepper.step(s), InputError);
}

}  // namespace
}  // namespace tendril::vine3d
