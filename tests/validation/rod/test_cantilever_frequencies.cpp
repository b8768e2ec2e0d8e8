// Natural frequencies of a clamped-free Euler-Bernoulli beam: omega_n = (beta_n L)^2 sqrt(EI / (rho
// A L^4)) with beta_n L = 1.8751, 4.6941, 7.8548 (Meirovitch, Fundamentals of Vibrations,
// sec. 8.8). We solve the generalised eigenproblem K v = omega^2 M v of the discrete rod linearised
// about its straight rest shape (sim::natural_modes, the solver of `tendril modes`).
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "rod/cantilever.hpp"
#include "tendril/sim/natural_modes.hpp"

namespace tendril {
namespace {

constexpr double kPi = 3.14159265358979323846;

/// The lowest bending frequencies [rad/s] by sim::natural_modes on all DOFs: for a circular section
/// each bending mode comes as a pair (in the x-y and x-z planes) below the first torsional and
/// axial modes, so entries 2n and 2n + 1 belong to bending mode n + 1.
std::vector<double> lowest_bending_frequencies(int edges, double length,
                                               const RodMaterial& material) {
  const testing::ClampedRod rod = testing::make_clamped_rod(edges, length, material);
  const sim::NaturalModes modes = sim::natural_modes(rod.model, rod.state, 6);
  std::vector<double> omega;
  for (int n = 0; n < 3; ++n) {
    EXPECT_NEAR(modes.omega[2 * n], modes.omega[2 * n + 1], 1e-6 * modes.omega[2 * n])
        << "pair " << n;
    omega.push_back(modes.omega[2 * n]);
  }
  return omega;
}

TEST(CantileverFrequencies, FirstThreeMatchEulerBernoulli) {
  const double length = 1.0, radius = 5e-3, youngs = 1e7, density = 1273.52;
  const RodMaterial material = testing::circular_material(youngs, 0.5, density, radius);
  const double ei = youngs * kPi * std::pow(radius, 4) / 4, rho_a = density * kPi * radius * radius;
  const double beta_l[3] = {1.8751, 4.6941, 7.8548};
  const std::vector<double> omega = lowest_bending_frequencies(100, length, material);
  for (int n = 0; n < 3; ++n) {
    const double expected = beta_l[n] * beta_l[n] * std::sqrt(ei / (rho_a * std::pow(length, 4)));
    EXPECT_NEAR(omega[n], expected, 2e-3 * expected) << "mode " << n + 1;
  }
}

TEST(CantileverFrequencies, ConvergeAtSecondOrder) {
  const RodMaterial material = testing::circular_material(1e7, 0.5, 1273.52, 5e-3);
  const double ei = 1e7 * kPi * std::pow(5e-3, 4) / 4, rho_a = 1273.52 * kPi * 25e-6;
  const double expected = 4.6941 * 4.6941 * std::sqrt(ei / rho_a);  // mode 2, L = 1 m
  const double coarse = std::abs(lowest_bending_frequencies(25, 1.0, material)[1] - expected);
  const double fine = std::abs(lowest_bending_frequencies(50, 1.0, material)[1] - expected);
  EXPECT_GT(std::log2(coarse / fine), 1.7) << coarse << " -> " << fine;
}

}  // namespace
}  // namespace tendril
