// No tunnelling of the 3D vine (docs/physics/vine3d.md#contact): the paper's vine (10 bodies of
// 33.7 mm, D = 24 mm, 1 g, K = 0.05 N m/rad, Delta t = 1/90 s) falls under gravity, its tip
// reaching 1-2 m/s, i.e. 10-20 mm per step, more than a post's diameter or a sheet's zero
// thickness. Every step the test computes the exact distances itself: each body's axis segment to
// a horizontal sheet of two triangles (an OBJ-like mesh of zero thickness), and to a row of
// vertical posts (cylinders of radius 2 mm, 20 mm apart: the tube cannot pass between them).
// No axis may cross the sheet or enter a post; against the sheet (flat) the capsule's overlap is
// at most the rotation's second-order term (|omega| Delta t)^2 d / 2 of the linearised step
// (docs/physics/vine3d.md#contact).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "tendril/vine3d/obj_mesh.hpp"
#include "tendril/vine3d/vine3d_stepper.hpp"

namespace tendril::vine3d {
namespace {

Vine3dModel paper_vine(const Vec3& gravity) {
  UniformVine3dParameters p;
  p.bodies = 10;
  p.half_length = 0.016845;
  p.tube_diameter = 0.024;
  p.mass = 1e-3;
  p.stiffness = 0.05;
  p.damping = 1e-5;
  p.dt = 1.0 / 90.0;
  Vine3dModel m = uniform_vine3d(p);
  m.springs = SpringIntegration::implicit;
  m.gravity = gravity;
  return m;
}

/// Distance in the plane z = 0 from the segment a-b to the point c [m].
double segment_point_distance_2d(const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec2 ab = (b - a).head<2>(), ac = (c - a).head<2>();
  const double s = std::clamp(ac.dot(ab) / ab.squaredNorm(), 0.0, 1.0);
  return (ac - s * ab).norm();
}

TEST(Vine3dNoTunnelling, FallingVineStaysAboveAZeroThicknessSheet) {
  Vine3dModel m = paper_vine(Vec3(0.0, 0.0, -9.81));
  const double sheet = -0.12;  // z of the sheet [m]
  TriangleMesh mesh;
  mesh.vertices = {Vec3(-1, -1, sheet), Vec3(1, -1, sheet), Vec3(1, 1, sheet), Vec3(-1, 1, sheet)};
  mesh.triangles = {{0, 1, 2}, {0, 2, 3}};
  m.obstacles = mesh_obstacles(mesh, "sheet");
  Vine3dStepper stepper(m);
  Vine3dState s = straight_state(m, 0.0);
  double worst_overlap_beyond_bound = -HUGE_VAL, lowest_axis = HUGE_VAL, fastest = 0.0;
  for (int k = 0; k < 180; ++k) {
    const Vine3dStepReport r = stepper.step(s);
    ASSERT_TRUE(r.ok()) << "step " << k << ": " << qp::to_string(r.status);
    for (int i = 0; i < m.num_bodies; ++i) {
      const Vec3 e = s.orientation[i] * Vec3::UnitX();
      const double d = m.half_length[i];
      // the sheet is a plane over |x|, |y| < 1: the segment's distance is its lower end's height
      const Vec3 p0 = s.position[i] - d * e, p1 = s.position[i] + d * e;
      ASSERT_LT(std::max(p0.head<2>().cwiseAbs().maxCoeff(), p1.head<2>().cwiseAbs().maxCoeff()),
                1.0);
      const double distance = std::min(p0.z(), p1.z()) - sheet;
      lowest_axis = std::min(lowest_axis, distance);
      const double omega = s.velocity.segment<3>(6 * i + 3).norm();
      const double bound = 0.5 * std::pow(omega * m.dt, 2) * d;
      worst_overlap_beyond_bound =
          std::max(worst_overlap_beyond_bound, m.contact_radius - distance - bound);
      fastest = std::max(fastest, s.velocity.segment<3>(6 * i).norm() + d * omega);
    }
  }
  std::printf(
      "sheet: fastest point %.2f m/s (%.1f mm per step); lowest axis %.4f m above the "
      "sheet (capsule radius %.3f m); overlap beyond the bound %.3g m\n",
      fastest, 1e3 * fastest * m.dt, lowest_axis, m.contact_radius, worst_overlap_beyond_bound);
  EXPECT_GT(fastest * m.dt, m.contact_radius / 2);  // the paper's speeds: a step moves mm
  EXPECT_GT(lowest_axis, 0.0);                      // never through the sheet
  EXPECT_LT(worst_overlap_beyond_bound, 1e-9);
}

TEST(Vine3dNoTunnelling, SwingingVineNeverEntersOrPassesThinPosts) {
  // the vine swings in the plane z = 0 under gravity along -y into posts at y = -0.06
  Vine3dModel m = paper_vine(Vec3(0.0, -9.81, 0.0));
  const double post_y = -0.06, post_radius = 0.002;
  std::vector<Vec3> posts;
  for (int k = 0; k < 12; ++k) {
    posts.emplace_back(0.02 + 0.02 * k, post_y, 0.0);
    m.obstacles.push_back(make_cylinder(posts.back(), Vec3::UnitZ(), post_radius, 0.3));
  }
  Vine3dStepper stepper(m);
  Vine3dState s = straight_state(m, 0.0);
  double nearest_axis = HUGE_VAL, deepest_overlap = 0.0, fastest = 0.0;
  int contact_steps = 0;
  for (int k = 0; k < 180; ++k) {
    const Vine3dStepReport r = stepper.step(s);
    ASSERT_TRUE(r.ok()) << "step " << k << ": " << qp::to_string(r.status);
    contact_steps += r.active_contacts > 0;
    for (int i = 0; i < m.num_bodies; ++i) {
      const Vec3 e = s.orientation[i] * Vec3::UnitX();
      const double d = m.half_length[i];
      const Vec3 p0 = s.position[i] - d * e, p1 = s.position[i] + d * e;
      ASSERT_LT(std::abs(p0.z()) + std::abs(p1.z()), 1e-9);  // in the plane, far from the caps
      for (const Vec3& c : posts) {
        const double distance = segment_point_distance_2d(p0, p1, c) - post_radius;
        nearest_axis = std::min(nearest_axis, distance);
        deepest_overlap = std::max(deepest_overlap, m.contact_radius - distance);
      }
      // a body over the row of posts (0.02 <= x <= 0.24) cannot have got below it
      if (std::min(p0.x(), p1.x()) >= 0.02 && std::max(p0.x(), p1.x()) <= 0.24) {
        EXPECT_GT(std::min(p0.y(), p1.y()), post_y) << "step " << k << " body " << i;
      }
      fastest = std::max(fastest, s.velocity.segment<3>(6 * i).norm() +
                                      d * s.velocity.segment<3>(6 * i + 3).norm());
    }
  }
  std::printf(
      "posts: fastest point %.2f m/s (%.1f mm per step, post diameter 4 mm); nearest axis "
      "%.4f m from a post surface; deepest capsule overlap %.3g m of %.3f; %d steps in "
      "contact\n",
      fastest, 1e3 * fastest * m.dt, nearest_axis, deepest_overlap, m.contact_radius,
      contact_steps);
  EXPECT_GT(fastest * m.dt, 2.0 * post_radius);  // a step moves more than a post's diameter
  EXPECT_GT(contact_steps, 50);
  EXPECT_GT(nearest_axis, 0.0);  // no axis ever enters a post
}

}  // namespace
}  // namespace tendril::vine3d
