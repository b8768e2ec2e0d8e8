// small_angle_atan2 and signed_angle: the Taylor series of atan (Abramowitz & Stegun 4.4.42,
// atan z = z - z^3/3 + z^5/5 - ... for |z| <= 1) agrees with std::atan2 to one ulp where it is used
// (|y| <= x / 8) and std::atan2 is used unchanged elsewhere.
#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include <gtest/gtest.h>

#include "tendril/geometry/signed_angle.hpp"

namespace tendril {
namespace {

/// |a - b| in units of the last place of b
double ulps(double a, double b) {
  const double ulp =
      std::nextafter(std::abs(b), std::numeric_limits<double>::infinity()) - std::abs(b);
  return std::abs(a - b) / ulp;
}

TEST(SmallAngleAtan2, SeriesIsWithinOneUlpOfAtan2) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> ratio(-0.125, 0.125), scale(1e-3, 1e3), shrink(-12.0, 0.0);
  double worst = 0.0;
  int differ = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const double x = scale(rng);
    const double y =
        ratio(rng) * std::pow(10.0, shrink(rng)) * x;  // angles from 0.125 rad down to 1e-13
    const double series = small_angle_atan2(y, x), reference = std::atan2(y, x);
    worst = std::max(worst, ulps(series, reference));
    differ += series != reference;
  }
  EXPECT_LE(worst, 1.0);
  EXPECT_GT(differ, 0)
      << "the sweep reaches the series (else it would test std::atan2 against itself)";
  // the edges of the series' range and exact values
  EXPECT_LE(ulps(small_angle_atan2(1.0, 8.0), std::atan2(1.0, 8.0)), 1.0);
  EXPECT_LE(ulps(small_angle_atan2(-1.0, 8.0), std::atan2(-1.0, 8.0)), 1.0);
  EXPECT_EQ(small_angle_atan2(0.0, 1.0), 0.0);
  EXPECT_EQ(small_angle_atan2(1e-300, 1.0), 1e-300);
}

TEST(SmallAngleAtan2, OutsideTheSeriesRangeItIsAtan2) {
  for (const auto& [y, x] : {std::pair{1.0, 7.9},
                             {-1.0, 7.9},
                             {1.0, 0.0},
                             {1.0, -1.0},
                             {0.0, -1.0},
                             {-0.0, -1.0},
                             {-1e-3, -1.0},
                             {3.0, 1.0}})
    EXPECT_EQ(small_angle_atan2(y, x), std::atan2(y, x)) << y << " " << x;
  EXPECT_TRUE(std::isnan(small_angle_atan2(std::nan(""), 1.0)));
  EXPECT_TRUE(std::isnan(small_angle_atan2(1e-3, std::nan(""))));
}

TEST(SmallAngleAtan2, SignedAngleIsTheRotationAboutTheAxis) {
  const Vec3 axis = Vec3(1.0, 2.0, -0.5).normalized();
  const Vec3 u = axis.unitOrthogonal();
  for (double angle : {0.0, 1e-9, 0.05, -0.1, 0.5, 2.0, -3.0, std::numbers::pi}) {
    const Vec3 v = Eigen::AngleAxisd(angle, axis) * u;
    EXPECT_NEAR(signed_angle(u, v, axis), angle, 4e-16 * (1.0 + std::abs(angle))) << angle;
  }
}

}  // namespace
}  // namespace tendril
