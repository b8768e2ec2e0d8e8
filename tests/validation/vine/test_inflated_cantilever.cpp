// A horizontal vine cantilever sagging under gravity with the inflated-beam bending law
// (docs/physics/vine.md#inflated-beam-bending): at rest, every pin joint's moment from the law
// equals the bending moment of statics, sum over the distal bodies of m_i g (x_i - x_pin), computed
// here from the final positions. Light bodies keep the joints in the linear range (angle = moment
// / (EI / l)); heavy ones load the base beyond the collapse moment pi p r^3, and the base joint
// folds until the lever arm carries less than it. Implicit springs (the law linearised with its
// tangent at q_k) reach the same statics at a step ten times longer, where explicit dampers
// diverge.
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "tendril/vine/applied_forces.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::vine {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kG = 9.81;

VineModel cantilever(double mass, double dt = 1e-3,
                     SpringIntegration springs = SpringIntegration::explicit_forces) {
  UniformVineParameters p;
  p.bodies = 3;
  p.half_length = 0.05;
  p.tube_diameter = 0.024;
  p.mass = mass;
  p.damping = 1e-3;
  p.dt = dt;
  VineModel m = uniform_vine(p);
  m.springs = springs;
  m.bending_law = BendingLaw::inflated_beam;
  m.inflated_beam.pressure = 2000.0;
  m.inflated_beam.radius = 0.012;
  m.inflated_beam.wrinkling_strain = 0.024;  // E t = p r / (2 eps_w) = 500 N/m
  m.inflated_beam.joint_length = 0.2;
  m.gravity = Vec2(0.0, -kG);
  m.validate();
  return m;
}

/// Runs 60 s, to rest; returns the final state.
VineState settle(const VineModel& m) {
  VineStepper stepper(m);
  VineState s = straight_state(m, 0.0);
  const int steps = static_cast<int>(std::lround(60.0 / m.dt));
  for (int k = 0; k < steps; ++k) EXPECT_TRUE(stepper.step(s).ok());
  EXPECT_LT(s.v.lpNorm<Eigen::Infinity>(), 1e-9);
  return s;
}

/// The statics moment at pin j: sum over the bodies distal of it of m_i g (x_i - x_pin) [N m]
/// (the gravity moment that bends the joint downwards, counter-clockwise positive).
double statics_moment(const VineModel& m, const VecX& q, int pin) {
  const std::vector<Vec2> points = centerline_points(m, q);
  const double x_pin = points[m.pin_body(pin)].x();
  double moment = 0.0;
  for (int i = m.pin_body(pin); i < m.num_bodies; ++i)
    moment -= m.mass[i] * kG * (q(3 * i) - x_pin);
  return moment;
}

TEST(InflatedCantilever, LinearRangeMatchesStatics) {
  const VineModel m = cantilever(1e-3);
  const VineState s = settle(m);
  std::printf("linear range: base angle %.6f rad, load %.6e N m\n", pin_angle_deviation(m, s.q, 0),
              statics_moment(m, s.q, 0));
  const double k_joint = m.inflated_beam.bending_stiffness() / m.inflated_beam.joint_length;
  const double angle_w = m.inflated_beam.wrinkling_curvature() * m.inflated_beam.joint_length;
  for (int j = 0; j < m.num_pins(); ++j) {
    const double load = statics_moment(m, s.q, j);
    const double angle = pin_angle_deviation(m, s.q, j);
    EXPECT_LT(std::abs(angle), angle_w);  // below wrinkling: the joint is linear
    EXPECT_NEAR(k_joint * angle, load, 1e-6 * std::abs(load)) << "pin " << j;
  }
}

TEST(InflatedCantilever, LoadAboveCollapseFoldsTheBaseJoint) {
  const VineModel m = cantilever(5e-3);
  const VineState start = straight_state(m, 0.0);
  const double m_c = kPi * 2000.0 * std::pow(0.012, 3);
  ASSERT_GT(-statics_moment(m, start.q, 0), m_c);  // horizontal: more than the tube can carry
  const VineState s = settle(m);
  // the base joint folds beyond the wrinkling angle until the lever arm carries less than M_c
  const double angle_w = m.inflated_beam.wrinkling_curvature() * m.inflated_beam.joint_length;
  const double base_angle = pin_angle_deviation(m, s.q, 0);
  std::printf("collapse: base angle %.6f rad (wrinkles at %.3f), load %.6e N m, M_c %.6e N m\n",
              base_angle, angle_w, statics_moment(m, s.q, 0), m_c);
  EXPECT_LT(base_angle, -angle_w);
  for (int j = 0; j < m.num_pins(); ++j) {
    const double load = statics_moment(m, s.q, j);
    EXPECT_LT(std::abs(load), m_c);
    EXPECT_NEAR(-pin_moment(m, j, pin_angle_deviation(m, s.q, j)).moment, -load,
                1e-6 * std::abs(load))
        << "pin " << j;
  }
  // softer than linear: it turns farther than a joint of the initial slope EI / l under its load
  const double k_joint = m.inflated_beam.bending_stiffness() / m.inflated_beam.joint_length;
  EXPECT_LT(base_angle, statics_moment(m, s.q, 0) / k_joint);
}

// Implicit springs with the law at dt = 10 ms: explicit dampers are unstable there (C dt / I = 11
// on the bodies' rotation, above 2) and the run fails; the implicit step's rest state is the
// statics of the law, in the linear range and beyond collapse, as at 1 ms.
TEST(InflatedCantilever, ImplicitSpringsReachTheStaticsAtTenTimesTheStep) {
  {
    const VineModel m = cantilever(1e-3, 1e-2);
    VineStepper stepper(m);
    VineState s = straight_state(m, 0.0);
    bool failed = false;
    for (int k = 0; k < 6000 && !failed; ++k) failed = !stepper.step(s).ok();
    EXPECT_TRUE(failed) << "explicit springs and dampers at dt = 10 ms";
  }
  for (const double mass : {1e-3, 5e-3}) {
    const VineModel m = cantilever(mass, 1e-2, SpringIntegration::implicit);
    const VineState s = settle(m);
    std::printf("implicit, mass %g kg: base angle %.6f rad\n", mass,
                pin_angle_deviation(m, s.q, 0));
    for (int j = 0; j < m.num_pins(); ++j) {
      const double load = statics_moment(m, s.q, j);
      EXPECT_NEAR(pin_moment(m, j, pin_angle_deviation(m, s.q, j)).moment, load,
                  1e-6 * std::abs(load))
          << "mass " << mass << " pin " << j;
    }
  }
}

}  // namespace
}  // namespace tendril::vine
