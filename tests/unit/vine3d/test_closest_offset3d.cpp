// The point of a body's axis segment nearest an obstacle (closest_offset, src/tendril/vine3d/
// closest_offset.cpp): for random segments against cylinders, boxes and triangles at any
// orientation, against the least of dense samples of the signed distance along the segment and a
// bisection on the sign of its slope (the distance's gradient . e) within the best sample's
// bracket; and for hand-made cylinder configurations with known answers (crossing the axis,
// parallel to it, over a cap, across the rim, inside), in a rotated and shifted frame.
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "tendril/vine3d/obstacles.hpp"

namespace tendril::vine3d {
namespace {

double sd(const Obstacle3& o, const Vec3& p, const Vec3& e, double s, Vec3& normal) {
  return signed_distance(o, Vec3(p + s * e), normal);
}

struct Reference {
  double offset = 0.0, distance = 0.0, sampled = 0.0;  // sampled: the least sample's distance
};

/// The least of 4001 samples of f(s) = sd(p + s e), then in the bracket of the samples either side
/// of it a bisection on the sign of f' = n . e to 4e-16 d (f is convex: its minimiser is there).
Reference reference_offset(const Obstacle3& o, const Vec3& p, const Vec3& e, double d) {
  const int n = 4000;
  Vec3 normal;
  int best = 0;
  double least = HUGE_VAL;
  for (int k = 0; k <= n; ++k) {
    const double f = sd(o, p, e, -d + 2.0 * d * k / n, normal);
    if (f < least) {
      least = f;
      best = k;
    }
  }
  double lo = -d + 2.0 * d * std::max(best - 1, 0) / n,
         hi = -d + 2.0 * d * std::min(best + 1, n) / n;
  while (hi - lo > 4e-16 * d) {
    const double mid = 0.5 * (lo + hi);
    sd(o, p, e, mid, normal);
    (normal.dot(e) > 0.0 ? hi : lo) = mid;
  }
  Reference r{0.5 * (lo + hi), 0.0, least};
  r.distance = sd(o, p, e, r.offset, normal);
  for (const double end : {-d, d})
    if (sd(o, p, e, end, normal) < r.distance) r = {end, sd(o, p, e, end, normal), least};
  return r;
}

Vec3 random_direction(std::mt19937& rng) {
  std::normal_distribution<double> g;
  return Vec3(g(rng), g(rng), g(rng)).normalized();
}

/// Random segments about the obstacle (centres within `spread` of `middle`, half lengths up to
/// 0.15 m): the offset matches the reference's to 1e-12 d where the minimiser is unique (f rises
/// by 1e-12 m within 1e-3 d either side of it), and the distance is the least one to 1e-12 m.
void expect_exact_offsets(const Obstacle3& o, const Vec3& middle, double spread, int seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-spread, spread), length(0.005, 0.15);
  int unique = 0;
  for (int t = 0; t < 400; ++t) {
    const Vec3 p = middle + Vec3(u(rng), u(rng), u(rng));
    const Vec3 e = random_direction(rng);
    const double d = length(rng);
    double distance = 0.0;
    const double s = closest_offset(o, p, e, d, distance);
    const Reference r = reference_offset(o, p, e, d);
    Vec3 normal;
    ASSERT_LE(std::abs(s), d);
    EXPECT_EQ(distance, sd(o, p, e, s, normal));
    EXPECT_LE(distance, r.sampled + 1e-15) << "trial " << t;
    EXPECT_NEAR(distance, r.distance, 1e-12) << "trial " << t;
    // unique: f rises on each side of the minimiser within the segment
    const auto rises = [&](double step) {
      const double next = r.offset + step;
      return std::abs(next) > d || sd(o, p, e, next, normal) > r.distance + 1e-12;
    };
    if (rises(-1e-3 * d) && rises(1e-3 * d)) {
      ++unique;
      EXPECT_NEAR(s, r.offset, 1e-12 * d) << "trial " << t;
    }
  }
  EXPECT_GT(unique, 300);  // the offsets were checked in most trials
}

TEST(ClosestOffset3d, CylinderOffsetsAreTheExactMinimisersForRandomSegments) {
  const Obstacle3 c = make_cylinder(Vec3(0.1, -0.2, 0.3), Vec3(1.0, 2.0, -0.5), 0.05, 0.08);
  expect_exact_offsets(c, c.centre, 0.15, 11);
  const Obstacle3 flat = make_cylinder(Vec3::Zero(), Vec3(0.3, -0.1, 1.0), 0.1, 0.01);  // a disc
  expect_exact_offsets(flat, flat.centre, 0.15, 12);
}

TEST(ClosestOffset3d, BoxOffsetsAreTheExactMinimisersForRandomSegments) {
  const Obstacle3 b = make_box(Vec3(-0.1, 0.2, 0.05), Vec3(0.08, 0.03, 0.05),
                               Quat(Eigen::AngleAxisd(0.7, Vec3(1, -2, 3).normalized())));
  expect_exact_offsets(b, b.centre, 0.12, 13);
}

TEST(ClosestOffset3d, TriangleOffsetsAreTheExactMinimisersForRandomSegments) {
  const Obstacle3 t =
      make_triangle(Vec3(0.0, 0.0, 0.0), Vec3(0.1, 0.02, 0.01), Vec3(0.03, 0.09, -0.02));
  expect_exact_offsets(t, t.centre, 0.1, 14);
}

/// A cylinder of radius 0.05 m and half height 0.08 m along a tilted axis; `local` positions and
/// directions are in its frame (axis e_z through its centre).
struct TiltedCylinder {
  Obstacle3 o = make_cylinder(Vec3(0.3, -0.1, 0.2), Vec3(0.4, 1.0, 0.7), 0.05, 0.08);
  Vec3 point(const Vec3& local) const { return o.centre + o.orientation * local; }
  Vec3 direction(const Vec3& local) const { return o.orientation * local.normalized(); }
};

TEST(ClosestOffset3d, CylinderConfigurationsGiveTheirClosedForms) {
  const TiltedCylinder c;
  struct Case {
    const char* name;
    Vec3 p, e;
    double d, offset, distance;
  };
  const double r2 = std::sqrt(2.0);
  const Case cases[] = {
      // beside the side: the point nearest the axis, 0.15 m from the side
      {"crossing the axis", Vec3(0.03, 0.2, 0.01), Vec3(1, 0, 0), 0.1, -0.03, 0.15},
      // through the axis inside: dr = |x| - R is least on the axis, where dh = -0.06 < dr
      {"inside across the axis", Vec3(0.02, 0.0, 0.0), Vec3(1, 0, 1), 0.05, -0.02 * r2, -0.05},
      // parallel to the axis above the rim: the lower end, hypot(0.02, 0.02) from the rim
      {"parallel beyond the rim", Vec3(0.07, 0.0, 0.2), Vec3(0, 0, 1), 0.1, -0.1, 0.02 * r2},
      // tilted over the cap: the lower end, above the cap
      {"over the cap", Vec3(0.0, 0.0, 0.1), Vec3(1, 0, 0.5), 0.03, -0.03,
       0.1 - 0.03 * 0.5 / std::sqrt(1.25) - 0.08},
      // at 45 degrees past the rim (0.05, 0, 0.08): nearest at s = 0, 0.02 sqrt(2) from it
      {"across the rim", Vec3(0.07, 0.0, 0.1), Vec3(1, 0, -1), 0.05, 0.0, 0.02 * r2},
      // from below, crossing the bottom cap's plane off the disc, nearest the lower rim
      {"under the cap to the rim", Vec3(0.08, 0.0, -0.11), Vec3(-1, 0, 1), 0.01, 0.01,
       std::hypot(0.03 - 0.01 / r2, 0.03 - 0.01 / r2)},
  };
  for (const Case& k : cases) {
    double distance = 0.0;
    const double s = closest_offset(c.o, c.point(k.p), c.direction(k.e), k.d, distance);
    EXPECT_NEAR(s, k.offset, 1e-12) << k.name;
    EXPECT_NEAR(distance, k.distance, 1e-12) << k.name;
  }
}

TEST(ClosestOffset3d, FlatMinimaGiveTheLeastDistanceAtAPointOfTheFlat) {
  const TiltedCylinder c;
  double distance = 0.0;
  // parallel to the axis beside the side: 0.02 m for every point with |z| <= H (s <= 0.05)
  double s = closest_offset(c.o, c.point(Vec3(0.07, 0.0, 0.03)), c.direction(Vec3(0, 0, 1)), 0.1,
                            distance);
  EXPECT_NEAR(distance, 0.02, 1e-12);
  EXPECT_LE(s, 0.05 + 1e-12);
  // parallel over the cap's disc: 0.02 m above it along x in [-0.01, 0.03]
  s = closest_offset(c.o, c.point(Vec3(0.01, 0.02, 0.1)), c.direction(Vec3(1, 0, 0)), 0.02,
                     distance);
  EXPECT_NEAR(distance, 0.02, 1e-12);
  EXPECT_LE(std::abs(s), 0.02);
  // a box's top face: parallel 0.03 m above it, over the face for x in [-0.1, 0.1]
  const Obstacle3 box = make_box(Vec3::Zero(), Vec3(0.1, 0.05, 0.02), Quat::Identity());
  s = closest_offset(box, Vec3(0.05, 0.0, 0.05), Vec3::UnitX(), 0.1, distance);
  EXPECT_NEAR(distance, 0.03, 1e-15);
  EXPECT_LE(s, 0.05 + 1e-15);
  // a triangle's face: parallel 0.01 m above it, both ends over the face
  const Obstacle3 tri = make_triangle(Vec3::Zero(), Vec3(0.1, 0, 0), Vec3(0, 0.1, 0));
  s = closest_offset(tri, Vec3(0.03, 0.03, 0.01), Vec3::UnitX(), 0.01, distance);
  EXPECT_NEAR(distance, 0.01, 1e-15);
}

}  // namespace
}  // namespace tendril::vine3d
