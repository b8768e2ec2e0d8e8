// Point-triangle minimum distance (the point-triangle pairs of shell contact, Delta of mat_dismech
// eq. 21 for a node against a triangle; derivation in docs/physics/contact.md): the closest point
// in every regime (face, edge, vertex) against brute-force sampling of the triangle, and gradient /
// Hessian against central differences, including a degenerate triangle.
#include <gtest/gtest.h>

#include <random>

#include "distance_derivatives.hpp"
#include "tendril/contact/distance/point_triangle_distance.hpp"

namespace tendril::contact {
namespace {

using Stencil = Vec12;

PointTriangleDistance at(const Stencil& x, bool hessian = true) {
  return point_triangle_distance(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9),
                                 hessian);
}

Stencil stencil(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2) {
  Stencil x;
  x << p, t0, t1, t2;
  return x;
}

/// Brute force: min of |p - T| over a grid of 400 x 400 barycentric samples.
double sampled_distance(const Stencil& x) {
  double best = 1e300;
  const int n = 400;
  for (int i = 0; i <= n; ++i)
    for (int j = 0; i + j <= n; ++j) {
      const double u = double(i) / n, v = double(j) / n;
      const Vec3 t = (1 - u - v) * x.segment<3>(3) + u * x.segment<3>(6) + v * x.segment<3>(9);
      best = std::min(best, (x.segment<3>(0) - t).norm());
    }
  return best;
}

void expect_derivatives_conform(const Stencil& x, double h, double tol) {
  testing::expect_distance_derivatives_conform(
      [](const Stencil& y) { return at(y); },
      [](const PointTriangleDistance& d) { return d.closest.distance; },
      [](const PointTriangleDistance& d) { return d.closest.regime; }, x, h, tol);
}

TEST(PointTriangleDistance, EveryRegimeMatchesSamplingAndFiniteDifferences) {
  const Vec3 t0(0, 0, 0), t1(1, 0, 0.1), t2(0.2, 0.9, -0.1);
  struct Case {
    Vec3 p;
    TriangleRegime regime;
    int feature;
  };
  const Case cases[] = {
      {{0.3, 0.3, 0.4}, TriangleRegime::face, 0},      // above the face
      {{0.3, 0.3, -0.2}, TriangleRegime::face, 0},     // below it
      {{0.5, -0.4, 0.2}, TriangleRegime::edge, 0},     // beside edge t0-t1
      {{0.9, 0.8, 0.1}, TriangleRegime::edge, 1},      // beside edge t1-t2
      {{-0.4, 0.4, 0.0}, TriangleRegime::edge, 2},     // beside edge t2-t0
      {{-0.3, -0.3, 0.2}, TriangleRegime::vertex, 0},  // beyond t0
      {{1.5, -0.2, 0.3}, TriangleRegime::vertex, 1},   // beyond t1
      {{0.2, 1.5, 0.1}, TriangleRegime::vertex, 2},    // beyond t2
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.p.transpose());
    const Stencil x = stencil(c.p, t0, t1, t2);
    const PointTriangleDistance d = at(x);
    EXPECT_EQ(d.closest.regime, c.regime);
    if (c.regime != TriangleRegime::face) {
      EXPECT_EQ(d.closest.feature, c.feature);
    }
    EXPECT_NEAR(d.closest.barycentric.sum(), 1.0, 1e-14);
    EXPECT_LE(d.closest.distance, sampled_distance(x) + 1e-15);
    EXPECT_NEAR(d.closest.distance, sampled_distance(x), 2e-3 * d.closest.distance);
    expect_derivatives_conform(x, 1e-6, 2e-6);
  }
}

TEST(PointTriangleDistance, FaceRegimeIsThePlaneDistance) {
  // triangle in z = 0: Delta = |z|, gradient +-e_z on p shared by the vertices by the barycentric
  // weights
  const Stencil x = stencil({0.25, 0.25, 0.3}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0});
  const PointTriangleDistance d = at(x);
  EXPECT_EQ(d.closest.regime, TriangleRegime::face);
  EXPECT_NEAR(d.closest.distance, 0.3, 1e-15);
  EXPECT_NEAR(d.closest.barycentric[0], 0.5, 1e-15);
  EXPECT_NEAR(d.gradient[2], 1.0, 1e-15);
  EXPECT_NEAR(d.gradient[5], -0.5, 1e-15);
  EXPECT_NEAR(d.gradient[8], -0.25, 1e-15);
  expect_derivatives_conform(x, 1e-6, 1e-6);
}

TEST(PointTriangleDistance, DegenerateTriangleAndTouchingPoint) {
  // collinear vertices: no face regime, the distance to the segment
  const Stencil line = stencil({0.5, 0.3, 0.4}, {0, 0, 0}, {1, 0, 0}, {2, 0, 0});
  PointTriangleDistance d = at(line);
  EXPECT_NE(d.closest.regime, TriangleRegime::face);
  EXPECT_NEAR(d.closest.distance, 0.5, 1e-15);
  EXPECT_TRUE(d.gradient.allFinite() && d.hessian.allFinite());
  // all three vertices at one point
  d = at(stencil({0, 0.3, 0.4}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}));
  EXPECT_NEAR(d.closest.distance, 0.5, 1e-15);
  EXPECT_TRUE(d.gradient.allFinite() && d.hessian.allFinite());
  // the point on the face: Delta = 0, zero derivatives
  d = at(stencil({0.2, 0.2, 0}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}));
  EXPECT_EQ(d.closest.distance, 0.0);
  EXPECT_EQ(d.gradient.norm(), 0.0);
}

TEST(PointTriangleDistance, RandomStencilsMatchSamplingAndFiniteDifferences) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  int regimes[3] = {0, 0, 0};
  for (int trial = 0; trial < 60; ++trial) {
    Stencil x;
    for (int i = 0; i < 12; ++i) x[i] = unit(rng);
    const PointTriangleDistance d = at(x);
    EXPECT_LE(d.closest.distance, sampled_distance(x) + 1e-15);
    EXPECT_NEAR(d.closest.distance, sampled_distance(x), 1e-2 * std::max(d.closest.distance, 1e-2));
    if (d.closest.distance < 1e-2) continue;
    // derivatives only where a small step keeps the regime
    bool stable = true;
    for (int i = 0; i < 12 && stable; ++i)
      for (double h : {-1e-5, 1e-5}) {
        Stencil p = x;
        p[i] += h;
        stable = stable && at(p).closest.regime == d.closest.regime;
      }
    if (!stable) continue;
    ++regimes[int(d.closest.regime)];
    expect_derivatives_conform(x, 1e-7, 1e-5);
  }
  for (int r = 0; r < 3; ++r) EXPECT_GT(regimes[r], 0) << "regime " << r << " never sampled";
}

}  // namespace
}  // namespace tendril::contact
