// GravityEnergy: E = - sum_i m_i g . x_i (mat_dismech 5.1).
#include <gtest/gtest.h>

#include "small_rod.hpp"
#include "support/conformance.hpp"
#include "tendril/core/error.hpp"
#include "tendril/forces/gravity.hpp"

namespace tendril {
namespace {

using namespace conformance;

TEST(Gravity, GradientAndHessianMatchFiniteDifferences) {
  auto rod = testing::make_small_rod(6, 11);
  const GravityEnergy gravity(Vec3(0.3, -1.1, -9.81));
  for (unsigned seed : {1u, 2u, 3u})
    expect_energy_conforms(gravity, rod.model, rod.frames,
                           perturbed(rod.model, rod.q, 0.05, 0.3, seed));
}

TEST(Gravity, HandComputedValueAndTwistsUnloaded) {
  auto rod = testing::make_small_rod(3, 5);
  const Vec3 g(0.0, 0.0, -9.81);
  const GravityEnergy gravity(g);
  const EnergyEval e = evaluate_energy(gravity, rod.model, rod.frames, rod.q);
  double expected = 0.0;
  for (int i = 0; i < 3; ++i) expected += rod.model.mass[3 * i + 2] * 9.81 * rod.q[3 * i + 2];
  EXPECT_NEAR(e.energy, expected, 1e-14);
  EXPECT_DOUBLE_EQ(e.gradient[5], rod.model.mass[5] * 9.81);  // node 1, z: -m g_z
  EXPECT_EQ(e.gradient.tail(rod.model.dofs.num_edges).norm(), 0.0);
  EXPECT_EQ(e.hessian.norm(), 0.0);
  EXPECT_TRUE(gravity.is_external_load());
}

TEST(Gravity, TranslationChangesEnergyByTotalWork) {
  auto rod = testing::make_small_rod(5, 2);
  const Vec3 g(1.0, 2.0, -9.81);
  const GravityEnergy gravity(g);
  const Vec3 b(0.2, -0.4, 1.5);
  VecX moved = rod.q;
  double total_mass = 0.0;
  for (int i = 0; i < 5; ++i) {
    moved.segment<3>(3 * i) += b;
    total_mass += rod.model.mass[3 * i];
  }
  const double before = evaluate_energy(gravity, rod.model, rod.frames, rod.q, false).energy;
  const double after = evaluate_energy(gravity, rod.model, rod.frames, moved, false).energy;
  EXPECT_NEAR(after - before, -total_mass * g.dot(b), 1e-12);
}

TEST(Gravity, RejectsNonFiniteAcceleration) {
  EXPECT_THROW(GravityEnergy(Vec3(0.0, std::nan(""), 0.0)), InputError);
}

}  // namespace
}  // namespace tendril
