// The PneuNet actuators of mat_dismech Fig. 4 (section 7.1): rods of L = 0.1 m, r = 1 mm, E = 20
// GPa, nu = 0.5, rho = 1200 kg/m^3 with natural curvature 15.70, 31.45, 47.15 1/m, clamped, under
// gravity g = [0, 0, -9.8] m/s^2, solved statically from the example scenes
// (examples/pneunet_kappa*.yaml), which start from the straight rod:
// - with the paper's tip force [175, 0, 7] N (Fig. 4(e), "deformed shapes under gravity and point
// force");
// - with gravity only (Fig. 4(d), "natural shapes under gravity"): far from the straight start, so
// the
//   static solver must carry the rest shape along its homotopy.
// The paper shows only pictures; we compare the tip with the exact extensible planar elastica
// (tests/support/elastica.hpp) with the same loads, reached by applying the loads to the straight
// rod and then actuating its natural curvature.
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/elastica.hpp"
#include "support/source_tree.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril {
namespace {

constexpr double kPi = 3.14159265358979323846;

/// Tip of the scene's static solution with `overrides`.
Vec3 static_tip(const std::string& scene, const std::vector<std::string>& overrides = {}) {
  sim::Simulation simulation =
      sim::Simulation::from_file(testing::source_tree() / "examples" / scene, overrides);
  const StepReport report = simulation.step();
  EXPECT_EQ(report.status, StepStatus::converged) << report.message;
  return simulation.state().q.segment<3>(3 * (simulation.model().dofs.num_nodes - 1));
}

/// The exact tip for natural curvature kappa [1/m], gravity g [m/s^2] (along -z) and tip force
/// (F_x, F_z) [N].
testing::ElasticaTip exact_tip(double kappa, double g, std::array<double, 2> tip_force) {
  const double radius = 1e-3, youngs = 20e9;
  testing::ElasticaProblem p;
  p.length = 0.1;
  p.bend_stiffness = youngs * kPi * std::pow(radius, 4) / 4;
  p.axial_stiffness = youngs * kPi * radius * radius;
  p.natural_curvature = kappa;
  p.load_per_length = {0.0, -1200 * kPi * radius * radius * g};
  p.tip_force = tip_force;
  return testing::solve_actuated_elastica(p, 0.0);
}

void expect_loaded_tip_matches_elastica(const std::string& scene, double kappa) {
  SCOPED_TRACE(scene);
  const Vec3 x_tip = static_tip(scene);
  const testing::ElasticaTip exact = exact_tip(kappa, 9.8, {175.0, 7.0});
  // 50 edges: measured differences are about 2e-6 m (2e-5 L)
  EXPECT_NEAR(x_tip.x(), exact.x, 2e-5);
  EXPECT_NEAR(x_tip.z(), exact.z, 2e-5);
  EXPECT_NEAR(x_tip.y(), 0.0, 1e-12);
}

void expect_natural_shape_matches_elastica(const std::string& scene, double kappa) {
  SCOPED_TRACE(scene);
  const Vec3 x_tip = static_tip(scene, {"forces.point_loads.0.force=[0,0,0]"});
  const Vec3 x_tip_unloaded =
      static_tip(scene, {"forces.point_loads.0.force=[0,0,0]", "forces.gravity=[0,0,0]"});
  const testing::ElasticaTip exact = exact_tip(kappa, 9.8, {0.0, 0.0});
  const testing::ElasticaTip exact_unloaded = exact_tip(kappa, 0.0, {0.0, 0.0});
  // the tip: 50 edges, measured differences up to 1.8e-5 m (2e-4 L), the O(l^2) error of the
  // polygonal arc (its vertices lie on a circle of radius (1 + (kappa l)^2 / 24) / kappa)
  EXPECT_NEAR(x_tip.x(), exact.x, 2e-5);
  EXPECT_NEAR(x_tip.z(), exact.z, 2e-5);
  EXPECT_NEAR(x_tip.y(), 0.0, 1e-12);
  // the sag under gravity (2e-6 .. 2e-5 m, below the arc's discretisation error) compared on its
  // own: the arc's error cancels in the difference loaded - unloaded (measured within 2e-8 m)
  const double sag_x = x_tip.x() - x_tip_unloaded.x(), sag_z = x_tip.z() - x_tip_unloaded.z();
  const double exact_sag_x = exact.x - exact_unloaded.x, exact_sag_z = exact.z - exact_unloaded.z;
  const double exact_sag = std::hypot(exact_sag_x, exact_sag_z);
  EXPECT_NEAR(sag_x, exact_sag_x, 0.02 * exact_sag);
  EXPECT_NEAR(sag_z, exact_sag_z, 0.02 * exact_sag);
}

TEST(PneuNet, Kappa15_70WithTipForceMatchesElastica) {
  expect_loaded_tip_matches_elastica("pneunet_kappa15_70.yaml", 15.70);
}
TEST(PneuNet, Kappa31_45WithTipForceMatchesElastica) {
  expect_loaded_tip_matches_elastica("pneunet_kappa31_45.yaml", 31.45);
}
TEST(PneuNet, Kappa47_15WithTipForceMatchesElastica) {
  expect_loaded_tip_matches_elastica("pneunet_kappa47_15.yaml", 47.15);
}

TEST(PneuNet, Kappa15_70NaturalShapeUnderGravityMatchesElastica) {
  expect_natural_shape_matches_elastica("pneunet_kappa15_70.yaml", 15.70);
}
TEST(PneuNet, Kappa31_45NaturalShapeUnderGravityMatchesElastica) {
  expect_natural_shape_matches_elastica("pneunet_kappa31_45.yaml", 31.45);
}
TEST(PneuNet, Kappa47_15NaturalShapeUnderGravityMatchesElastica) {
  expect_natural_shape_matches_elastica("pneunet_kappa47_15.yaml", 47.15);
}

}  // namespace
}  // namespace tendril
