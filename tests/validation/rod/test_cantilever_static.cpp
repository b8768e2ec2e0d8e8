// Static cantilever validation.
// - Small deflection under self-weight and under a tip load against Euler-Bernoulli beam theory:
//   delta = w L^4 / (8 EI) and delta = P L^3 / (3 EI) (Timoshenko & Gere, Mechanics of Materials,
//   Appendix G), within 0.5% at 20 edges, and second-order convergence in the edge length.
// - mat_dismech Fig. 8 (section 7.2): rho 1200 kg/m^3, nu 0.5, E = 20 GPa, 2 GPa, 200 MPa, 20 MPa,
//   static solve under gravity. The paper does not state L and r; we use its PneuNet rod (L = 0.1
//   m, r = 1 mm, section 7.1). Beyond Euler-Bernoulli we compare with the exact planar elastica
//   (tests/support/elastica.hpp), which the paper's discrepancy at low E is about.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "rod/cantilever.hpp"
#include "support/elastica.hpp"
#include "tendril/integrate/static_solver.hpp"

namespace tendril {
namespace {

using testing::ClampedRod;

constexpr double kPi = 3.14159265358979323846;

/// Tip z of a cantilever after a static solve (positions only; fails the test on non-convergence).
double static_tip_z(ClampedRod& rod, Vec3* tip = nullptr) {
  StaticSolver solver(rod.model, StaticOptions{}, rod.state.q);
  const StaticReport report = solver.solve(rod.state);
  EXPECT_EQ(report.status, StepStatus::converged) << report.message;
  if (tip) *tip = testing::node_position(rod, rod.tip_node);
  return testing::node_position(rod, rod.tip_node).z();
}

struct Beam {
  double length = 1.0, radius = 5e-3, youngs = 1e9, density = 1000.0;
  double bend_stiffness() const { return youngs * kPi * std::pow(radius, 4) / 4; }
  double weight_per_length(double g) const { return density * kPi * radius * radius * g; }
};

double self_weight_error(int edges, const Beam& b, double g) {
  ClampedRod rod = testing::make_clamped_rod(
      edges, b.length, testing::circular_material(b.youngs, 0.5, b.density, b.radius));
  testing::add_gravity(rod, Vec3(0, 0, -g));
  const double expected =
      -b.weight_per_length(g) * std::pow(b.length, 4) / (8 * b.bend_stiffness());
  return (static_tip_z(rod) - expected) / std::abs(expected);
}

double tip_load_error(int edges, const Beam& b, double force) {
  ClampedRod rod = testing::make_clamped_rod(
      edges, b.length, testing::circular_material(b.youngs, 0.5, b.density, b.radius));
  testing::add_tip_force(rod, Vec3(0, 0, -force));
  const double expected = -force * std::pow(b.length, 3) / (3 * b.bend_stiffness());
  return (static_tip_z(rod) - expected) / std::abs(expected);
}

TEST(CantileverStatic, SelfWeightMatchesEulerBernoulliAt20Edges) {
  // delta / L ~ 1e-4: geometric nonlinearity is ~1e-8 relative, far below the tolerance
  const Beam beam;
  const double g = 9.81 * beam.bend_stiffness() /
                   (beam.weight_per_length(1.0) * std::pow(beam.length, 3)) * 8e-4;
  EXPECT_LT(std::abs(self_weight_error(20, beam, g)), 5e-3);
}

TEST(CantileverStatic, TipLoadMatchesEulerBernoulliAt20Edges) {
  const Beam beam;
  const double force = 3e-4 * beam.bend_stiffness() / std::pow(beam.length, 2);
  EXPECT_LT(std::abs(tip_load_error(20, beam, force)), 5e-3);
}

TEST(CantileverStatic, SelfWeightConvergesAtSecondOrder) {
  const Beam beam;
  const double g = 9.81 * beam.bend_stiffness() /
                   (beam.weight_per_length(1.0) * std::pow(beam.length, 3)) * 8e-4;
  std::vector<double> errors;
  for (int edges : {10, 20, 40, 80}) errors.push_back(std::abs(self_weight_error(edges, beam, g)));
  for (std::size_t k = 0; k + 1 < errors.size(); ++k) {
    const double order = std::log2(errors[k] / errors[k + 1]);
    EXPECT_GT(order, 1.8) << "edges " << (10 << k) << " -> " << (20 << k) << ": errors "
                          << errors[k] << ", " << errors[k + 1];
  }
}

TEST(CantileverStatic, TipLoadConvergesAtSecondOrder) {
  const Beam beam;
  const double force = 3e-4 * beam.bend_stiffness() / std::pow(beam.length, 2);
  std::vector<double> errors;
  for (int edges : {10, 20, 40, 80}) errors.push_back(std::abs(tip_load_error(edges, beam, force)));
  for (std::size_t k = 0; k + 1 < errors.size(); ++k)
    EXPECT_GT(std::log2(errors[k] / errors[k + 1]), 1.8) << errors[k] << " -> " << errors[k + 1];
}

TEST(CantileverStatic, MatDismechFigure8AgainstEulerBernoulliAndElastica) {
  const double length = 0.1, radius = 1e-3, density = 1200.0, g = 9.8;
  const double area = kPi * radius * radius, inertia = kPi * std::pow(radius, 4) / 4;
  std::vector<double> eb_difference;
  for (double youngs : {20e9, 2e9, 200e6, 20e6}) {
    SCOPED_TRACE("E = " + std::to_string(youngs));
    ClampedRod rod = testing::make_clamped_rod(
        50, length, testing::circular_material(youngs, 0.5, density, radius));
    testing::add_gravity(rod, Vec3(0, 0, -g));
    Vec3 tip;
    const double tip_z = static_tip_z(rod, &tip);
    const double ei = youngs * inertia, w = density * area * g;
    const double euler_bernoulli = -w * std::pow(length, 4) / (8 * ei);
    testing::ElasticaProblem elastica;
    elastica.length = length;
    elastica.bend_stiffness = ei;
    elastica.load_per_length = {0.0, -w};
    const testing::ElasticaTip exact = testing::solve_cantilever_elastica(elastica);
    // the discrete rod matches the exact elastica (it is also inextensible to ~w L / EA ~ 1e-9)
    EXPECT_NEAR(tip_z, exact.z, 2e-3 * std::abs(exact.z));
    EXPECT_NEAR(tip.x(), exact.x, 2e-3 * std::abs(exact.z));
    eb_difference.push_back(std::abs(tip_z - euler_bernoulli) / std::abs(euler_bernoulli));
  }
  // the paper's Fig. 8(b): agreement with Euler-Bernoulli is close at high E and degrades as E
  // decreases (large deflection), monotonically
  EXPECT_LT(eb_difference.front(), 1e-3);
  for (std::size_t k = 0; k + 1 < eb_difference.size(); ++k)
    EXPECT_LT(eb_difference[k], eb_difference[k + 1]);
  EXPECT_GT(eb_difference.back(), 1e-2);
}

}  // namespace
}  // namespace tendril
