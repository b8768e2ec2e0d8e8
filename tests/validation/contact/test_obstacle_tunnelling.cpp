// No tunnelling through rigid obstacles (docs/physics/contact.md, "No tunnelling"): a thin rod
// (r = 0.25 mm) falls flat onto a 2 mm box between two of its nodes at speeds over four decades
// (0.01 to 10 m/s) at dt = 1e-2 s, where free flight carries it up to 50 times the box's size in
// one step; a capsule sweeps at 2 m/s (2 cm per step, ten times its diameter) across a rod lying on
// the ground. The exact distances, computed here from the shapes, are checked at the end of every
// step: no centre line ever passes through the obstacle, and the run's minimum gap
// (contact_min_gap) is the exact one.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "tendril/contact/distance/edge_edge_distance.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril {
namespace {

constexpr double kHalf = 0.001;  // the box's half side [m]

/// Signed distance of x from the box [-h, h]^3 (negative inside).
double box_distance(const Vec3& x) {
  const Vec3 q = x.cwiseAbs() - Vec3::Constant(kHalf);
  return q.maxCoeff() > 0.0 ? q.cwiseMax(0.0).norm() : q.maxCoeff();
}

/// min over the segment [a, b] of the box's signed distance (convex along the segment): ternary
/// search.
double segment_box_distance(const Vec3& a, const Vec3& b) {
  const auto f = [&](double s) { return box_distance(a + s * (b - a)); };
  double lo = 0.0, hi = 1.0;
  for (int k = 0; k < 200; ++k) {
    const double m1 = lo + (hi - lo) / 3.0, m2 = hi - (hi - lo) / 3.0;
    (f(m1) <= f(m2) ? hi : lo) = f(m1) <= f(m2) ? m2 : m1;
  }
  return std::min({f(0.5 * (lo + hi)), f(0.0), f(1.0)});
}

/// Height of a rod's centre line where it crosses the plane x = 0 (the box's middle).
double height_at_middle(const VecX& q, int nodes) {
  for (int i = 0; i + 1 < nodes; ++i) {
    const Vec3 a = q.segment<3>(3 * i), b = q.segment<3>(3 * i + 3);
    if ((a.x() <= 0.0) != (b.x() <= 0.0))
      return a.z() + (b.z() - a.z()) * (-a.x()) / (b.x() - a.x());
  }
  return std::nan("");
}

void drop_onto_box(double speed) {
  SCOPED_TRACE(fmt::format("speed {:g} m/s", speed));
  const double r = 2.5e-4, delta = 1e-4, z0 = 0.005, dt = 1e-2;
  // 4 nodes 2 cm apart: the box lies under the middle edge, between two nodes
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
  obstacles: [{{shape: box, center: [0, 0, 0], half_extents: [{h}, {h}, {h}]}}]
integrator: {{type: implicit_euler, dt: {dt}}}
)",
                  fmt::arg("z0", z0), fmt::arg("r", r), fmt::arg("v", -speed),
                  fmt::arg("delta", delta), fmt::arg("h", kHalf), fmt::arg("dt", dt));
  sim::Simulation sim(sim::load_rod_scene_text(scene));
  // until free flight would have carried the rod 2 cm below the box
  const int steps = std::min(300, static_cast<int>(std::ceil((z0 + 0.02) / (speed * dt))));
  for (int step = 0; step < steps; ++step) {
    const StepReport report = sim.step();
    ASSERT_TRUE(report.ok()) << "step " << step << ": " << report.message;
    const VecX& q = sim.state().q;
    double gap = 1e300;
    for (int i = 0; i < 4; ++i) gap = std::min(gap, box_distance(q.segment<3>(3 * i)) - r);
    for (int i = 0; i < 3; ++i) {
      const double distance = segment_box_distance(q.segment<3>(3 * i), q.segment<3>(3 * i + 3));
      // a centre line may sink at most delta into the box (the collision check's margin), never
      // through
      ASSERT_GT(distance, -delta) << "edge " << i << " inside the box at step " << step;
      gap = std::min(gap, distance - r);
    }
    ASSERT_GT(height_at_middle(q, 4), 0.0) << "the rod passed the box at step " << step;
    EXPECT_NEAR(sim.contact_statistics().min_gap, gap, 1e-9) << "step " << step;
  }
  // it came to rest on the box (the slowest speeds arrive last), its middle above the box's top
  EXPECT_GT(height_at_middle(sim.state().q, 4), kHalf);
}

TEST(ObstacleTunnelling, ThinRodFallingOntoASmallBoxAtAnySpeedStaysOutside) {
  for (double speed : {0.01, 0.1, 1.0, 10.0}) drop_onto_box(speed);
}

TEST(ObstacleTunnelling, FastCapsuleSweepingAcrossARodOnTheGroundPushesIt) {
  // rod on the ground along x (r = 0.5 mm, 1 cm edges); a vertical capsule (R = 2 mm) at x = 5 mm
  // (between two nodes) sweeps along +y at 2 m/s from 1 cm behind it, reaches it in the first step
  // and pushes it for two more
  const double r = 5e-4, radius = 0.002, delta = 1e-4, dt = 1e-2;
  const std::string scene = fmt::format(R"(
duration: 0.03
rods:
  - geometry: {{type: straight, start: [-0.03, 0, {r}], end: [0.03, 0, {r}], num_nodes: 7}}
    material: {{E: 1.0e7, nu: 0.3, density: 1000, radius: {r}}}
forces: {{gravity: [0, 0, -9.8]}}
contact:
  stiffness: 1.0e4
  distance_tolerance: {delta}
  ground: {{friction: 0.3}}
  obstacles:
    - {{shape: capsule, p0: [0.005, -0.01, 0], p1: [0.005, -0.01, 0.01], radius: {R},
       path: [[0, 0, 0, 0], [1, 0, 2, 0]]}}
integrator: {{type: implicit_euler, dt: {dt}}}
)",
                                        fmt::arg("r", r), fmt::arg("R", radius),
                                        fmt::arg("delta", delta), fmt::arg("dt", dt));
  sim::Simulation sim(sim::load_rod_scene_text(scene));
  while (!sim.finished()) {
    const StepReport report = sim.step();
    ASSERT_TRUE(report.ok()) << "t = " << sim.state().time << ": " << report.message;
    const VecX& q = sim.state().q;
    const double t = sim.state().time;
    const Vec3 c0(0.005, -0.01 + 2.0 * t, 0.0), c1(0.005, -0.01 + 2.0 * t, 0.01);
    double gap = 1e300;
    for (int i = 0; i < 7; ++i) {
      gap = std::min(gap, q[3 * i + 2] - r);  // ground
      if (i + 1 < 7) {
        const double distance =
            contact::segment_closest_points(q.segment<3>(3 * i), q.segment<3>(3 * i + 3), c0, c1)
                .distance -
            radius;
        ASSERT_GT(distance, -delta) << "edge " << i << " inside the capsule at t = " << t;
        gap = std::min(gap, distance - r);
      }
    }
    // the edge the capsule hits (nodes 3, 4) stays ahead of its axis (+y): it was pushed, not
    // passed
    ASSERT_GT(contact::segment_closest_points(q.segment<3>(9), q.segment<3>(12), c0, c1).w.y(), 0.0)
        << "t = " << t;
    EXPECT_NEAR(sim.contact_statistics().min_gap, gap, 1e-9) << "t = " << t;
  }
  EXPECT_GT(sim.state().q[3 * 3 + 1],
            0.04);  // carried along 4 cm in the last two steps (later it slides off)
}

}  // namespace
}  // namespace tendril
