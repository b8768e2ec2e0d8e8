// Growth by eversion (Vine3dModel::everted_density, docs/physics/vine3d.md#growth-by-eversion):
// material of lambda [kg/m] appears at the tip at rest, so the tip body gains lambda u per second
// and the vine's momentum balance is d/dt (sum m_i v_i) = sum F + base reaction, with the tip body
// moving at the total growth rate u: a straight vine growing at a constant rate has constant
// velocities, and the base must push it with lambda u^2 (the thrust that brings the new material
// from rest to the tip speed) on top of its weight; the tip joint's actuator pushes with
// lambda u^2 plus the weight of what is beyond it. The references are these closed forms.
#include <cmath>

#include <gtest/gtest.h>

#include "tendril/vine3d/vine3d_stepper.hpp"

namespace tendril::vine3d {
namespace {

constexpr double kRate = 0.04;     // u [m/s], the paper's wall-growth rate
constexpr double kDensity = 0.03;  // lambda [kg/m], the paper's bodies: 1 g per 33.7 mm
constexpr double kGravity = 9.81;  // [m/s^2], along -x: the vine grows upwards

Vine3dModel upward_vine(GrowthMode mode) {
  UniformVine3dParameters p;
  p.bodies = 6;
  p.half_length = 0.016845;
  p.mass = 1e-3;
  p.stiffness = 0.05;
  p.damping = 1e-5;
  p.dt = 1.0 / 90.0;  // the paper's; explicit springs of these bodies need dt < 2e-3 s
  Vine3dModel m = uniform_vine3d(p);
  m.growth = GrowthSchedule::constant(kRate);
  m.growth_mode = mode;
  m.springs = SpringIntegration::implicit;
  m.everted_density = kDensity;
  m.gravity = Vec3(-kGravity, 0.0, 0.0);
  return m;
}

/// Runs 90 steps (the first brings the bodies to their constant speeds) and checks, at every later
/// step, the base's and the tip actuator's forces against the momentum balance.
void check_momentum_balance(GrowthMode mode) {
  const Vine3dModel m = upward_vine(mode);
  Vine3dStepper stepper(m);
  Vine3dState s = straight_state(m, 0.0);
  const int tip = m.num_bodies - 1;
  const int tip_growth_row = static_cast<int>(stepper.rows().size()) - 1;
  for (int k = 0; k < 90; ++k) {
    double weight = 0.0;  // of the whole vine at q_k [N]
    for (int i = 0; i < m.num_bodies; ++i) weight += body_mass(m, s, i) * kGravity;
    const double tip_weight = body_mass(m, s, tip) * kGravity;
    const Vine3dStepReport r = stepper.step(s);
    ASSERT_TRUE(r.ok()) << "step " << k;
    if (k == 0) continue;
    const VecX impulses = stepper.equality_impulses();
    // base joint: its x row's coefficient on v_0 is -e_x, so the base pushes body 0 with -y_0
    const double base_force = -impulses(0) / m.dt;
    const double thrust = kDensity * kRate * kRate;
    EXPECT_NEAR(base_force, weight + thrust, 1e-9 * weight) << "step " << k;
    if (mode == GrowthMode::tip) {  // the tip joint carries the tip body alone
      EXPECT_NEAR(impulses(tip_growth_row) / m.dt, tip_weight + thrust, 1e-9 * weight)
          << "step " << k;
    }
  }
  EXPECT_NEAR(body_mass(m, s, tip) - m.mass[tip], kDensity * kRate * 90 * m.dt, 1e-12);
}

TEST(Vine3dEversion, BasePushesTheWeightAndTheThrustOfTheNewMaterialWithTipGrowth) {
  check_momentum_balance(GrowthMode::tip);
}

TEST(Vine3dEversion, BasePushesTheWeightAndTheThrustOfTheNewMaterialWithUniformGrowth) {
  check_momentum_balance(GrowthMode::uniform);
}

TEST(Vine3dEversion, WithoutEversionTheBaseCarriesTheWeightOnly) {
  Vine3dModel m = upward_vine(GrowthMode::tip);
  m.everted_density = 0.0;
  Vine3dStepper stepper(m);
  Vine3dState s = straight_state(m, 0.0);
  double weight = 0.0;
  for (int i = 0; i < m.num_bodies; ++i) weight += m.mass[i] * kGravity;
  for (int k = 0; k < 10; ++k) {
    ASSERT_TRUE(stepper.step(s).ok());
    if (k > 0) {
      EXPECT_NEAR(-stepper.equality_impulses()(0) / m.dt, weight, 1e-9 * weight);
    }
  }
}

}  // namespace
}  // namespace tendril::vine3d
