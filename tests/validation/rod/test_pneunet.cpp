// The PneuNet actuators of mat_dismech Fig. 4 (section 7.1): rods of L = 0.1 m, r = 1 mm, E = 20 GPa,
// nu = 0.5, rho = 1200 kg/m^3 with natural curvature 15.70, 31.45, 47.15 1/m, clamped, under gravity
// g = [0, 0, -9.8] m/s^2 and the tip force [175, 0, 7] N, solved statically from the example scenes
// (examples/pneunet_kappa*.yaml). The paper shows only pictures; we compare the tip with the exact
// extensible planar elastica (tests/support/elastica.hpp) with the same loads, reached by applying
// the loads to the straight rod and then actuating its natural curvature.
#include <cmath>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "support/elastica.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril {
namespace {

constexpr double kPi = 3.14159265358979323846;

void expect_tip_matches_elastica(const std::string& scene, double natural_curvature) {
  SCOPED_TRACE(scene);
  sim::Simulation simulation =
      sim::Simulation::from_file(std::string(std::getenv("TENDRIL_SOURCE_DIR")) + "/examples/" + scene);
  const StepReport report = simulation.step();
  ASSERT_EQ(report.status, StepStatus::converged) << report.message;
  const int tip = simulation.model().dofs.num_nodes - 1;
  const Vec3 x_tip = simulation.state().q.segment<3>(3 * tip);

  const double radius = 1e-3, youngs = 20e9;
  testing::ElasticaProblem p;
  p.length = 0.1;
  p.bend_stiffness = youngs * kPi * std::pow(radius, 4) / 4;
  p.axial_stiffness = youngs * kPi * radius * radius;
  p.natural_curvature = natural_curvature;
  p.load_per_length = {0.0, -1200 * kPi * radius * radius * 9.8};
  p.tip_force = {175.0, 7.0};
  const testing::ElasticaTip exact = testing::solve_actuated_elastica(p, 0.0);
  // 50 edges: measured differences are about 2e-6 m (2e-5 L)
  EXPECT_NEAR(x_tip.x(), exact.x, 2e-5);
  EXPECT_NEAR(x_tip.z(), exact.z, 2e-5);
  EXPECT_NEAR(x_tip.y(), 0.0, 1e-12);
}

TEST(PneuNet, Kappa15_70MatchesElastica) { expect_tip_matches_elastica("pneunet_kappa15_70.yaml", 15.70); }
TEST(PneuNet, Kappa31_45MatchesElastica) { expect_tip_matches_elastica("pneunet_kappa31_45.yaml", 31.45); }
TEST(PneuNet, Kappa47_15MatchesElastica) { expect_tip_matches_elastica("pneunet_kappa47_15.yaml", 47.15); }

}  // namespace
}  // namespace tendril
