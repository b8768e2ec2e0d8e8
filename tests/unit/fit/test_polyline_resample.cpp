// Points evenly spaced along a polyline (fit/polyline_resample.hpp): spacing, end points, and the
// derivative with respect to the vertices against central finite differences.
#include <gtest/gtest.h>

#include <random>

#include "tendril/fit/polyline_resample.hpp"

namespace tendril::fit {
namespace {

MatX zigzag() {
  MatX v(5, 2);
  v << 0.0, 0.0, 0.03, 0.01, 0.05, 0.04, 0.051, 0.09, 0.08, 0.11;
  return v;
}

TEST(PolylineResample, PointsAreEvenlySpacedFromBaseToTip) {
  const MatX v = zigzag();
  const ResampledPolyline r = resample_polyline(v, 21);
  ASSERT_EQ(r.points.rows(), 21);
  EXPECT_LT((r.points.row(0) - v.row(0)).norm(), 1e-15);
  EXPECT_LT((r.points.row(20) - v.row(4)).norm(), 1e-15);
  double length = 0.0;
  for (int j = 0; j < 4; ++j) length += (v.row(j + 1) - v.row(j)).norm();
  // consecutive points on one segment are L / 20 apart (chords across a vertex are shorter)
  int same_segment = 0;
  for (int k = 0; k < 20; ++k) {
    const double chord = (r.points.row(k + 1) - r.points.row(k)).norm();
    EXPECT_LE(chord, length / 20 + 1e-15);
    if (std::abs(chord - length / 20) < 1e-12) ++same_segment;
  }
  EXPECT_GE(same_segment, 12);
}

TEST(PolylineResample, JacobianMatchesFiniteDifferences) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-0.002, 0.002);
  for (int trial = 0; trial < 5; ++trial) {
    MatX v = zigzag();
    for (int i = 0; i < v.size(); ++i) v.data()[i] += u(rng);
    const ResampledPolyline r = resample_polyline(v, 13);
    const double h = 1e-7;
    double worst = 0.0;
    for (int j = 0; j < v.rows(); ++j)
      for (int c = 0; c < 2; ++c) {
        MatX plus = v, minus = v;
        plus(j, c) += h;
        minus(j, c) -= h;
        const MatX d =
            (resample_polyline(plus, 13).points - resample_polyline(minus, 13).points) / (2 * h);
        for (int k = 0; k < 13; ++k)
          for (int e = 0; e < 2; ++e)
            worst = std::max(worst, std::abs(d(k, e) - r.jacobian(2 * k + e, 2 * j + c)));
      }
    EXPECT_LT(worst, 1e-7) << "trial " << trial;
  }
}

}  // namespace
}  // namespace tendril::fit
