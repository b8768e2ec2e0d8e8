// The tracked centre-line's order (fit/centerline_order.hpp) and the shape error
// (fit/shape_error.hpp), against exact references built in the tests:
// - points along an L-shaped path one unit apart, shuffled, with a spur of 3 points off the corner
//   and a second piece not connected to it, the first 5 units next to the base missing: the
//   longest path from the base is the L in order (the base put first), the spur and the piece
//   left out (counted);
// - a spur longer than the rest of the robot beyond its branch point is the longest path (the
//   rule is the longest path, not a guess at which branch is the robot);
// - more points than kMaxPointsPerLink in one link-sized square (a cloud) is refused naming the
//   key, as many is not;
// - points given in order: kept in order, repeated points left out, the base put first only when
//   farther than the link distance;
// - distances: a point to a polyline (an interior foot, an end, a vertex), the symmetric mean
//   nearest-point distance of two parallel segments (their offset exactly) and of a segment
//   against a longer one, and the per-frame tip error.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "support/input_error.hpp"
#include "tendril/fit/centerline_order.hpp"
#include "tendril/fit/shape_error.hpp"

namespace tendril::fit {
namespace {

using testing::expect_input_error;

/// Points (0, 5) .. (0, 20), then (1, 20) .. (10, 20): an L from the base (0, 0) whose first 5
/// units are missing.
std::vector<Vec2> l_shape() {
  std::vector<Vec2> p;
  for (int y = 5; y <= 20; ++y) p.emplace_back(0.0, y);
  for (int x = 1; x <= 10; ++x) p.emplace_back(x, 20.0);
  return p;
}

TEST(CenterlineOrder, LongestPathFromTheBaseDropsSpursAndAddsTheMissingBase) {
  const std::vector<Vec2> l = l_shape();
  std::vector<Vec2> points = l;
  for (int k = 1; k <= 3; ++k) points.emplace_back(-k * 0.7071, 20.0 + k * 0.7071);  // spur
  for (int k = 0; k < 4; ++k) points.emplace_back(30.0 + k, 0.0);  // a piece not connected
  std::mt19937 rng(1);
  std::shuffle(points.begin(), points.end(), rng);
  const OrderedCenterline c = order_by_longest_path(points, Vec2::Zero(), 1.2, "points");
  EXPECT_TRUE(c.base_added);
  EXPECT_EQ(c.dropped, 7);
  ASSERT_EQ(c.points.size(), l.size() + 1);
  EXPECT_EQ(c.points[0], Vec2::Zero());
  for (std::size_t k = 0; k < l.size(); ++k) EXPECT_EQ(c.points[k + 1], l[k]) << k;
}

TEST(CenterlineOrder, ASpurLongerThanTheRestIsTheLongestPath) {
  std::vector<Vec2> points = l_shape();
  for (int k = 1; k <= 12; ++k) points.emplace_back(-k, 20.0);  // 12 units left of the corner
  const OrderedCenterline c = order_by_longest_path(points, Vec2(0.0, 5.0), 1.2, "points");
  EXPECT_FALSE(c.base_added);
  EXPECT_EQ(c.points.back(), Vec2(-12.0, 20.0));
  EXPECT_EQ(c.dropped, 10);
}

TEST(CenterlineOrder, ACloudOfPointsIsRefusedBeforeItsGraphIsBuilt) {
  // 65 repeats of one point: a cloud, whose graph would have 65 x 64 edges
  const std::vector<Vec2> cloud(kMaxPointsPerLink + 1, Vec2(0.25, 0.25));
  expect_input_error([&] { order_by_longest_path(cloud, Vec2::Zero(), 1.0, "frame 3"); },
                     {"frame 3", "more than 64 points", "not a cloud"});
  const std::vector<Vec2> dense(kMaxPointsPerLink, Vec2(0.25, 0.25));
  EXPECT_EQ(order_by_longest_path(dense, Vec2::Zero(), 1.0, "frame 3").points.size(), 1u);
}

TEST(CenterlineOrder, GivenOrderIsKeptWithRepeatsLeftOut) {
  const std::vector<Vec2> points = {{0.5, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {2.0, 0.0}};
  const OrderedCenterline near = order_as_given(points, Vec2::Zero(), 1.0);
  EXPECT_FALSE(near.base_added);
  EXPECT_EQ(near.dropped, 1);
  EXPECT_EQ(near.points, (std::vector<Vec2>{{0.5, 0.0}, {1.0, 0.0}, {2.0, 0.0}}));
  const OrderedCenterline far = order_as_given(points, Vec2(-1.0, 0.0), 1.0);
  EXPECT_TRUE(far.base_added);
  EXPECT_EQ(far.points.front(), Vec2(-1.0, 0.0));
}

MatX rows(std::initializer_list<Vec2> points) {
  MatX m(static_cast<Eigen::Index>(points.size()), 2);
  Eigen::Index k = 0;
  for (const Vec2& p : points) m.row(k++) = p.transpose();
  return m;
}

TEST(ShapeError, DistancesToPolylinesAreTheExactOnes) {
  const MatX line = rows({{0.0, 0.0}, {2.0, 0.0}, {2.0, 2.0}});
  EXPECT_DOUBLE_EQ(distance_to_polyline(Vec2(1.0, 0.5), line), 0.5);   // foot inside segment 0
  EXPECT_DOUBLE_EQ(distance_to_polyline(Vec2(-3.0, 4.0), line), 5.0);  // the first end
  EXPECT_DOUBLE_EQ(distance_to_polyline(Vec2(3.0, -1.0), line), std::sqrt(2.0));  // the corner
  EXPECT_DOUBLE_EQ(distance_to_polyline(Vec2(1.5, 1.0), line), 0.5);  // nearer segment 1
  // parallel segments 0.3 apart: 0.3 both ways
  EXPECT_NEAR(symmetric_mean_distance(rows({{0, 0}, {0.5, 0}, {1, 0}}), rows({{0, 0.3}, {1, 0.3}})),
              0.3, 1e-15);
  // [0, 1] against [0, 2] on one line: 0 one way; (0 + 0 + 0.5 + 1) / 4 from 0, 0.5 .. 2 the other
  const MatX shorter = rows({{0, 0}, {1, 0}}), longer = rows({{0, 0}, {0.5, 0}, {1, 0}, {2, 0}});
  EXPECT_NEAR(symmetric_mean_distance(shorter, longer), 0.5 * (0.0 + 1.0 / 4.0), 1e-15);
  const std::vector<FrameShapeError> e =
      shape_errors({{4, longer}}, {rows({{0, 0}, {0.5, 0}, {1, 0}, {2, 0.25}})});
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].step, 4);
  EXPECT_DOUBLE_EQ(e[0].tip_error, 0.25);
}

}  // namespace
}  // namespace tendril::fit
