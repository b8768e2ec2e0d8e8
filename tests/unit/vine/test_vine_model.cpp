// Model helpers: the growth schedule u(t), the tube inertia formula, default contact points,
// straight initial states and model validation.
#include <cmath>

#include <gtest/gtest.h>

#include "tendril/core/error.hpp"
#include "tendril/vine/vine_model.hpp"

namespace tendril::vine {
namespace {

TEST(GrowthSchedule, HoldsAndInterpolates) {
  EXPECT_EQ(GrowthSchedule::constant(0.04).rate(123.0), 0.04);
  const GrowthSchedule hold = GrowthSchedule::piecewise({0.0, 1.0, 2.0}, {0.1, 0.2, 0.0}, "s");
  EXPECT_EQ(hold.rate(-1.0), 0.1);
  EXPECT_EQ(hold.rate(0.5), 0.1);
  EXPECT_EQ(hold.rate(1.0), 0.2);
  EXPECT_EQ(hold.rate(5.0), 0.0);
  const GrowthSchedule table = GrowthSchedule::table({0.0, 1.0}, {0.0, 0.04}, "t");
  EXPECT_NEAR(table.rate(0.25), 0.01, 1e-15);
  EXPECT_EQ(table.rate(3.0), 0.04);
  EXPECT_THROW(GrowthSchedule::piecewise({0.0, 0.0}, {1.0, 2.0}, "s"), InputError);
  EXPECT_THROW(GrowthSchedule::table({0.0, 1.0}, {1.0, std::nan("")}, "t"), InputError);
  EXPECT_THROW(GrowthSchedule::table({0.0}, {1.0, 2.0}, "t"), InputError);
}

// du(t)/d rate_i, the fits' growth-rate derivative: u is linear in the samples' rates, so the
// weights reproduce u(t) and, per sample, the change of u when that rate alone changes by 1.
TEST(GrowthSchedule, RateWeightsAreTheDerivativesInTheSamplesRates) {
  for (GrowthSchedule s : {GrowthSchedule::piecewise({0.0, 1.0, 2.0}, {0.1, 0.2, 0.05}, "s"),
                           GrowthSchedule::table({0.0, 1.0, 2.0}, {0.1, 0.2, 0.05}, "t")})
    for (const double t : {-1.0, 0.0, 0.25, 1.0, 1.7, 5.0}) {
      double weighted = 0.0;
      for (int i = 0; i < s.num_samples(); ++i) {
        weighted += s.rate_weight(t, i) * s.sample_rate(i);
        GrowthSchedule moved = s;
        moved.set_sample_rate(i, s.sample_rate(i) + 1.0);
        EXPECT_NEAR(moved.rate(t) - s.rate(t), s.rate_weight(t, i), 1e-14) << t << " " << i;
      }
      EXPECT_NEAR(weighted, s.rate(t), 1e-15) << t;
    }
  const GrowthSchedule table = GrowthSchedule::table({0.0, 1.0}, {0.0, 0.04}, "t");
  EXPECT_EQ(table.rate_weight(0.25, 0), 0.75);
  EXPECT_EQ(table.rate_weight(0.25, 1), 0.25);
}

TEST(VineModel, TubeInertiaHandValue) {
  // thin-walled tube: m (D^2 / 8 + l^2 / 12), l = 2 d
  EXPECT_NEAR(tube_inertia(2.0, 0.02, 0.05), 2.0 * (0.0004 / 8 + 0.01 / 12), 1e-18);
}

TEST(VineModel, DefaultContactPointsAndStraightState) {
  UniformVineParameters p;
  p.bodies = 5;
  p.half_length = 0.01;
  const VineModel m = uniform_vine(p);
  EXPECT_EQ(m.num_pins(), 3);
  EXPECT_EQ(m.num_prismatic(), 2);
  ASSERT_EQ(m.contact_points.size(), 3u);  // ends of bodies 1 and 3 (pins follow), tip of body 4
  EXPECT_EQ(m.contact_points[0].body, 1);
  EXPECT_EQ(m.contact_points[1].body, 3);
  EXPECT_EQ(m.contact_points[2].body, 4);
  const VineState s = straight_state(m, M_PI / 2, 0.002);
  // centres along +y: 0.01, 0.032 (after a prismatic gap), 0.052, 0.074, 0.094
  const double expected[] = {0.01, 0.032, 0.052, 0.074, 0.094};
  for (int i = 0; i < 5; ++i) {
    EXPECT_NEAR(s.q(3 * i), 0.0, 1e-15);
    EXPECT_NEAR(s.q(3 * i + 1), expected[i], 1e-15);
    EXPECT_EQ(s.q(3 * i + 2), M_PI / 2);
  }
  const std::vector<Vec2> line = centerline_points(m, s.q);
  ASSERT_EQ(line.size(), 6u);
  EXPECT_NEAR(line.back().y(), 0.104, 1e-15);
}

TEST(VineModel, ValidateNamesTheKey) {
  UniformVineParameters p;
  p.bodies = 4;
  VineModel m = uniform_vine(p);
  m.stiffness = {1.0};
  try {
    m.validate();
    FAIL() << "wrong stiffness size accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key_path(), "vine.stiffness");
  }
  m = uniform_vine(p);
  m.damping[1] = -1.0;
  EXPECT_THROW(m.validate(), InputError);
  m = uniform_vine(p);
  m.dt = 0.0;
  EXPECT_THROW(m.validate(), InputError);
  m = uniform_vine(p);
  m.contact_points[0].offset = 1.0;
  EXPECT_THROW(m.validate(), InputError);
}

}  // namespace
}  // namespace tendril::vine
