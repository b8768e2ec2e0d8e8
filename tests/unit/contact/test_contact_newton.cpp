// Contact and friction inside the integrator (backward Euler through a scene): a rod slides down
// an incline with ground friction (mu = 0.5, 35 deg) while a second rod lying across it slides
// along with self-contact friction. Friction's Jacobians are not symmetric, so the Newton system
// factorizes the whole matrix; with the exact dF/dq + dF/du/dt, Newton converges quadratically:
// the observed order log(r_{k+1}/r_k) / log(r_k/r_{k-1}) reaches 2 above the round-off floor (a
// wrong Jacobian stays near 1; the bound 1.5 separates the two). The same for a rod sliding on a
// fixed sheet (point-triangle and edge-edge friction between rod and shell), and for a rod edge
// stuck to the ridges of two moving boxes (edge friction against obstacles).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "support/newton_order.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril {
namespace {

/// Runs the scene to its end; the best observed Newton order over the steps, the number of steps
/// where one was measured, and the contact count of the last step; adds the Newton iterations to
/// `iterations` if given.
struct Convergence {
  double best = 0.0;
  int measured = 0, contacts = 0;
};
Convergence run_measuring_order(sim::Simulation& sim, int* iterations = nullptr) {
  Convergence c;
  while (!sim.finished()) {
    const StepReport report = sim.step();
    EXPECT_TRUE(report.ok()) << report.message;
    if (!report.ok()) break;
    if (iterations) *iterations += report.iterations;
    const auto& h = report.residual_history;
    const double order = testing::best_order(h, 1e-9 * h.front());
    if (order > 0.0) {
      ++c.measured;
      c.best = std::max(c.best, order);
    }
    c.contacts = sim.contact_statistics().active;
  }
  return c;
}

TEST(ContactNewton, GroundAndSelfFrictionConvergeQuadratically) {
  const double a = 35.0 * std::numbers::pi / 180.0, c = std::cos(a), s = std::sin(a), r = 0.001;
  const Vec3 n(-s, 0, c), up(c, 0, s);
  // rod A along the slope on the plane, rod B across it on top (centrelines 2 r - 0.05 mm apart)
  const Vec3 a0 = (r + 1e-6) * n, a1 = a0 + 0.04 * up;
  const Vec3 mid = a0 + 0.02 * up + (2 * r - 5e-5) * n;
  const Vec3 b0 = mid - Vec3(0, 0.015, 0), b1 = mid + Vec3(0, 0.015, 0);
  const std::string scene = fmt::format(R"(
duration: 0.03
rods:
  - geometry: {{type: straight, start: [{}, {}, {}], end: [{}, {}, {}], num_nodes: 5}}
    material: {{E: 1.0e7, nu: 0.3, density: 1000, radius: {}}}
  - geometry: {{type: straight, start: [{}, {}, {}], end: [{}, {}, {}], num_nodes: 4}}
    material: {{E: 1.0e7, nu: 0.3, density: 1000, radius: {}}}
forces: {{gravity: [0, 0, -9.81]}}
contact:
  stiffness: 200
  distance_tolerance: 1.0e-4
  slip_tolerance: 1.0e-3
  ground: {{normal: [{}, 0, {}], friction: 0.5}}
  self: {{friction: 0.3}}
integrator: {{type: implicit_euler, dt: 1.0e-3, newton: {{force_tolerance: 1.0e-14}}}}
)",
                                        a0.x(), a0.y(), a0.z(), a1.x(), a1.y(), a1.z(), r, b0.x(),
                                        b0.y(), b0.z(), b1.x(), b1.y(), b1.z(), r, n.x(), n.z());
  sim::Simulation sim(sim::load_rod_scene_text(scene));
  const Convergence run = run_measuring_order(sim);
  EXPECT_GT(run.measured, 5);
  EXPECT_GE(run.best, 1.5);
  EXPECT_EQ(run.contacts - 5, 1);  // rod A's 5 nodes are on the ground
}

