// Edge-edge minimum distance (mat_dismech sec. 4, Delta of a contact pair): closest points in every
// regime against brute-force sampling, and gradient / Hessian against central differences,
// including near-parallel, crossing-in-projection, collinear and degenerate segments.
#include <gtest/gtest.h>

#include <random>

#include "distance_derivatives.hpp"
#include "tendril/contact/distance/edge_edge_distance.hpp"

namespace tendril::contact {
namespace {

using Stencil = Vec12;

EdgeEdgeDistance at(const Stencil& x, bool hessian = true) {
  return edge_edge_distance(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9),
                            hessian);
}

Stencil stencil(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1) {
  Stencil x;
  x << a0, a1, b0, b1;
  return x;
}

/// Brute force: min over a fine grid of (s, t) then a few projected refinements.
double sampled_distance(const Stencil& x) {
  double best = 1e300;
  const int n = 400;
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= n; ++j) {
      const double s = double(i) / n, t = double(j) / n;
      const Vec3 a = x.segment<3>(0) + s * (x.segment<3>(3) - x.segment<3>(0));
      const Vec3 b = x.segment<3>(6) + t * (x.segment<3>(9) - x.segment<3>(6));
      best = std::min(best, (a - b).norm());
    }
  return best;
}

void expect_derivatives_conform(const Stencil& x, double h, double tol) {
  testing::expect_distance_derivatives_conform(
      [](const Stencil& y) { return at(y); },
      [](const EdgeEdgeDistance& d) { return d.closest.distance; },
      [](const EdgeEdgeDistance& d) { return d.closest.regime(); }, x, h, tol);
}

TEST(EdgeEdgeDistance, CrossingSkewSegmentsAreEdgeEdge) {
  // a along x at z = 0.3, b along y at z = 0: closest points (0.5, 0.5, .) apart by 0.3
  const Stencil x = stencil({-0.5, 0, 0.3}, {1.5, 0, 0.3}, {0.5, -1, 0}, {0.5, 1, 0});
  const EdgeEdgeDistance d = at(x);
  EXPECT_EQ(d.closest.regime(), DistanceRegime::edge_edge);
  EXPECT_NEAR(d.closest.distance, 0.3, 1e-15);
  EXPECT_NEAR(d.closest.s, 0.5, 1e-15);
  EXPECT_NEAR(d.closest.t, 0.5, 1e-15);
  expect_derivatives_conform(x, 1e-6, 1e-6);
}

TEST(EdgeEdgeDistance, EveryRegimeMatchesSamplingAndFiniteDifferences) {
  struct Case {
    Stencil x;
    DistanceRegime regime;
  };
  const Case cases[] = {
      // end a1 against the interior of b
      {stencil({-1, 0, 0.2}, {0.2, 0.1, 0.25}, {0.5, -1, 0}, {0.6, 1, 0.05}),
       DistanceRegime::point_edge},
      // end b0 against the interior of a
      {stencil({0, -1, 0}, {0.1, 1, 0.02}, {0.4, 0.2, 0.3}, {1.5, 0.3, 0.7}),
       DistanceRegime::edge_point},
      // end against end
      {stencil({0, 0, 0}, {1, 0.1, 0}, {1.3, 0.4, 0.2}, {2, 1, 0.5}), DistanceRegime::point_point},
      // near-parallel (angle 1e-2 rad), overlapping, closest points interior
      {stencil({0, 0, 0.1}, {1, 0, 0.1}, {0.3, -0.005, 0}, {1.3, 0.005, 0.0}),
       DistanceRegime::edge_edge},
  };
  for (const Case& c : cases) {
    const EdgeEdgeDistance d = at(c.x);
    EXPECT_EQ(d.closest.regime(), c.regime);
    EXPECT_NEAR(d.closest.distance, sampled_distance(c.x), 2e-3 * d.closest.distance);
    EXPECT_LE(d.closest.distance, sampled_distance(c.x) + 1e-15);
    expect_derivatives_conform(c.x, 1e-6, 2e-6);
  }
}

