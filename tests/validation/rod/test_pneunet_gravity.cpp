// The natural shapes of the PneuNet actuators under gravity only (mat_dismech section 7.1, Fig. 4(d)
// "natural shapes under gravity"): rods of L = 0.1 m, r = 1 mm, E = 20 GPa, nu = 0.5, rho = 1200 kg/m^3
// with natural curvature 15.70, 31.45, 47.15 1/m, clamped, g = [0, 0, -9.8] m/s^2, the scenes of
// examples/pneunet_kappa*.yaml with the tip force set to zero. The rod starts straight, far from its
// curled equilibrium: the static solver must carry the rest shape along its homotopy. The paper shows
// only pictures; we compare the tip with the exact extensible planar elastica (tests/support/elastica.hpp).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "support/elastica.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril {
namespace {

constexpr double kPi = 3.14159265358979323846;

/// Tip of the scene's static solution from the straight rod, with the tip force removed.
Vec3 static_tip(const std::string& scene, const std::string& gravity) {
  sim::Simulation simulation =
      sim::Simulation::from_file(std::string(std::getenv("TENDRIL_SOURCE_DIR")) + "/examples/" + scene,
                                 {"forces.point_loads.0.force=[0,0,0]", "forces.gravity=" + gravity});
  const StepReport report = simulation.step();
  EXPECT_EQ(report.status, StepStatus::converged) << report.message;
  return simulation.state().q.segment<3>(3 * (simulation.model().dofs.num_nodes - 1));
}

void expect_natural_shape_matches_elastica(const std::string& scene, double natural_curvature) {
  SCOPED_TRACE(scene);
  const Vec3 x_tip = static_tip(scene, "[0,0,-9.8]");
  const Vec3 x_tip_unloaded = static_tip(scene, "[0,0,0]");

  const double radius = 1e-3, youngs = 20e9;
  testing::ElasticaProblem p;
  p.length = 0.1;
  p.bend_stiffness = youngs * kPi * std::pow(radius, 4) / 4;
  p.axial_stiffness = youngs * kPi * radius * radius;
  p.natural_curvature = natural_curvature;
  p.load_per_length = {0.0, -1200 * kPi * radius * radius * 9.8};
  p.tip_force = {0.0, 0.0};
  const testing::ElasticaTip exact = testing::solve_actuated_elastica(p, 0.0);
  testing::ElasticaProblem unloaded = p;
  unloaded.load_per_length = {0.0, 0.0};
  const testing::ElasticaTip exact_unloaded = testing::solve_actuated_elastica(unloaded, 0.0);

  // the tip: 50 edges, measured differences up to 1.8e-5 m (2e-4 L), the O(l^2) error of the
  // polygonal arc (its vertices lie on a circle of radius (1 + (kappa l)^2 / 24) / kappa)
  EXPECT_NEAR(x_tip.x(), exact.x, 2e-5);
  EXPECT_NEAR(x_tip.z(), exact.z, 2e-5);
  EXPECT_NEAR(x_tip.y(), 0.0, 1e-12);
  // the sag under gravity (2e-6 .. 2e-5 m, below the arc's discretisation error) compared on its own:
  // the arc's error cancels in the difference loaded - unloaded
  const double sag_x = x_tip.x() - x_tip_unloaded.x(), sag_z = x_tip.z() - x_tip_unloaded.z();
  const double exact_sag_x = exact.x - exact_unloaded.x, exact_sag_z = exact.z - exact_unloaded.z;
  const double exact_sag = std::hypot(exact_sag_x, exact_sag_z);
  std::printf("tip difference %.3g %.3g m, sag %.3g m, sag difference %.3g %.3g m\n", x_tip.x() - exact.x,
              x_tip.z() - exact.z, exact_sag, sag_x - exact_sag_x, sag_z - exact_sag_z);
  EXPECT_NEAR(sag_x, exact_sag_x, 0.02 * exact_sag);
  EXPECT_NEAR(sag_z, exact_sag_z, 0.02 * exact_sag);
}

TEST(PneuNetGravity, Kappa15_70NaturalShapeMatchesElastica) {
  expect_natural_shape_matches_elastica("pneunet_kappa15_70.yaml", 15.70);
}
TEST(PneuNetGravity, Kappa31_45NaturalShapeMatchesElastica) {
  expect_natural_shape_matches_elastica("pneunet_kappa31_45.yaml", 31.45);
}
TEST(PneuNetGravity, Kappa47_15NaturalShapeMatchesElastica) {
  expect_natural_shape_matches_elastica("pneunet_kappa47_15.yaml", 47.15);
}

}  // namespace
}  // namespace tendril
