// Signed distance and outward normal of every obstacle kind: hand-computed values, the normal
// against central differences of the distance, and bad polygons.
#include <random>

#include <gtest/gtest.h>

#include "tendril/core/error.hpp"
#include "tendril/vine/obstacles.hpp"

namespace tendril::vine {
namespace {

double phi(const Obstacle& o, const Vec2& p) {
  Vec2 n;
  return signed_distance<double>(o, p, n);
}

TEST(Obstacles, HandComputedValues) {
  const Obstacle circle = make_circle(Vec2(1.0, 2.0), 0.5);
  EXPECT_NEAR(phi(circle, Vec2(1.0, 3.0)), 0.5, 1e-15);
  EXPECT_NEAR(phi(circle, Vec2(1.2, 2.0)), -0.3, 1e-15);
  const Obstacle wall = make_half_plane(Vec2(0.0, 1.0), Vec2(0.0, -2.0));  // free side below y = 1
  EXPECT_NEAR(phi(wall, Vec2(5.0, 0.25)), 0.75, 1e-15);
  EXPECT_NEAR(phi(wall, Vec2(5.0, 1.5)), -0.5, 1e-15);
  // box 2 x 1 rotated by 90 deg: occupies |x| <= 0.5, |y| <= 1
  const Obstacle box = make_box(Vec2::Zero(), Vec2(2.0, 1.0), M_PI / 2, 0.0);
  EXPECT_NEAR(phi(box, Vec2(0.0, 1.5)), 0.5, 1e-12);
  EXPECT_NEAR(phi(box, Vec2(0.8, 0.0)), 0.3, 1e-12);
  EXPECT_NEAR(phi(box, Vec2(0.1, 0.2)), -0.4, 1e-12);
  EXPECT_NEAR(phi(box, Vec2(1.5, 2.0)), std::hypot(1.0, 1.0), 1e-12);
  // rounded box keeps its outer size: flat faces unchanged, corner distance from the rounded arc
  const Obstacle rounded = make_box(Vec2::Zero(), Vec2(2.0, 2.0), 0.0, 0.25);
  EXPECT_NEAR(phi(rounded, Vec2(1.5, 0.0)), 0.5, 1e-12);
  EXPECT_NEAR(phi(rounded, Vec2(2.0, 2.0)), std::hypot(1.25, 1.25) - 0.25, 1e-12);
  const Obstacle capsule = make_segment(Vec2(0.0, 0.0), Vec2(2.0, 0.0), 0.1);
  EXPECT_NEAR(phi(capsule, Vec2(1.0, 0.5)), 0.4, 1e-15);
  EXPECT_NEAR(phi(capsule, Vec2(3.0, 0.0)), 0.9, 1e-15);
}

TEST(Obstacles, NormalIsDistanceGradient) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> uni(-2.0, 2.0);
  const std::vector<Obstacle> obstacles = {
      make_circle(Vec2(0.3, -0.2), 0.7),
      make_half_plane(Vec2(0.1, 0.2), Vec2(1.0, 1.0)),
      make_segment(Vec2(-1.0, 0.5), Vec2(1.0, -0.5), 0.2),
      make_box(Vec2(0.1, 0.1), Vec2(1.5, 0.8), 0.4, 0.1),
      make_polygon({Vec2(0, 0), Vec2(1, -0.2), Vec2(1.3, 0.8), Vec2(0.2, 1.1)}, 0.05, "poly"),
  };
  const double h = 1e-6;
  for (const Obstacle& o : obstacles)
    for (int trial = 0; trial < 200; ++trial) {
      const Vec2 p(uni(rng), uni(rng));
      Vec2 n;
      signed_distance<double>(o, p, n);
      const Vec2 fd((phi(o, p + h * Vec2::UnitX()) - phi(o, p - h * Vec2::UnitX())) / (2 * h),
                    (phi(o, p + h * Vec2::UnitY()) - phi(o, p - h * Vec2::UnitY())) / (2 * h));
      EXPECT_NEAR(n.norm(), 1.0, 1e-12);
      // the distance is only C^0 on the medial axis inside a polygon: skip points where the FD
      // straddles it
      if (std::abs(fd.norm() - 1.0) > 1e-6) continue;
      EXPECT_LT((fd - n).norm(), 1e-6) << "at " << p.transpose();
    }
}

TEST(Obstacles, RejectsNonConvexPolygon) {
  EXPECT_THROW(make_polygon({Vec2(0, 0), Vec2(2, 0), Vec2(1, 0.2), Vec2(1, 2)}, 0.0,
                            "obstacles[0].vertices"),
               InputError);
  EXPECT_THROW(make_polygon({Vec2(0, 0), Vec2(2, 0)}, 0.0, "obstacles[0].vertices"), InputError);
  // clockwise input is accepted and reoriented
  const Obstacle o = make_polygon({Vec2(0, 0), Vec2(0, 1), Vec2(1, 1), Vec2(1, 0)}, 0.0, "p");
  EXPECT_NEAR(phi(o, Vec2(0.5, 0.5)), -0.5, 1e-15);
}

}  // namespace
}  // namespace tendril::vine
