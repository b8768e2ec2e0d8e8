// No tunnelling through rigid obstacles (docs/physics/contact.md, "No tunnelling"): at speeds over
// four decades (1e-3 to 10 m/s) at dt = 1e-2 s, a thin rod (r = 0.25 mm) falls flat onto a plane,
// a sphere, a capsule and a box (2 mm across) lying between two of its nodes, where free flight
// carries it up to 50 times the obstacle's size in one step, and a capsule (R = 2 mm) sweeps across
// a rod lying on the ground, up to 25 times its diameter per step. The exact distances, computed
// here from the shapes, are checked at the end of every step: no centre line ever passes through
// the obstacle, and the run's minimum gap (contact_min_gap) is the exact one.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "exact_distances.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril {
namespace {

constexpr double kSize = 0.001;  // the box's half side, the sphere's and capsule's radius [m]

/// An obstacle at the origin, its top at z = top [m]: its signed distance (negative inside) at a
/// point, computed here from the shape.
struct Shape {
  std::string scene;  ///< its contact.obstacles entry
  double top;
  std::function<double(const Vec3&)> distance;
};

std::vector<Shape> shapes() {
  const auto box = [](const Vec3& x) {
    const Vec3 q = x.cwiseAbs() - Vec3::Constant(kSize);
    return q.maxCoeff() > 0.0 ? q.cwiseMax(0.0).norm() : q.maxCoeff();
  };
  const Vec3 c0(0, -0.01, 0), c1(0, 0.01, 0);  // the capsule's axis, across the rod
  return {
      {"{shape: plane, point: [0, 0, 0], normal: [0, 0, 1]}", 0.0,
       [](const Vec3& x) { return x.z(); }},
      {fmt::format("{{shape: sphere, center: [0, 0, 0], radius: {}}}", kSize), kSize,
       [](const Vec3& x) { return x.norm() - kSize; }},
      {fmt::format("{{shape: capsule, p0: [0, -0.01, 0], p1: [0, 0.01, 0], radius: {}}}", kSize),
       kSize, [=](const Vec3& x) { return testing::point_segment_distance(x, c0, c1) - kSize; }},
      {fmt::format("{{shape: box, center: [0, 0, 0], half_extents: [{0}, {0}, {0}]}}", kSize),
       kSize, box}};
}

/// Height of the rod's middle edge (nodes 1, 2) where it crosses the plane x = 0 (the obstacle's
/// middle; NaN if it does not: it slid off). A fast rod folds around a small obstacle, so its other
/// edges may cross that plane anywhere.
double height_at_middle(const VecX& q) {
  return testing::crossing_coordinate(q, 1, 2, 0, 0.0, 2);
}

/// A thin rod (r = 0.25 mm, 4 nodes 2 cm apart) falls flat at `speed` [m/s] onto the obstacle,
/// which lies under the middle of its middle edge, at dt = 1e-2 s; checked at the end of every
/// step against the exact distances.
void drop_onto(const Shape& shape, double speed) {
  SCOPED_TRACE(fmt::format("{} at {:g} m/s", shape.scene, speed));
  const double r = 2.5e-4, delta = 1e-4, dt = 1e-2;
  // starting 20 steps of free flight above touching, at most 5 mm
  const double gap0 = std::min(5e-3, 20.0 * speed * dt), z0 = shape.top + r + gap0;
  const std::string scene =
      fmt::format(R"(
duration: 10
rods:
  - geometry: {{type: straight, start: [-0.03, 0, {z0}], end: [0.03, 0, {z0}], num_nodes: 4}}
    material: {{E: 1.0e7, nu: 0.3, density: 1000, radius: {r}}}
initial_conditions:
  velocities: [{{rod: 0, velocity: [0, 0, {v}]}}]
contact:
  stiffness: 1.0e5
  distance_tolerance: {delta}
  obstacles: [{obstacle}]
integrator: {{type: implicit_euler, dt: {dt}}}
)",
                  fmt::arg("z0", z0), fmt::arg("r", r), fmt::arg("v", -speed),
                  fmt::arg("delta", delta), fmt::arg("obstacle", shape.scene), fmt::arg("dt", dt));
  sim::Simulation sim(sim::load_rod_scene_text(scene));
  // until free flight would have carried the rod 2 cm below the obstacle's top, at most 300 steps
  const int steps = std::min(300, static_cast<int>(std::ceil((gap0 + 0.02) / (speed * dt))));
  for (int step = 0; step < steps; ++step) {
    const StepReport report = sim.step();
    ASSERT_TRUE(report.ok()) << "step " << step << ": " << report.message;
    const VecX& q = sim.state().q;
    double gap = 1e300;
    for (int i = 0; i < 4; ++i) gap = std::min(gap, shape.distance(q.segment<3>(3 * i)) - r);
    for (int i = 0; i < 3; ++i) {
      const Vec3 a = q.segment<3>(3 * i), b = q.segment<3>(3 * i + 3);
      const double distance =
          testing::convex_minimum([&](double s) { return shape.distance(a + s * (b - a)); });
      // a centre line may sink at most delta into the obstacle (the collision check's margin),
      // never through
      ASSERT_GT(distance, -delta) << "edge " << i << " inside the obstacle at step " << step;
      gap = std::min(gap, distance - r);
    }
    ASSERT_GT(height_at_middle(q), 0.0) << "the rod passed the obstacle at step " << step;
    EXPECT_NEAR(sim.contact_statistics().min_gap, gap, 1e-9) << "step " << step;
  }
  // it came to rest on the obstacle (the slowest speeds arrive last), its middle above the top
  EXPECT_GT(height_at_middle(sim.state().q), shape.top);
}

