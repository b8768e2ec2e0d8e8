// A 3D vine confined to a plane (initial state, rest bends and forces in z = 0) follows the planar
// simulator's trajectory (issue 28; docs/physics/vine3d.md#planar-consistency): both solve the
// paper's eq. 15, the 3D rows restricted to the plane are the planar rows, and the out-of-plane
// velocities stay exactly zero. Reference: the planar simulator (tendril_vine), an independent
// implementation in (x, y, theta) coordinates. Cases: the paper's wall-growth vine (IV-B-2, Fig. 7)
// growing freely without its wall and into its wall (the measured rectangle as a tall box), and
// the fitting tests' swinging vine, with gravity in the plane.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "support/swinging_vine_model.hpp"
#include "support/wall_growth.hpp"
#include "tendril/vine/vine_stepper.hpp"
#include "tendril/vine3d/vine3d_stepper.hpp"

namespace tendril::vine3d {
namespace {

/// The planar model as a 3D one in the plane z = 0: rest angles become bends about e_z.
Vine3dModel spatial_model(const vine::VineModel& p) {
  Vine3dModel m;
  m.num_bodies = p.num_bodies;
  m.half_length = p.half_length;
  m.mass = p.mass;
  m.transverse_inertia = p.inertia;
  for (int i = 0; i < p.num_bodies; ++i)
    m.axial_inertia.push_back(p.mass[i] * p.tube_diameter * p.tube_diameter / 4.0);
  m.base = Vec3(p.base.x(), p.base.y(), 0.0);
  m.stiffness = p.stiffness;
  m.damping = p.damping;
  for (double angle : p.rest_angle) m.rest_bend.emplace_back(0.0, angle);
  m.gravity = Vec3(p.gravity.x(), p.gravity.y(), 0.0);
  m.dt = p.dt;
  m.growth_mode = p.growth_mode;
  m.growth = p.growth;
  m.growth_lookahead = p.growth_lookahead;
  m.springs = p.springs;
  m.contact_radius = p.contact_radius;
  m.friction = p.friction;
  m.contact_gap = p.contact_gap;
  return m;
}

/// (x, y, theta) per body as positions in z = 0 and rotations by theta about e_z.
Vine3dState spatial_state(const vine::VineState& s) {
  Vine3dState out;
  out.time = s.time;
  const int n = static_cast<int>(s.q.size() / 3);
  out.velocity.setZero(6 * n);
  for (int i = 0; i < n; ++i) {
    out.position.emplace_back(s.q(3 * i), s.q(3 * i + 1), 0.0);
    out.orientation.emplace_back(Eigen::AngleAxisd(s.q(3 * i + 2), Vec3::UnitZ()));
    out.velocity.segment<6>(6 * i) << s.v(3 * i), s.v(3 * i + 1), 0.0, 0.0, 0.0, s.v(3 * i + 2);
  }
  return out;
}

/// The paper's wall, a rectangle (a four-vertex polygon), as a box 1 m tall about z = 0.
Obstacle3 wall_box(const vine::Obstacle& wall) {
  const std::vector<Vec2>& corners = wall.vertices;
  EXPECT_EQ(corners.size(), 4u);
  const Vec2 centre = 0.25 * (corners[0] + corners[1] + corners[2] + corners[3]);
  const Vec2 along = corners[0] - corners[3], across = corners[1] - corners[0];
  return make_box(Vec3(centre.x(), centre.y(), 0.0),
                  Vec3(0.5 * along.norm(), 0.5 * across.norm(), 1.0),
                  Quat(Eigen::AngleAxisd(std::atan2(along.y(), along.x()), Vec3::UnitZ())));
}

struct Comparison {
  double deviation = 0.0;  ///< largest distance between corresponding body centres and ends [m]
  int contact_steps = 0;   ///< steps of the planar run with an active contact
};

/// Runs both simulators for `steps` side by side (the 3D model is `spatial_given` if given, else
/// spatial_model(planar_model)); fails if a step fails. The deviation includes leaving the plane.
Comparison compare(const vine::VineModel& planar_model, vine::VineState planar, int steps,
                   const Vine3dModel* spatial_given = nullptr) {
  vine::VineStepper planar_stepper(planar_model);
  Vine3dStepper stepper(spatial_given ? *spatial_given : spatial_model(planar_model));
  Vine3dState spatial = spatial_state(planar);
  Comparison out;
  double& deviation = out.deviation;
  for (int k = 0; k < steps; ++k) {
    const vine::VineStepReport r2 = planar_stepper.step(planar);
    const Vine3dStepReport r3 = stepper.step(spatial);
    EXPECT_TRUE(r2.ok()) << "planar step " << k;
    EXPECT_TRUE(r3.ok()) << "3D step " << k;
    if (!r2.ok() || !r3.ok()) return {HUGE_VAL, 0};
    out.contact_steps += r2.active_contacts > 0;
    for (int i = 0; i < planar_model.num_bodies; ++i) {
      const double theta = planar.q(3 * i + 2);
      const Vec3 centre(planar.q(3 * i), planar.q(3 * i + 1), 0.0);
      const Vec3 axis(std::cos(theta), std::sin(theta), 0.0);
      const Vec3 axis3 = spatial.orientation[i] * Vec3::UnitX();
      const double d = planar_model.half_length[i];
      deviation = std::max({deviation, (spatial.position[i] - centre).norm(),
                            (spatial.position[i] + d * axis3 - centre - d * axis).norm(),
                            (spatial.position[i] - d * axis3 - centre + d * axis).norm()});
    }
  }
  std::printf("%d steps: largest deviation %.3g m, %d steps in contact\n", steps, out.deviation,
              out.contact_steps);
  return out;
}

TEST(PlanarConsistency, PaperWallGrowthVineGrowingFreely) {
  // the paper's wall-growth vine (tests/support/wall_growth.hpp, IV-B-2) without the wall: 10
  // bodies, K = 0.05 N m/rad, C = 1e-5 N m s/rad, u = 40 mm/s, dt = 1/90 s, 4 s of growth
  const vine::VineModel m = tendril::testing::wall_growth_vine();
  // started 0.21 rad off the rest heading, so the base spring acts from the first step
  vine::VineState start = vine::straight_state(m, 1.1, 0.002);
  EXPECT_LT(compare(m, start, 360).deviation, 1e-9);
}

TEST(PlanarConsistency, PaperWallGrowthIntoTheWall) {
  // the paper's case as the planar validation sets it up
  // (tests/validation/vine/test_wall_growth.cpp), run for 3 s (the video covers the first 0.23 s):
  // the tip slides along the wall; the wall, a rectangle 502 x 30 mm, is a box 1 m tall in 3D
  const std::filesystem::path dir = tendril::testing::wall_growth_data_dir();
  if (dir.empty()) GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found";
  const tendril::testing::WallGrowthCase c = tendril::testing::wall_growth_case(dir);
  Vine3dModel m = spatial_model(c.model);
  m.obstacles = {wall_box(c.model.obstacles.at(0))};
  const int steps = 270;
  const Comparison result = compare(c.model, c.start, steps, &m);
  EXPECT_GT(result.contact_steps, steps / 2);  // the tip reaches the wall and slides along it
  EXPECT_LT(result.deviation, 1e-9);
}

TEST(PlanarConsistency, PaperWallGrowthIntoTheWallWithFriction) {
  // as above with Coulomb friction mu = 0.05 (the planar cone's two edges are two of the 3D
  // pyramid's four; its other two edges are implied by them in the plane)
  const std::filesystem::path dir = tendril::testing::wall_growth_data_dir();
  if (dir.empty()) GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found";
  tendril::testing::WallGrowthCase c = tendril::testing::wall_growth_case(dir);
  c.model.friction = 0.05;
  Vine3dModel m = spatial_model(c.model);
  m.obstacles = {wall_box(c.model.obstacles.at(0))};
  const Comparison result = compare(c.model, c.start, 270, &m);
  EXPECT_GT(result.contact_steps, 135);
  EXPECT_LT(result.deviation, 1e-9);
}

TEST(PlanarConsistency, SwingingVineUnderGravity) {
  vine::VineModel m = testing::swinging_vine();
  m.gravity = Vec2(0.0, -9.81);
  EXPECT_LT(compare(m, testing::swinging_start(m), 270).deviation, 1e-9);
}

TEST(PlanarConsistency, ImplicitSpringsOfAStifferVine) {
  // implicit springs and dampers (P += dt^2 R K R^T + dt R C R^T in both), K ten times the
  // swinging vine's
  vine::VineModel m = testing::swinging_vine();
  m.springs = vine::SpringIntegration::implicit;
  m.stiffness.assign(m.num_pins(), 10 * testing::kSwingStiffness);
  m.gravity = Vec2(0.0, -9.81);
  EXPECT_LT(compare(m, testing::swinging_start(m), 270).deviation, 1e-9);
}

TEST(PlanarConsistency, TipGrowthWithLookahead) {
  vine::VineModel m = testing::swinging_vine();
  m.growth_mode = vine::GrowthMode::tip;
  m.growth_lookahead = 0.5;
  m.gravity = Vec2(0.3, -2.0);
  EXPECT_LT(compare(m, testing::swinging_start(m), 270).deviation, 1e-9);
}

}  // namespace
}  // namespace tendril::vine3d