TEST(ContactNewton, RodSlidingOnASheetConvergesQuadratically) {
  // a fixed sheet (h = 1 mm) in z = 0, a rod (r = 1 mm) across it, its gap 0.05 mm = delta / 2,
  // gravity tilted by 35 deg along x: the rod slides against mu = 0.3 < tan 35 deg
  const double a = 35.0 * std::numbers::pi / 180.0;
  std::string fixed;
  for (int i = 0; i < 25; ++i) fixed += fmt::format("{}{}", i ? ", " : "", i);
  const std::string scene = fmt::format(R"(
duration: 0.03
rods:
  - geometry: {{type: straight, start: [0.052, 0.021, 0.00155], end: [0.048, 0.079, 0.00155], num_nodes: 5}}
    material: {{E: 1.0e7, nu: 0.3, density: 1000, radius: 0.001}}
shells:
  - geometry: {{type: rectangle, length: 0.1, width: 0.1, nodes_x: 5, nodes_y: 5, pattern: right}}
    material: {{E: 1.0e7, nu: 0.3, density: 1000, thickness: 0.001}}
    bending: hinge
    fixed_nodes: [{}]
forces: {{gravity: [{}, 0, {}]}}
contact:
  stiffness: 200
  distance_tolerance: 1.0e-4
  slip_tolerance: 1.0e-3
  self: {{friction: 0.3}}
integrator: {{type: implicit_euler, dt: 1.0e-3, newton: {{force_tolerance: 1.0e-14}}}}
)",
                                        fixed, 9.81 * std::sin(a), -9.81 * std::cos(a));
  sim::Simulation sim(sim::load_rod_scene_text(scene));
  const Convergence run = run_measuring_order(sim);
  EXPECT_GT(run.measured, 5);
  EXPECT_GE(run.best, 1.5);
  EXPECT_GE(run.contacts, 5);  // at least the rod's 5 nodes on triangles
  // it slid along +x
  EXPECT_GT(sim.state().q[0], 0.052 + 1e-5);
}

TEST(ContactNewton, RodEdgeCarriedByMovingBoxRidgesConvergesQuadratically) {
  // boxes (half sides 0.3, 3 mm, 3 mm) along x turned by 45 deg about x, their top ridges at
  // y = -+1 cm, z = 3 sqrt(2) mm, both moving along x at V = 1 cm/s; a rod (r = 1 mm, one 4 cm edge
  // along y) rests across both with its nodes 7 mm off them, gravity tilted by 10 deg along x:
  // tan(10 deg) = 0.18 < mu = 0.5, so only the edge touches and it sticks to the ridges (friction's
  // stiff stick zone dominates the Newton matrix). With the exact Jacobian Newton converges
  // quadratically (a few iterations per step; without the edges' friction Jacobian it took 7939
  // iterations for the 30 steps) and the rod is carried along at V
  const double a = 10.0 * std::numbers::pi / 180.0, z = 0.003 * std::sqrt(2.0) + 0.001;
  std::string boxes;
  for (double y : {-0.01, 0.01})
    boxes += fmt::format(
        "    - {{shape: box, center: [0, {}, 0], half_extents: [0.3, 0.003, 0.003], rotation: [{}, "
        "0, "
        "0], friction: 0.5, path: [[0, 0, 0, 0], [1, 0.01, 0, 0]]}}\n",
        y, std::numbers::pi / 4);
  const std::string scene =
      fmt::format(R"(
duration: 0.03
rods:
  - geometry: {{type: straight, start: [0, -0.02, {z}], end: [0, 0.02, {z}], num_nodes: 2}}
    material: {{E: 1.0e7, nu: 0.3, density: 1000, radius: 0.001}}
forces: {{gravity: [{gx}, 0, {gz}]}}
contact:
  stiffness: 100
  distance_tolerance: 1.0e-4
  slip_tolerance: 1.0e-3
  obstacles:
{boxes}integrator: {{type: implicit_euler, dt: 1.0e-3, newton: {{force_tolerance: 1.0e-14}}}}
)",
                  fmt::arg("z", z), fmt::arg("gx", 9.81 * std::sin(a)),
                  fmt::arg("gz", -9.81 * std::cos(a)), fmt::arg("boxes", boxes));
  sim::Simulation sim(sim::load_rod_scene_text(scene));
  int iterations = 0;
  const Convergence run = run_measuring_order(sim, &iterations);
  EXPECT_GT(run.measured, 5);
  EXPECT_GE(run.best, 1.5);
  // quadratic convergence doubles the digits per iteration: from the inertial guess to the
  // 1e-14 tolerance takes about 4 iterations, 6 with a line-search step
  EXPECT_LE(iterations, 6 * 30);
  EXPECT_EQ(run.contacts, 2);  // the edge on the two ridges, no node
  // carried at 1 cm/s for 0.03 s, less the lag of catching up from rest (about 1e-5 m)
  EXPECT_NEAR(sim.state().q[0], 3e-4, 3e-5);
}

}  // namespace
}  // namespace tendril
