// A cantilever under a compressive follower tip load P (it stays tangent to the rod's end: Beck's
// column) three times Euler's dead-load buckling load P_E = pi^2 EI / (4 L^2), plus a small lateral
// tip load Q. A follower load has no static buckling (Ziegler, Principles of Structural Stability,
// 1968, ch. 4: Beck's column loses stability by flutter, at P = 20.05 EI / L^2): the static
// deflection stays linear in Q. Linear beam-column theory, EI w'''' + P w'' = 0 with w(0) = w'(0) =
// 0, w''(L) = 0 and, the follower's lateral part cancelling P w'(L) at the tip, EI w'''(L) = -Q,
// gives the tip deflection solved below; the discrete rod converges to it at second order. The same
// P as a dead load buckles the rod (tip deflection of the order of L).
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>
#include <Eigen/Dense>

#include "rod/cantilever.hpp"
#include "tendril/forces/follower_load.hpp"
#include "tendril/integrate/static_solver.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kYoungs = 1e7, kRadius = 5e-3, kLength = 1.0;
const double kEi = kYoungs * kPi * std::pow(kRadius, 4) / 4.0;
const double kLoad = 3.0 * kPi * kPi * kEi / (4.0 * kLength * kLength);  // P = 3 P_E
const double kLateral = 1e-3 * kEi / (kLength * kLength);                // Q: deflection ~ 1e-4 L

/// Tip deflection of linear beam-column theory under the follower load (see the file comment):
/// w = A + B x + C cos kx + D sin kx, k^2 = P / EI.
double linear_tip_deflection() {
  const double k = std::sqrt(kLoad / kEi), c = std::cos(k * kLength), s = std::sin(k * kLength);
  Eigen::Matrix4d m;
  m << 1, 0, 1, 0,                          // w(0) = 0
      0, 1, 0, k,                           // w'(0) = 0
      0, 0, -k * k * c, -k * k * s,         // w''(L) = 0
      0, 0, k * k * k * s, -k * k * k * c;  // w'''(L) = -Q / EI
  const Eigen::Vector4d abcd = m.lu().solve(Eigen::Vector4d(0, 0, 0, -kLateral / kEi));
  return abcd[0] + abcd[1] * kLength + abcd[2] * c + abcd[3] * s;
}

/// Static tip position of the clamped rod with `edges` edges: P along -t at the tip (a follower, or
/// a dead load along -x) and Q along +z.
Vec3 static_tip(int edges, bool follower) {
  testing::ClampedRod rod = testing::make_clamped_rod(
      edges, kLength, testing::circular_material(kYoungs, 0.5, 1000, kRadius));
  if (follower)
    rod.model.forces.push_back(
        std::make_shared<FollowerLoad>(edges - 1, [](double) { return -kLoad; }));
  else
    testing::add_tip_force(rod, Vec3(-kLoad, 0.0, 0.0));
  testing::add_tip_force(rod, Vec3(0.0, 0.0, kLateral));
  StaticSolver solver(rod.model, StaticOptions{}, rod.state.q);
  const StaticReport report = solver.solve(rod.state);
  EXPECT_TRUE(report.ok()) << report.message;
  return testing::node_position(rod, rod.tip_node);
}

TEST(FollowerLoad, BecksColumnHasNoStaticBucklingAndMatchesLinearTheory) {
  const double expected = linear_tip_deflection();
  std::printf("linear theory: tip deflection %.6e m (%.3f Q L^3 / EI; 1/3 without P)\n", expected,
              expected * kEi / (kLateral * std::pow(kLength, 3)));
  double error[2];
  const int edges[2] = {20, 40};
  for (int i = 0; i < 2; ++i) {
    const double w = static_tip(edges[i], true).z();
    error[i] = std::abs(w - expected) / expected;
    std::printf("%d edges: follower tip deflection %.6e m, relative error %.2e\n", edges[i], w,
                error[i]);
  }
  EXPECT_LT(error[1], 0.01);
  EXPECT_GT(error[0] / error[1], 3.0);  // second order: 4 expected
  // the scene key forces.follower_loads builds the same rod and load
  char scene[1024];
  std::snprintf(
      scene, sizeof scene,
      "duration: 0\nrods:\n  - geometry: {type: straight, start: [0, 0, 0], end: [%.17g, 0, 0], "
      "num_nodes: 41}\n"
      "    material: {E: %.17g, nu: 0.5, density: 1000, radius: %.17g}\n    clamp: start\n"
      "forces:\n  follower_loads: [{edge: -1, force: %.17g}]\n  point_loads: [{node: -1, force: "
      "[0, 0, %.17g]}]\n"
      "integrator: {type: static}\n",
      kLength, kYoungs, kRadius, -kLoad, kLateral);
  sim::Simulation from_scene(sim::load_rod_scene_text(scene));
  ASSERT_TRUE(from_scene.step().ok());
  const double w_scene = from_scene.state().q[3 * 40 + 2];
  EXPECT_NEAR(w_scene, static_tip(40, true).z(), 1e-9 * expected);
  // the same compressive load held along -x (dead) buckles the rod
  const Vec3 dead = static_tip(40, false);
  std::printf("dead load: tip (%.4f, %.4f) m\n", dead.x(), dead.z());
  EXPECT_GT(std::abs(dead.z()), 0.3 * kLength);
}

}  // namespace
}  // namespace tendril
