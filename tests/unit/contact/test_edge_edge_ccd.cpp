// Continuous collision check of two moving segments (ccd/edge_edge_ccd.hpp; additive conservative
// advancement, Li, Kaufman and Jiang 2021, Algorithm 1). The distance along the motion is sampled
// finely and compared with what the check returns: the returned fraction is safe (the distance
// never falls below keep * Delta(0) before it) and not needlessly small (it is the full step when
// the distance never gets that low).
#include <gtest/gtest.h>

#include <random>

#include "tendril/contact/ccd/edge_edge_ccd.hpp"

namespace tendril::contact {
namespace {

double distance_at(const Vec12& x, const Vec12& p, double t) {
  const Vec12 y = x + t * p;
  return segment_closest_points(y.segment<3>(0), y.segment<3>(3), y.segment<3>(6), y.segment<3>(9))
      .distance;
}

// smallest sampled distance on [0, t] (4001 samples)
double min_distance(const Vec12& x, const Vec12& p, double t) {
  double d = distance_at(x, p, 0.0);
  for (int k = 1; k <= 4000; ++k) d = std::min(d, distance_at(x, p, t * k / 4000.0));
  return d;
}

Vec12 stencil(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1) {
  Vec12 x;
  x << a0, a1, b0, b1;
  return x;
}

TEST(EdgeEdgeCcd, CrossingSegmentsStopBeforeTheTouch) {
  // A along x at height h falls by 2h: the centrelines would cross at t = 1/2; the distance h (1 -
  // 2t) reaches keep h at t = (1 - keep) / 2
  const double h = 0.004, keep = 0.1;
  const Vec12 x = stencil({-0.01, 0, h}, {0.01, 0, h}, {0, -0.01, 0}, {0, 0.01, 0});
  Vec12 p = Vec12::Zero();
  p[2] = p[5] = -2 * h;
  const double t = edge_edge_collision_free_fraction(x, p, keep);
  EXPECT_LE(t, 0.5 * (1 - keep) + 1e-12);
  EXPECT_GE(t, 0.9 * 0.5 * (1 - keep));  // advancement steps of 0.9 of the distance left
  EXPECT_GE(min_distance(x, p, t), keep * h * (1 - 1e-9));
}

TEST(EdgeEdgeCcd, FastThinSegmentsDoNotTunnel) {
  // A passes 100 times its distance through B in one step
  const double h = 1e-4, keep = 0.1;
  const Vec12 x = stencil({-0.01, 0, h}, {0.01, 0, h}, {0, -0.01, 0}, {0, 0.01, 0});
  Vec12 p = Vec12::Zero();
  p[2] = p[5] = -100 * h;
  const double t = edge_edge_collision_free_fraction(x, p, keep);
  EXPECT_GT(t, 0.0);
  EXPECT_LT(t, 0.01);  // the crossing is at t = 0.01
  EXPECT_GE(min_distance(x, p, t), keep * h * (1 - 1e-9));
}

TEST(EdgeEdgeCcd, SeparatingSlidingAndStillSegmentsTakeTheWholeStep) {
  const Vec12 x = stencil({-0.01, 0, 0.002}, {0.01, 0, 0.002}, {0, -0.01, 0}, {0, 0.01, 0});
  Vec12 up = Vec12::Zero();
  up[2] = up[5] = 0.05;
  EXPECT_EQ(edge_edge_collision_free_fraction(x, up, 0.1), 1.0);
  Vec12 slide = Vec12::Zero();  // A slides along its own axis, far along: the distance stays 2 mm
  slide[0] = slide[3] = 0.004;
  EXPECT_EQ(edge_edge_collision_free_fraction(x, slide, 0.1), 1.0);
  EXPECT_EQ(edge_edge_collision_free_fraction(x, Vec12::Zero(), 0.1), 1.0);
  Vec12 together = Vec12::Constant(0.3);  // a common translation changes no distance
  EXPECT_EQ(edge_edge_collision_free_fraction(x, together, 0.1), 1.0);
}

TEST(EdgeEdgeCcd, TouchingSegmentsCannotMove) {
  const Vec12 x = stencil({-0.01, 0, 0}, {0.01, 0, 0}, {0, -0.01, 0}, {0, 0.01, 0});
  Vec12 p = Vec12::Zero();
  p[2] = -0.01;
  EXPECT_EQ(edge_edge_collision_free_fraction(x, p, 0.1), 0.0);
}

TEST(EdgeEdgeCcd, RandomMotionsAreSafeAndTight) {
  // random segments and motions (parallel, skew, rotating): the returned t is safe, and it is the
  // whole step whenever the sampled distance stays clearly above the floor
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const double keep = 0.1;
  int full = 0, limited = 0;
  for (int trial = 0; trial < 300; ++trial) {
    Vec12 x, p;
    for (int k = 0; k < 12; ++k) {
      x[k] = 0.01 * u(rng);
      p[k] = 0.02 * u(rng);
    }
    if (trial % 3 == 0)
      x.segment<3>(9) = x.segment<3>(6) + (x.segment<3>(3) - x.segment<3>(0));  // parallel
    const double d0 = distance_at(x, p, 0.0);
    const double t = edge_edge_collision_free_fraction(x, p, keep);
    ASSERT_GE(t, 0.0);
    ASSERT_LE(t, 1.0);
    EXPECT_GE(min_distance(x, p, t), keep * d0 * (1 - 1e-9)) << "trial " << trial;
    if (min_distance(x, p, 1.0) > 1.05 * keep * d0) {
      EXPECT_EQ(t, 1.0) << "trial " << trial;
      ++full;
    } else {
      ++limited;
    }
  }
  EXPECT_GT(full, 20);
  EXPECT_GT(limited, 20);
}

}  // namespace
}  // namespace tendril::contact
