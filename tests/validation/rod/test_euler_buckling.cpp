// Euler buckling of a cantilever under an axial compressive tip load: P_cr = pi^2 EI / (4 L^2)
// (Timoshenko & Gere, Theory of Elastic Stability, sec. 2.1). sim::buckling_load_factors linearises
// about the static state under P = P_cr / 10 (K_0 + lambda K_G singular): lambda_1 P is the
// buckling load, twice (bending in the x-y and x-z planes of the circular section).
#include <cmath>
#include <cstdio>
#include <vector>

#include <gtest/gtest.h>

#include "rod/cantilever.hpp"
#include "tendril/integrate/static_solver.hpp"
#include "tendril/sim/natural_modes.hpp"

namespace tendril {
namespace {

constexpr double kPi = 3.14159265358979323846;

/// The first buckling load [N] of the clamped rod with `edges` edges.
double buckling_load(int edges) {
  const double youngs = 1e7, radius = 5e-3, length = 1.0;
  const double ei = youngs * kPi * std::pow(radius, 4) / 4.0;
  const double load = 0.1 * kPi * kPi * ei / (4.0 * length * length);
  testing::ClampedRod rod = testing::make_clamped_rod(
      edges, length, testing::circular_material(youngs, 0.5, 1000, radius));
  const State unloaded = rod.state;
  testing::add_tip_force(rod, Vec3(-load, 0.0, 0.0));
  StaticSolver solver(rod.model, StaticOptions{}, rod.state.q);
  const StaticReport report = solver.solve(rod.state);
  EXPECT_TRUE(report.ok()) << report.message;
  const std::vector<double> factors = sim::buckling_load_factors(rod.model, unloaded, rod.state, 3);
  EXPECT_EQ(factors.size(), 3u);
  EXPECT_NEAR(factors[0], factors[1], 1e-6 * factors[0]);  // the two bending planes
  EXPECT_GT(factors[2], 5.0 * factors[0]);  // the second mode: (3 pi / 2)^2 / (pi / 2)^2 = 9
  return factors[0] * load;
}

TEST(EulerBuckling, CantileverBucklingLoadAndItsConvergence) {
  const double ei = 1e7 * kPi * std::pow(5e-3, 4) / 4.0;
  const double expected = kPi * kPi * ei / 4.0;
  const double coarse = buckling_load(25), fine = buckling_load(50);
  std::printf("buckling load: %.6e N (25 edges), %.6e N (50 edges), Euler %.6e N\n", coarse, fine,
              expected);
  EXPECT_NEAR(fine, expected, 2e-3 * expected);
  EXPECT_GT(std::log2(std::abs(coarse - expected) / std::abs(fine - expected)),
            1.7);  // second order
}

}  // namespace
}  // namespace tendril