TEST(ObstacleTunnelling, ThinRodFallingOntoAnyObstacleAtAnySpeedStaysOutside) {
  // four decades of speed at dt = 1e-2 s: free flight carries the rod 10 um to 10 cm per step, up
  // to 50 times the obstacle's size
  for (const Shape& shape : shapes())
    for (double speed : {1e-3, 1e-2, 0.1, 1.0, 10.0}) drop_onto(shape, speed);
}

/// A vertical capsule (R = 2 mm) sweeps along +y at `speed` [m/s] across a rod (r = 0.5 mm, 1 cm
/// edges) lying on the ground along x, between two of its nodes (x = 5 mm), reaches it and pushes
/// it 2 cm on; dt = 1e-2 s. Checked at the end of every step against the exact distances.
void sweep_capsule(double speed) {
  SCOPED_TRACE(fmt::format("capsule at {:g} m/s", speed));
  const double r = 5e-4, radius = 0.002, delta = 1e-4, dt = 1e-2;
  // starting 20 steps of its motion behind the rod, at most 7.5 mm
  const double gap0 = std::min(7.5e-3, 20.0 * speed * dt), y0 = -(r + radius + gap0);
  const std::string scene =
      fmt::format(R"(
duration: 10
rods:
  - geometry: {{type: straight, start: [-0.03, 0, {r}], end: [0.03, 0, {r}], num_nodes: 7}}
    material: {{E: 1.0e7, nu: 0.3, density: 1000, radius: {r}}}
forces: {{gravity: [0, 0, -9.8]}}
contact:
  stiffness: 1.0e4
  distance_tolerance: {delta}
  ground: {{friction: 0.3}}
  obstacles:
    - {{shape: capsule, p0: [0.005, {y0}, 0], p1: [0.005, {y0}, 0.01], radius: {R},
       path: [[0, 0, 0, 0], [10, 0, {travel}, 0]]}}
integrator: {{type: implicit_euler, dt: {dt}}}
)",
                  fmt::arg("r", r), fmt::arg("R", radius), fmt::arg("y0", y0),
                  fmt::arg("travel", 10.0 * speed), fmt::arg("delta", delta), fmt::arg("dt", dt));
  sim::Simulation sim(sim::load_rod_scene_text(scene));
  const int steps = std::min(300, static_cast<int>(std::ceil((gap0 + 0.02) / (speed * dt))));
  for (int step = 0; step < steps; ++step) {
    const StepReport report = sim.step();
    ASSERT_TRUE(report.ok()) << "step " << step << ": " << report.message;
    const VecX& q = sim.state().q;
    const double y = y0 + speed * sim.state().time;  // the capsule's axis
    const Vec3 c0(0.005, y, 0.0), c1(0.005, y, 0.01);
    double gap = 1e300;
    for (int i = 0; i < 7; ++i) {
      gap = std::min(gap, q[3 * i + 2] - r);  // ground
      if (i + 1 < 7) {
        const Vec3 a = q.segment<3>(3 * i), b = q.segment<3>(3 * i + 3);
        const double distance = testing::segment_segment_distance(a, b, c0, c1) - radius;
        ASSERT_GT(distance, -delta) << "edge " << i << " inside the capsule at step " << step;
        gap = std::min(gap, distance - r);
      }
    }
    // where the edge it hits (nodes 3, 4) crosses the capsule's plane x = 5 mm it stays ahead of
    // its axis (+y): pushed, not passed (if the edge slid off the capsule, it no longer crosses)
    ASSERT_FALSE(testing::crossing_coordinate(q, 3, 2, 0, 0.005, 1) < y) << "step " << step;
    EXPECT_NEAR(sim.contact_statistics().min_gap, gap, 1e-9) << "step " << step;
  }
  // it was pushed: carried along by the capsule, which went 2 cm past where it met it (less if
  // 300 steps ended first)
  const double pushed = std::min(0.02, steps * speed * dt - gap0);
  EXPECT_GT(sim.state().q.segment<3>(9).y(), 0.5 * pushed);
}

TEST(ObstacleTunnelling, MovingCapsuleSweepingAcrossARodOnTheGroundAtAnySpeedPushesIt) {
  // four decades at dt = 1e-2 s: 10 um to 10 cm per step, up to 25 times its diameter
  for (double speed : {1e-3, 1e-2, 0.1, 1.0, 10.0}) sweep_capsule(speed);
}

}  // namespace
}  // namespace tendril
