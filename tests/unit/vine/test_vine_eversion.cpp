// Growth by eversion in the planar vine (VineModel::everted_density,
// docs/physics/vine.md#growth-by-eversion): material of lambda [kg/m] appears at the tip at rest,
// so a straight vine growing upwards at a constant rate u (constant velocities, the tip body at u)
// is pushed by its base with its weight plus lambda u^2, the thrust that brings the new material
// from rest to the tip speed, and its tip actuator (tip growth) with the tip body's weight plus
// lambda u^2. The references are these closed forms of the momentum balance.
#include <cmath>
#include <fstream>

#include <gtest/gtest.h>

#include "support/scratch_dir.hpp"
#include "tendril/core/error.hpp"
#include "tendril/vine/step_derivatives.hpp"
#include "tendril/vine/vine_scene.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::vine {
namespace {

constexpr double kRate = 0.04;     // u [m/s], the paper's wall-growth rate
constexpr double kDensity = 0.03;  // lambda [kg/m], the paper's bodies: 1 g per 33.7 mm
constexpr double kGravity = 9.81;  // [m/s^2], along -y: the vine grows upwards

VineModel upward_vine(GrowthMode mode) {
  UniformVineParameters p;
  p.bodies = 6;
  p.half_length = 0.016845;
  p.mass = 1e-3;
  p.stiffness = 0.05;
  p.damping = 1e-5;
  p.heading = M_PI / 2;
  p.dt = 1.0 / 90.0;  // the paper's; explicit springs of these bodies need dt < 2e-3 s
  VineModel m = uniform_vine(p);
  m.growth = GrowthSchedule::constant(kRate);
  m.growth_mode = mode;
  m.springs = SpringIntegration::implicit;
  m.everted_density = kDensity;
  m.gravity = Vec2(0.0, -kGravity);
  return m;
}

void check_momentum_balance(GrowthMode mode) {
  const VineModel m = upward_vine(mode);
  VineStepper stepper(m);
  VineState s = straight_state(m, M_PI / 2);
  const int tip = m.num_bodies - 1;
  for (int k = 0; k < 90; ++k) {
    double weight = 0.0;  // of the whole vine at q_k [N]
    for (int i = 0; i < m.num_bodies; ++i) weight += body_mass(m, s.q, i) * kGravity;
    const double tip_weight = body_mass(m, s.q, tip) * kGravity;
    ASSERT_TRUE(stepper.step(s).ok()) << "step " << k;
    if (k == 0) continue;  // the first step brings the bodies to their speeds
    // the base pin's y row has the coefficient -1 on v_y of body 0
    const double thrust = kDensity * kRate * kRate;
    EXPECT_NEAR(-stepper.joint_impulses()(1) / m.dt, weight + thrust, 1e-9 * weight) << k;
    if (mode == GrowthMode::tip) {
      EXPECT_NEAR(stepper.growth_impulses()(m.num_prismatic() - 1) / m.dt, tip_weight + thrust,
                  1e-9 * weight)
          << k;
    }
  }
  EXPECT_NEAR(body_mass(m, s.q, tip) - m.mass[tip], kDensity * kRate * 90 * m.dt, 1e-12);
  // the tip mass depends on q: the step derivatives refuse rather than leave its terms out
  EXPECT_FALSE(step_derivatives(stepper).ok);
}

TEST(VineEversion, BasePushesTheWeightAndTheThrustOfTheNewMaterialWithTipGrowth) {
  check_momentum_balance(GrowthMode::tip);
}

TEST(VineEversion, BasePushesTheWeightAndTheThrustOfTheNewMaterialWithUniformGrowth) {
  check_momentum_balance(GrowthMode::uniform);
}

TEST(VineEversion, SceneKeyReachesTheModelAndANegativeDensityIsRefused) {
  const std::filesystem::path file = testing::scratch_dir("eversion") / "scene.yaml";
  const auto load = [&](const std::string& density) {
    std::ofstream(file) << "vine:\n  bodies: 2\n  half_length: 0.01\n  steps: 1\n"
                        << "  stiffness: [0.1]\n  growth: {rate: 0.04, everted_density: " << density
                        << "}\n";
    return load_vine_scene_file(file).model;
  };
  EXPECT_EQ(load("0.03").everted_density, 0.03);
  try {
    load("-1");
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("vine.growth.everted_density"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace tendril::vine
