// Contact of the 3D vine (src/tendril/vine3d/vine3d_stepper.hpp, obstacles.hpp): a vine growing
// into a sphere off its axis is deflected in both lateral directions and never enters it; a vine
// sagging under gravity comes to rest on a floor; a body lying on a floor pulled sideways sticks
// below the Coulomb limit and slides above it, bracketed by the motion with and without friction;
// the table example with friction 0.3, whose contact rows are dependent (a sticking point's
// pyramid, points shared through joints), runs past the step where the QP once cycled, every
// contact obeying Coulomb's law for the pyramid. Distances are computed in the test from the closed
// forms (segment to point, ends to plane).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "support/example_path.hpp"
#include "tendril/vine3d/vine3d_scene.hpp"
#include "tendril/vine3d/vine3d_stepper.hpp"

namespace tendril::vine3d {
namespace {

Vine3dModel growing_vine() {
  UniformVine3dParameters p;
  p.bodies = 8;
  p.half_length = 0.01;
  p.tube_diameter = 0.01;
  p.mass = 1e-3;
  p.stiffness = 0.01;
  p.damping = 2e-4;
  p.dt = 5e-4;  // explicit springs: omega dt = 0.13 for the stiffest mode
  Vine3dModel m = uniform_vine3d(p);
  m.growth = GrowthSchedule::constant(0.05);
  return m;
}

/// Distance from the segment p +- d e to the point c [m].
double segment_point_distance(const Vec3& p, const Vec3& e, double d, const Vec3& c) {
  const double s = std::clamp((c - p).dot(e), -d, d);
  return (p + s * e - c).norm();
}

TEST(Vine3dContact, GrowthIntoASphereOffAxisSlidesAroundIt) {
  Vine3dModel m = growing_vine();
  const Vec3 centre(0.2, 0.012, 0.009);
  const double radius = 0.03;
  m.obstacles = {make_sphere(centre, radius)};
  Vine3dStepper stepper(m);
  Vine3dState s = straight_state(m, 0.0);
  double worst = HUGE_VAL;
  int contact_steps = 0;
  for (int k = 0; k < 3000; ++k) {
    const Vine3dStepReport r = stepper.step(s);
    ASSERT_TRUE(r.ok()) << "step " << k << ": " << qp::to_string(r.status) << ", joint error "
                        << r.joint_error;
    contact_steps += r.active_contacts > 0;
    for (int i = 0; i < m.num_bodies; ++i) {
      const Vec3 e = s.orientation[i] * Vec3::UnitX();
      worst = std::min(worst, segment_point_distance(s.position[i], e, m.half_length[i], centre) -
                                  radius - m.contact_radius);
    }
  }
  EXPECT_GT(contact_steps, 100);
  // the rows hold the linearised distance of the closest point and the ends; what they leave is
  // second order in a step's motion: (v dt)^2 / (2 R) = (0.1 m/s 5e-4 s)^2 / 0.06 m < 1e-7 m and
  // (omega dt)^2 d / 2 ~ 1e-7 m for omega ~ 10 rad/s
  EXPECT_GT(worst, -1e-6);
  // deflected away from the sphere's offset in both lateral directions
  const Vec3 tip =
      s.position.back() + m.half_length.back() * (s.orientation.back() * Vec3::UnitX());
  std::printf("%d steps in contact, smallest distance %.3g m, tip (%.4f, %.4f, %.4f) m\n",
              contact_steps, worst, tip.x(), tip.y(), tip.z());
  EXPECT_LT(tip.y(), -0.005);
  EXPECT_LT(tip.z(), -0.005);
}

TEST(Vine3dContact, SaggingVineComesToRestOnAFloor) {
  Vine3dModel m = growing_vine();
  m.growth = GrowthSchedule::constant(0.0);
  m.stiffness.assign(m.num_bending(), 2e-3);
  m.gravity = Vec3(0.0, 0.0, -9.81);
  const double floor = -0.03;
  m.obstacles = {make_half_space(Vec3(0.0, 0.0, floor), Vec3::UnitZ())};
  Vine3dStepper stepper(m);
  Vine3dState s = straight_state(m, 0.0);
  double worst = HUGE_VAL;
  for (int k = 0; k < 4000; ++k) {
    const Vine3dStepReport r = stepper.step(s);
    ASSERT_TRUE(r.ok()) << "step " << k << ": " << qp::to_string(r.status) << ", joint error "
                        << r.joint_error;
    for (int i = 0; i < m.num_bodies; ++i) {
      const Vec3 e = s.orientation[i] * Vec3::UnitX();
      for (const double end : {-1.0, 1.0})
        worst = std::min(
            worst, (s.position[i] + end * m.half_length[i] * e).z() - floor - m.contact_radius);
    }
  }
  std::printf(
      "smallest distance %.3g m, tip height %.6f m, speed %.3g\n", worst,
      (s.position.back() + m.half_length.back() * (s.orientation.back() * Vec3::UnitX())).z(),
      s.velocity.norm());
  // the plane is flat, so only a body's rotation over a step leaves its ends below their rows:
  // (omega dt)^2 d / 2 < (10 rad/s 5e-4 s)^2 0.01 m / 2 ~ 1e-7 m
  EXPECT_GT(worst, -1e-6);
  // at rest with the tip on the floor
  const Vec3 tip =
      s.position.back() + m.half_length.back() * (s.orientation.back() * Vec3::UnitX());
  EXPECT_NEAR(tip.z(), floor + m.contact_radius, 1e-6);
  EXPECT_LT(s.velocity.norm(), 1e-3);
}

TEST(Vine3dContact, FarObstaclesGetNoRows) {
  // 100 spheres 5 cm or more from the vine's path: the broad phase gives them no rows, so the QP
  // and the trajectory are exactly those without obstacles
  const Vine3dModel free = growing_vine();
  Vine3dModel cluttered = free;
  for (int k = 0; k < 100; ++k)
    cluttered.obstacles.push_back(make_sphere(Vec3(0.01 * k, 0.08 + 0.001 * k, 0.0), 0.02));
  Vine3dStepper free_stepper(free), cluttered_stepper(cluttered);
  Vine3dState a = straight_state(free, 0.0), b = a;
  for (int k = 0; k < 500; ++k) {
    ASSERT_TRUE(free_stepper.step(a).ok()) << k;
    const Vine3dStepReport r = cluttered_stepper.step(b);
    ASSERT_TRUE(r.ok()) << k;
    ASSERT_GT(r.min_distance, 0.02);
    ASSERT_EQ(cluttered_stepper.last_problem().num_inequalities(), 0) << k;
  }
  for (int i = 0; i < free.num_bodies; ++i) {
    EXPECT_EQ(a.position[i], b.position[i]);
    EXPECT_EQ(a.orientation[i].coeffs(), b.orientation[i].coeffs());
  }
}

/// Angle [rad] by which a single body pinned at its proximal end, lying on a floor (or with
/// `on_cylinder` on a horizontal cylinder across it under its end) with friction mu, turns about
/// the vertical in `duration` [s] under gravity g_z down and g_y sideways.
double turn_on_a_support(double mu, double g_y, double duration, Vine3dModel& m,
                         bool on_cylinder = false) {
  UniformVine3dParameters p;
  p.bodies = 1;
  p.half_length = 0.05;
  p.tube_diameter = 0.01;
  p.mass = 0.01;
  p.dt = 1e-3;
  m = uniform_vine3d(p);
  m.friction = mu;
  m.base = Vec3(0.0, 0.0, m.contact_radius);  // the capsule touches the floor z = 0
  m.obstacles = {make_half_space(Vec3::Zero(), Vec3::UnitZ())};
  if (on_cylinder)  // its top line z = 0 along y under x = 1.8 d: the body rests on it there
    m.obstacles = {make_cylinder(Vec3(1.8 * p.half_length, 0.0, -0.03), Vec3::UnitY(), 0.03, 0.2)};
  m.gravity = Vec3(0.0, g_y, -9.81);
  Vine3dStepper stepper(m);
  Vine3dState s = straight_state(m, 0.0);
  const int steps = static_cast<int>(std::lround(duration / m.dt));
  for (int k = 0; k < steps; ++k) {
    const Vine3dStepReport r = stepper.step(s);
    EXPECT_TRUE(r.ok()) << "step " << k << ": " << qp::to_string(r.status) << " failure "
                        << static_cast<int>(r.failure) << " joint error " << r.joint_error;
    if (!r.ok()) return HUGE_VAL;
  }
  const Vec3 axis = s.orientation[0] * Vec3::UnitX();
  return std::atan2(axis.y(), axis.x());
}

/// Sticking below the Coulomb limit and sliding above it on the support (floor or cylinder).
void check_stick_and_slip(bool on_cylinder) {
  const double mu = 0.4, g_z = 9.81;
  Vine3dModel m;
  const double stuck = turn_on_a_support(mu, 0.5 * mu * g_z, 0.5, m, on_cylinder);
  // sticking: no motion beyond the QP's tolerance (1e-10 relative in the velocities)
  EXPECT_LT(std::abs(stuck), 1e-8);
  // sliding for 0.05 s: I_p thetadd = m d (g_y - mu g_z) with I_p = I_t + m d^2 while the body is
  // on its support; Anitescu's relaxation lifts a sliding contact (docs/physics/vine.md#friction)
  // and only lowers the friction, so the turn lies between the Coulomb and the frictionless ones
  // (less 1 % for the lever arm's cos theta, theta < 0.1)
  const double g_y = 2.0 * mu * g_z, t = 0.05;
  const double turned = turn_on_a_support(mu, g_y, t, m, on_cylinder);
  const double d = m.half_length[0], mass = m.mass[0];
  const double pivot_inertia = m.transverse_inertia[0] + mass * d * d;
  const double coulomb = 0.5 * mass * d * (g_y - mu * g_z) / pivot_inertia * t * t;
  const double frictionless = 0.5 * mass * d * g_y / pivot_inertia * t * t;
  std::printf(
      "%s: stuck %.3g rad in 0.5 s; sliding: %.4g rad in %.2g s (Coulomb %.4g, frictionless "
      "%.4g rad)\n",
      on_cylinder ? "cylinder" : "floor", stuck, turned, t, coulomb, frictionless);
  EXPECT_GT(turned, 0.99 * coulomb);
  EXPECT_LT(turned, frictionless);
}

TEST(Vine3dContact, FrictionOnAFloorSticksBelowTheCoulombLimitAndSlidesAbove) {
  // the far end carries half the weight (moments about the pin's horizontal axis), so friction
  // resists the turn with mu m g_z d against the sideways pull m g_y d: it sticks for g_y < mu g_z.
  // The sideways direction is an edge of the friction pyramid (its capacity there is mu N).
  check_stick_and_slip(false);
}

TEST(Vine3dContact, FrictionOnACylinderSticksBelowTheCoulombLimitAndSlidesAbove) {
  // the body rests at x = 1.8 d on the top line of a cylinder across it (normal +z; along the
  // cylinder's axis the surface is straight): the normal force N = m g_z d / (1.8 d) and friction's
  // moment mu N 1.8 d = mu m g_z d are those on the floor, so it sticks for g_y < mu g_z and turns
  // by between the Coulomb and the frictionless angles above (the lever 1.8 d / cos theta)
  check_stick_and_slip(true);
}

/// Contacts of one step in the two regimes of Coulomb's law.
struct CoulombCount {
  int sticking = 0, sliding = 0;
};

/// Checks Coulomb's law on every friction pyramid of the stepper's last QP, from its rows and
/// solution alone: a pyramid's rows are e_k . (v + omega x arm) >= -Phi / Delta t with the
/// translational parts e = n + mu t1, n - mu t1, n + mu t2, n - mu t2. Their values r_k = A_k V
/// give the point's speeds v_n = (r_0 + r_1) / 2, mu v_t1 = (r_0 - r_1) / 2, mu v_t2 = (r_2 - r_3)
/// / 2, their multipliers the impulse f_n = sum z_k, f_t1 = mu (z_0 - z_1), f_t2 = mu (z_2 - z_3).
/// The impulse lies in the pyramid (|f_t1| + |f_t2| <= mu f_n); a point that slides (|v_t| >
/// 1e-6 m/s) under load gets the friction of maximal dissipation, f_t . v_t = -mu f_n max(|v_t1|,
/// |v_t2|) (the minimum of f_t . v_t over the pyramid's section, a square with corners mu f_n t_i).
CoulombCount check_coulomb(const Vine3dStepper& stepper, double mu, int step) {
  const qp::QpProblem& qp = stepper.last_problem();
  const VecX& z = stepper.last_solution().z_in;
  const VecX r = qp.A_in * stepper.last_solution().x;
  const MatX a = MatX(qp.A_in);
  CoulombCount count;
  for (int g = 0; g + 3 < qp.num_inequalities(); g += 4) {
    // the translational part of each row: the first 3 entries of the body's 6 columns
    Vec3 e[4];
    for (int k = 0; k < 4; ++k) {
      int first = 0;
      while (first < a.cols() && a(g + k, first) == 0.0) ++first;
      e[k] = first < a.cols() ? Vec3(a.row(g + k).segment<3>(first - first % 6)) : Vec3::Zero();
    }
    if (e[1].norm() == 0.0 || e[3].norm() == 0.0) continue;      // not a pyramid (out of contact)
    EXPECT_NEAR((e[0] - e[1]).norm(), 2.0 * mu, 1e-12) << step;  // the pyramid's geometry
    const double f_n = z.segment<4>(g).sum();
    const double f_t1 = mu * (z[g] - z[g + 1]), f_t2 = mu * (z[g + 2] - z[g + 3]);
    const double v_t1 = (r[g] - r[g + 1]) / (2.0 * mu), v_t2 = (r[g + 2] - r[g + 3]) / (2.0 * mu);
    const double scale = 1e-9 * std::max(1.0, z.lpNorm<Eigen::Infinity>());
    EXPECT_LE(std::abs(f_t1) + std::abs(f_t2), mu * f_n + scale) << step;
    if (f_n <= scale) continue;
    const double v_t = std::max(std::abs(v_t1), std::abs(v_t2));
    if (v_t > 1e-6) {
      EXPECT_NEAR(f_t1 * v_t1 + f_t2 * v_t2, -mu * f_n * v_t, 1e-6 * mu * f_n * v_t) << step;
      ++count.sliding;
    } else {
      ++count.sticking;
    }
  }
  return count;
}

TEST(Vine3dContact, TableWithFrictionRunsThroughDependentRowsObeyingCoulomb) {
  // the table example (a vine on a table under gravity growing over a bump) with friction 0.3:
  // its QP at step 119 (1.18 s) has dependent active rows; the active-set method cycled there and
  // the interior-point method stalled at a KKT residual of 4.7e-10 (docs/physics/vine3d.md#limits)
  const double mu = 0.3;
  const Vine3dScene scene = load_vine3d_scene_file(
      testing::example_path("vine_3d_table_obstacles.yaml"), {"vine3d.contact.friction=0.3"});
  Vine3dStepper stepper(scene.model);
  Vine3dState s = scene.initial;
  CoulombCount total;
  for (int k = 0; k < 130; ++k) {
    const Vine3dStepReport r = stepper.step(s);
    ASSERT_TRUE(r.ok()) << "step " << k << ": " << qp::to_string(r.status) << ", KKT residual "
                        << r.kkt_residual;
    EXPECT_LE(r.kkt_residual, 1e-10);
    const CoulombCount c = check_coulomb(stepper, mu, k);
    total.sticking += c.sticking;
    total.sliding += c.sliding;
  }
  std::printf("contacts over 130 steps: %d sticking, %d sliding\n", total.sticking, total.sliding);
  EXPECT_GT(total.sticking, 0);
  EXPECT_GT(total.sliding, 0);
}

}  // namespace
}  // namespace tendril::vine3d