TEST(EdgeEdgeDistance, NearParallelDerivativesStayExact) {
  // angles 1e-3 and 1e-4 rad, closest points interior: the Hessian grows like 1/angle^2 (the
  // distance has a kink at parallel) but stays the exact derivative
  for (double angle : {1e-3, 1e-4}) {
    const Stencil x =
        stencil({0, 0, 0.01}, {1, 0, 0.01}, {0.2, -0.5 * angle, 0}, {1.2, 0.5 * angle, 0});
    const EdgeEdgeDistance d = at(x);
    ASSERT_EQ(d.closest.regime(), DistanceRegime::edge_edge) << angle;
    EXPECT_NEAR(d.closest.distance, 0.01, 1e-12);
    expect_derivatives_conform(x, 1e-3 * angle * 0.01, 1e-5);
  }
}

TEST(EdgeEdgeDistance, ParallelCollinearAndDegenerateSegments) {
  // exactly parallel, overlapping: distance 0.2, s clamped to an end (point-edge)
  const Stencil parallel = stencil({0, 0, 0.2}, {1, 0, 0.2}, {0.5, 0, 0}, {2, 0, 0});
  EdgeEdgeDistance d = at(parallel);
  EXPECT_NEAR(d.closest.distance, 0.2, 1e-15);
  EXPECT_NE(d.closest.regime(), DistanceRegime::edge_edge);
  EXPECT_TRUE(d.gradient.allFinite() && d.hessian.allFinite());
  // parallel, disjoint along the axis: end to end
  const Stencil apart = stencil({0, 0, 0.2}, {1, 0, 0.2}, {1.5, 0, 0}, {2, 0, 0});
  d = at(apart);
  EXPECT_NEAR(d.closest.distance, std::hypot(0.5, 0.2), 1e-15);
  EXPECT_EQ(d.closest.regime(), DistanceRegime::point_point);
  expect_derivatives_conform(apart, 1e-6, 1e-6);
  // collinear with a gap
  const Stencil collinear = stencil({0, 0, 0}, {1, 0, 0}, {1.25, 0, 0}, {3, 0, 0});
  d = at(collinear);
  EXPECT_NEAR(d.closest.distance, 0.25, 1e-15);
  EXPECT_EQ(d.closest.regime(), DistanceRegime::point_point);
  // zero-length segment a against segment b: point-edge
  const Stencil point = stencil({0.5, 0.3, 0.4}, {0.5, 0.3, 0.4}, {0, 0, 0}, {1, 0, 0});
  d = at(point);
  EXPECT_NEAR(d.closest.distance, 0.5, 1e-15);
  EXPECT_EQ(d.closest.regime(), DistanceRegime::point_edge);
  EXPECT_TRUE(d.gradient.allFinite() && d.hessian.allFinite());
  // both zero length
  d = at(stencil({0, 0, 0}, {0, 0, 0}, {0, 0.3, 0.4}, {0, 0.3, 0.4}));
  EXPECT_NEAR(d.closest.distance, 0.5, 1e-15);
  // touching (Delta = 0): finite, zero derivatives
  d = at(stencil({-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}));
  EXPECT_EQ(d.closest.distance, 0.0);
  EXPECT_EQ(d.gradient.norm(), 0.0);
}

TEST(EdgeEdgeDistance, RandomSegmentsMatchSamplingAndFiniteDifferences) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  int regimes[4] = {0, 0, 0, 0};
  for (int trial = 0; trial < 60; ++trial) {
    Stencil x;
    for (int i = 0; i < 12; ++i) x[i] = unit(rng);
    const EdgeEdgeDistance d = at(x);
    EXPECT_NEAR(d.closest.distance, sampled_distance(x), 1e-2 * std::max(d.closest.distance, 1e-2));
    EXPECT_LE(d.closest.distance, sampled_distance(x) + 1e-15);
    // derivatives only where a small step keeps the regime
    const double margin = std::min({d.closest.s, 1 - d.closest.s, d.closest.t, 1 - d.closest.t});
    if (d.closest.distance > 1e-2 && (margin > 1e-3 || margin == 0.0)) {
      bool stable = true;
      for (int i = 0; i < 12 && stable; ++i) {
        Stencil p = x;
        p[i] += 1e-6;
        stable = at(p).closest.regime() == d.closest.regime();
      }
      if (!stable) continue;
      ++regimes[int(d.closest.regime())];
      expect_derivatives_conform(x, 1e-7, 1e-5);
    }
  }
  for (int r = 0; r < 4; ++r) EXPECT_GT(regimes[r], 0) << "regime " << r << " never sampled";
}

}  // namespace
}  // namespace tendril::contact
