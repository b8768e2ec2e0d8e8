// Contact along the whole body, friction only in contact, the broad phase and the point-contact
// option (issue 13; vine paper II-D, eq. 5, 13; docs/physics/vine.md#contact-along-the-body).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include <gtest/gtest.h>

#include "support/source_tree.hpp"
#include "support/vine_paper_scenes.hpp"
#include "tendril/core/error.hpp"
#include "tendril/vine/body_contact.hpp"
#include "tendril/vine/broad_phase.hpp"
#include "tendril/vine/initial_state.hpp"
#include "tendril/vine/vine_scene.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::vine {
namespace {

/// Distance between segments p0-p1 and q0-q1 (0 if they cross): the smallest end-to-segment
/// distance.
double segment_segment_distance(const Vec2& p0, const Vec2& p1, const Vec2& q0, const Vec2& q1) {
  const auto cross = [](const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); };
  const double d1 = cross(p1 - p0, q0 - p0), d2 = cross(p1 - p0, q1 - p0);
  const double d3 = cross(q1 - q0, p0 - q0), d4 = cross(q1 - q0, p1 - q0);
  if (((d1 > 0) != (d2 > 0)) && ((d3 > 0) != (d4 > 0))) return 0.0;
  const auto point_segment = [](const Vec2& p, const Vec2& a, const Vec2& b) {
    const double s = std::clamp((p - a).dot(b - a) / (b - a).squaredNorm(), 0.0, 1.0);
    return (p - (a + s * (b - a))).norm();
  };
  return std::min({point_segment(p0, q0, q1), point_segment(p1, q0, q1), point_segment(q0, p0, p1),
                   point_segment(q1, p0, p1)});
}

TEST(BodyContact, ClosestOffsetMatchesDenseSampling) {
  // sd(p(s)) sampled at 2e5 points: the returned offset is the minimiser to the sample spacing
  const std::vector<Obstacle> obstacles = {make_circle(Vec2(0.3, 0.5), 0.2),
                                           make_segment(Vec2(-1, 0.2), Vec2(1, 0.4), 0.01),
                                           make_box(Vec2(0.1, -0.05), Vec2(0.3, 0.2), 0.3, 0.02),
                                           make_half_plane(Vec2(0, -1), Vec2(0.2, 1.0))};
  const Vec2 centre(0.0, 0.0), axis = Vec2(1.0, 0.3).normalized();
  const double d = 0.5;
  for (const Obstacle& o : obstacles) {
    double distance = 0.0;
    const double s = closest_offset(o, centre, axis, d, distance);
    double best = 1e300;
    Vec2 n;
    for (int i = 0; i <= 200000; ++i) {
      const double t = -d + 2 * d * i / 200000.0;
      best = std::min(best, signed_distance<double>(o, Vec2(centre + t * axis), n));
    }
    EXPECT_LE(distance, best + 1e-12);
    EXPECT_NEAR(distance, best, 1e-5);
    EXPECT_NEAR(signed_distance<double>(o, Vec2(centre + s * axis), n), distance, 1e-15);
  }
}

TEST(BroadPhase, GridReturnsExactlyTheOverlappingBoxes) {
  std::vector<Obstacle> obstacles;
  for (int i = 0; i < 40; ++i)
    for (int j = 0; j < 25; ++j)
      obstacles.push_back(
          make_circle(Vec2(0.05 * i, 0.07 * j + 0.01 * (i % 3)), 0.004 + 0.001 * (j % 4)));
  obstacles.push_back(make_half_plane(Vec2(0, -1), Vec2(0, 1)));
  const ObstacleGrid grid(obstacles);
  for (const auto& [lo, hi] :
       {std::pair{Vec2(0.1, 0.1), Vec2(0.2, 0.15)}, std::pair{Vec2(-1, -1), Vec2(-0.5, -0.5)},
        std::pair{Vec2(1.5, 1.0), Vec2(3.0, 3.0)}, std::pair{Vec2(0.0, 0.0), Vec2(0.0, 0.0)}}) {
    std::vector<int> found;
    grid.query(lo, hi, found);
    std::sort(found.begin(), found.end());
    std::vector<int> expected;
    for (int o = 0; o < static_cast<int>(obstacles.size()); ++o) {
      Vec2 olo, ohi;
      if (!obstacle_bounds(obstacles[o], olo, ohi) ||
          ((olo.array() <= hi.array()).all() && (ohi.array() >= lo.array()).all()))
        expected.push_back(o);
    }
    EXPECT_EQ(found, expected);
  }
}

/// Exact distance [m] from p to the obstacle's surface (negative inside), computed here: the
/// half-plane's signed distance, or the distance to the convex core polygon (negative depth
/// inside it) minus the corner radius.
double exact_obstacle_distance(const Obstacle& o, const Vec2& p) {
  if (o.kind == ObstacleKind::half_plane) return o.normal.dot(p - o.vertices[0]);
  const std::size_t n = o.vertices.size();
  double outside = std::numeric_limits<double>::infinity(), depth = outside;
  bool inside = n >= 3;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2& a = o.vertices[i];
    const Vec2& b = o.vertices[(i + 1) % n];
    const Vec2 ab = b - a;
    const double t =
        ab.squaredNorm() > 0.0 ? std::clamp((p - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0) : 0.0;
    outside = std::min(outside, (p - (a + t * ab)).norm());
    if (n >= 3) {
      const double cross = ab.x() * (p - a).y() - ab.y() * (p - a).x();  // > 0: left of a CCW edge
      inside = inside && cross >= 0.0;
      depth = std::min(depth, cross / ab.norm());
    }
  }
  return (inside ? -depth : outside) - o.corner_radius;
}

/// The smallest exact distance from a contact point to an obstacle's surface minus the contact
/// radius [m], and per obstacle whether a point came within `touch` of it.
double contact_point_clearance(const VineModel& m, const VecX& q, double touch,
                               std::vector<bool>& touched) {
  double worst = std::numeric_limits<double>::infinity();
  for (const ContactPoint& c : m.contact_points) {
    const double a = q(3 * c.body + 2);
    const Vec2 p = q.segment<2>(3 * c.body) + c.offset * Vec2(std::cos(a), std::sin(a));
    for (std::size_t o = 0; o < m.obstacles.size(); ++o) {
      const double gap = exact_obstacle_distance(m.obstacles[o], p) - m.contact_radius;
      worst = std::min(worst, gap);
      if (gap < touch) touched[o] = true;
    }
  }
  return worst;
}

/// Sum of the prismatic joints' extensions [m]: the gaps between the distal end of body j - 1
/// and the proximal end of body j at odd joints j (vine_model.hpp), measured from the poses.
double prismatic_extension(const VineModel& m, const VecX& q) {
  const auto end = [&](int b, double side) {
    const double a = q(3 * b + 2);
    return Vec2(q.segment<2>(3 * b) + side * m.half_length[b] * Vec2(std::cos(a), std::sin(a)));
  };
  double sum = 0.0;
  for (int j = 1; j < m.num_bodies; j += 2) sum += (end(j, -1.0) - end(j - 1, 1.0)).norm();
  return sum;
}

// The point-contact model (the paper's contact points) against references computed here, not
// earlier output: every contact point stays outside every obstacle, by its exact distance, to the
// per-step linearisation's remainder (bound 1e-3 of the contact radius, as for the thin walls
// below), while touching them (the checks are not vacuous); in the runtime scene, which grows at
// a commanded constant rate u = 0.04 m/s, the prismatic joints' extensions add up to u t (closed
// form) to the joint error the stepper allows (limits.joint_error, 1e-3 m; measured 3.8e-5 m over
// 0.16 m of growth), and the tip is deflected below the circle it meets (the circle's centre is
// above the axis).
TEST(PointContact, RuntimeSceneStaysOutsideTheCircleAndGrowsAtTheCommandedRate) {
  VineStepper stepper(testing::runtime_scene_model(30));
  const VineModel& m = stepper.model();
  ASSERT_EQ(m.contact_model, ContactModel::point);
  VineState s = straight_state(m, 0.0);
  std::vector<bool> touched(m.obstacles.size(), false);
  double worst = 0.0, worst_growth = 0.0;
  for (int k = 1; k <= 400; ++k) {
    ASSERT_EQ(stepper.step(s).status, QpStatus::solved) << "step " << k;
    worst = std::min(worst, contact_point_clearance(m, s.q, 1e-4, touched));
    worst_growth = std::max(worst_growth, std::abs(prismatic_extension(m, s.q) - 0.04 * k * m.dt));
  }
  EXPECT_GT(worst, -1e-3 * m.contact_radius);
  EXPECT_TRUE(touched[0]) << "the vine never reached the circle";
  EXPECT_LT(worst_growth, m.max_joint_error);
  const int tip = m.num_bodies - 1;
  EXPECT_LT(s.q(3 * tip + 1), -m.contact_radius) << "tip not deflected below the circle";
}

TEST(PointContact, ClutteredExampleStaysOutsideEveryObstacle) {
  const VineScene scene =
      load_vine_scene_file(testing::source_tree() / "examples" / "vine_cluttered.yaml");
  ASSERT_EQ(scene.model.contact_model, ContactModel::point);
  VineStepper stepper(scene.model);
  VineState c = scene.initial;
  std::vector<bool> touched(scene.model.obstacles.size(), false);
  double worst = contact_point_clearance(scene.model, c.q, 1e-4, touched);
  for (long k = 0; k < scene.steps; ++k) {
    ASSERT_EQ(stepper.step(c).status, QpStatus::solved) << "step " << k;
    worst = std::min(worst, contact_point_clearance(scene.model, c.q, 1e-4, touched));
  }
  EXPECT_GT(worst, -1e-3 * scene.model.contact_radius);
  EXPECT_TRUE(std::find(touched.begin(), touched.end(), true) != touched.end()) << "no contact";
}

/// A vine sagging under gravity onto a thin floor wall while it grows, then growing into a thin
/// oblique wall and a thin post (walls 4 mm and 2 mm thick, tube 24 mm).
VineModel thin_wall_scene(ContactModel contact) {
  UniformVineParameters p;
  p.bodies = 7;
  p.half_length = 0.02;
  p.tube_diameter = 0.024;
  p.mass = 2e-3;
  p.stiffness = 0.02;
  p.damping = 2e-4;
  p.dt = 0.01;
  VineModel m = uniform_vine(p);
  m.springs = SpringIntegration::implicit;
  m.contact_model = contact;
  m.gravity = Vec2(0.0, -9.81);
  m.growth = GrowthSchedule::constant(0.06);
  m.obstacles = {
      make_segment(Vec2(0.06, -0.022), Vec2(0.6, -0.022),
                   0.002),  // floor, surface 8 mm below the axis
      make_segment(Vec2(0.36, -0.06), Vec2(0.44, 0.12), 0.002),        // oblique wall ahead
      make_segment(Vec2(0.17, -0.0165), Vec2(0.17, -0.0145), 0.001)};  // thin post under body 4
  return m;
}

/// Runs the thin-wall scene for 3 s; returns the smallest exact axis-to-wall-core distance minus
/// (wall radius + contact radius) over all bodies, walls and steps, and counts contact steps per
/// wall.
double thin_wall_clearance(ContactModel contact, std::vector<int>& contact_steps) {
  const VineModel m = thin_wall_scene(contact);
  VineStepper stepper(m);
  VineState s = straight_state(m, 0.0);
  contact_steps.assign(m.obstacles.size(), 0);
  double worst = 1e300;
  for (int k = 0; k < 300; ++k) {
    const VineStepReport rep = stepper.step(s);
    EXPECT_TRUE(rep.ok()) << "step " << k;
    if (!rep.ok()) break;
    for (const ContactInfo& c : stepper.contacts())
      if (c.normal_impulse > 0.0) ++contact_steps[c.obstacle];
    for (int b = 0; b < m.num_bodies; ++b) {
      const Vec2 e(std::cos(s.q(3 * b + 2)), std::sin(s.q(3 * b + 2)));
      const Vec2 centre = s.q.segment<2>(3 * b);
      for (const Obstacle& o : m.obstacles)
        worst = std::min(worst, segment_segment_distance(centre - m.half_length[b] * e,
                                                         centre + m.half_length[b] * e,
                                                         o.vertices[0], o.vertices[1]) -
                                    o.corner_radius - m.contact_radius);
    }
  }
  return worst;
}

TEST(BodyContact, ThinWallsAreNeverCrossed) {
  std::vector<int> steps;
  const double clearance = thin_wall_clearance(ContactModel::body, steps);
  std::printf(
      "body contact: smallest clearance %.3g m; contact steps floor %d, oblique wall %d, post %d\n",
      clearance, steps[0], steps[1], steps[2]);
  EXPECT_GT(steps[0], 50);
  EXPECT_GT(steps[1], 20);
  EXPECT_GT(steps[2], 20);
  // crossing needs a clearance of -(wall radius + contact radius) = -13 mm; the capsules overlap
  // the walls by at most the linearisation's remainder (measured 0.64 um; bound 1e-3 tube radius)
  EXPECT_GT(clearance, -1.2e-5);
  // the same scene with the paper's contact points: the post sinks into the tube between two points
  std::vector<int> point_steps;
  const double point_clearance = thin_wall_clearance(ContactModel::point, point_steps);
  std::printf("point contact: smallest clearance %.3g m\n", point_clearance);
  EXPECT_LT(point_clearance, -1e-3);
}

TEST(Friction, ZeroUntilContact) {
  // one body pinned at the base spinning at 10 rad/s; its tip passes a circle at a 1 mm gap. The
  // old cone rows (n +- mu t) . v >= -Phi / dt would cap the tangential speed at Phi / (mu dt)
  // = 0.2 m/s (< 0.4 m/s): friction at a distance. Now the motion equals the free one.
  UniformVineParameters p;
  p.bodies = 1;
  p.half_length = 0.02;
  p.tube_diameter = 0.01;
  p.dt = 0.01;
  VineModel free_model = uniform_vine(p);
  for (ContactModel contact : {ContactModel::body, ContactModel::point}) {
    VineModel m = free_model;
    m.contact_model = contact;
    m.friction = 0.5;
    const double reach = 0.04 + 0.005;  // tip radius + contact radius
    m.obstacles = {make_circle(Vec2(0.0, reach + 0.001 + 0.01), 0.01)};
    VineStepper with(m), without(free_model);
    VineState a = straight_state(m, 0.0), b = a;
    a.v(2) = b.v(2) = 10.0;
    a.v(1) = b.v(1) = 10.0 * 0.02;
    int near = 0;
    for (int k = 0; k < 40; ++k) {
      ASSERT_TRUE(with.step(a).ok());
      ASSERT_TRUE(without.step(b).ok());
      EXPECT_LT((a.q - b.q).lpNorm<Eigen::Infinity>(), 1e-12) << "step " << k;
      for (const ContactInfo& c : with.contacts()) {
        EXPECT_EQ(c.tangent_impulse, 0.0);
        EXPECT_FALSE(c.friction);
        ++near;
      }
    }
    EXPECT_GT(near, 0) << "the circle was never near";
    // moved 2 mm closer the tip hits it: friction acts from the step in contact, not before
    m.obstacles = {make_circle(Vec2(0.0, reach - 0.001 + 0.01), 0.01)};
    VineStepper hit(m);
    VineState h = straight_state(m, 0.0);
    h.v(2) = 10.0;
    h.v(1) = 0.2;
    bool touched = false;
    for (int k = 0; k < 40 && !touched; ++k) {
      ASSERT_EQ(hit.step(h).status, QpStatus::solved);
      for (const ContactInfo& c : hit.contacts()) {
        if (c.distance > m.contact_gap) {
          EXPECT_EQ(c.tangent_impulse, 0.0);
        }
        if (c.friction && c.normal_impulse > 0.0) {
          // opposes the sliding of the contact point along t = (-n_y, n_x)
          const double th = h.q(2);
          const Vec2 point = h.q.segment<2>(0) + c.offset * Vec2(std::cos(th), std::sin(th));
          const Vec2 velocity =
              h.v.segment<2>(0) + c.offset * h.v(2) * Vec2(-std::sin(th), std::cos(th));
          Vec2 n;
          signed_distance<double>(m.obstacles[0], point, n);
          EXPECT_LT(c.tangent_impulse * Vec2(-n.y(), n.x()).dot(velocity), 0.0);
          touched = true;
        }
      }
    }
    EXPECT_TRUE(touched);
  }
}

TEST(BroadPhase, ThousandFarObstaclesChangeNothing) {
  // the runtime scene with 999 circles far from the robot: the same trajectory, and no row for them
  VineModel m = testing::runtime_scene_model(30);
  m.contact_model = ContactModel::body;
  VineModel crowded = m;
  for (int i = 0; i < 999; ++i)
    crowded.obstacles.push_back(
        make_circle(Vec2(2.0 + 0.05 * (i % 40), 1.0 + 0.05 * (i / 40)), 0.01));
  VineStepper a(m), b(crowded);
  VineState sa = straight_state(m, 0.0), sb = sa;
  for (int k = 0; k < 200; ++k) {
    const VineStepReport ra = a.step(sa), rb = b.step(sb);
    ASSERT_TRUE(ra.ok() && rb.ok());
    EXPECT_EQ(ra.contact_pairs, rb.contact_pairs);
  }
  EXPECT_LT((sa.q - sb.q).lpNorm<Eigen::Infinity>(), 1e-12);
}

}  // namespace
}  // namespace tendril::vine

namespace tendril::vine {
namespace {

/// A straight 4-body vine growing head-on into a wall 3 mm ahead of its tip capsule.
VineModel head_on_scene(GrowthControl control) {
  UniformVineParameters p;
  p.bodies = 4;
  p.half_length = 0.02;
  p.tube_diameter = 0.024;
  p.stiffness = 0.05;
  p.damping = 1e-4;
  p.dt = 0.01;
  VineModel m = uniform_vine(p);
  m.springs = SpringIntegration::implicit;
  m.growth = GrowthSchedule::constant(0.04);
  m.growth_control = control;
  m.growth_force = 0.2;
  m.obstacles = {make_half_plane(Vec2(0.16 + m.contact_radius + 0.003, 0.0), Vec2(-1.0, 0.0))};
  return m;
}

TEST(Jam, HeadOnStallsBalancesTheGrowthForceAndResumes) {
  // force-limited growth (docs/physics/vine.md#jams): every prismatic joint pushes with at most F
  // up to its rate; the joints act in series, so a stalled tip presses on the wall with F:
  // normal impulse F dt per step, achieved growth rate 0
  const VineModel m = head_on_scene(GrowthControl::force_limited);
  VineStepper stepper(m);
  VineState s = straight_state(m, 0.0);
  VineStepReport rep;
  for (int k = 0; k < 60; ++k) {
    rep = stepper.step(s);
    ASSERT_TRUE(rep.ok()) << "step " << k;
    if (k == 0) {
      EXPECT_NEAR(rep.growth_rate, 0.04, 1e-12);  // free: the commanded rate
    }
  }
  EXPECT_EQ(rep.active_contacts, 1);
  EXPECT_LT(std::abs(rep.growth_rate), 1e-12);
  double normal = 0.0;
  for (const ContactInfo& c : stepper.contacts()) normal += c.normal_impulse;
  EXPECT_NEAR(normal, m.growth_force * m.dt, 1e-12);
  EXPECT_LT(s.v.lpNorm<Eigen::Infinity>(), 1e-12);
  // the obstacle removed: growth resumes at the commanded rate
  VineModel open = m;
  open.obstacles.clear();
  VineStepper resumed(open);
  rep = resumed.step(s);
  ASSERT_TRUE(rep.ok());
  EXPECT_NEAR(rep.growth_rate, 0.04, 1e-12);
  // the hard rate constraint cannot stall: the same jam is an infeasible step (a head-on wall: the
  // growth rate and non-penetration contradict each other, and the solver returns a Farkas
  // certificate), reported
  VineStepper hard(head_on_scene(GrowthControl::rate));
  VineState h = straight_state(m, 0.0);
  QpStatus status = QpStatus::solved;
  for (int k = 0; k < 60 && status == QpStatus::solved; ++k) status = hard.step(h).status;
  EXPECT_EQ(status, QpStatus::infeasible) << to_string(status);
}

}  // namespace
}  // namespace tendril::vine

namespace tendril::vine {
namespace {

TEST(InitialState, ProjectedMeasuredStateMeetsTheConstraints) {
  // a noisy measured centre-line (a quarter circle of radius 0.3 m with +-0.5 mm noise) next to a
  // circle it touches: the start state meets the joints and contacts to 1e-12 m after projection
  VineModel m = testing::runtime_scene_model(10);
  m.contact_model = ContactModel::body;
  std::vector<Vec2> points;
  for (int i = 0; i <= 40; ++i) {
    const double a = 0.5 * M_PI * i / 40.0 * 0.6;
    const double noise = 5e-4 * std::sin(7.0 * i);
    points.emplace_back((0.3 + noise) * std::sin(a), 0.3 - (0.3 + noise) * std::cos(a));
  }
  points[0] = m.base;
  m.obstacles = {
      make_circle(Vec2(0.12, -0.012 - 0.01 + 1e-4), 0.01)};  // 0.1 mm into the tube near x = 0.12 m
  ProjectionReport report;
  const VineState s = state_from_centerline(m, points, 2e-3, "centerline", &report);
  VineStepper stepper(m);
  EXPECT_LT(stepper.joint_errors_at(s.q).lpNorm<Eigen::Infinity>(), 1e-12);
  EXPECT_GT(stepper.contact_distances_at(s.q).minCoeff(), -1e-12);
  EXPECT_GT(report.max_move, 0.0);
  EXPECT_LT(report.max_move, 2e-3);
  std::printf("centre-line start: moved %.3g m (body %d) in %d iterations\n", report.max_move,
              report.moved_body, report.iterations);
  // it runs
  VineState run = s;
  for (int k = 0; k < 20; ++k) ASSERT_TRUE(stepper.step(run).ok());
}

TEST(InitialState, SmallPenetrationIsProjectedABrokenPinIsRefused) {
  VineModel m = testing::runtime_scene_model(6);
  m.contact_model = ContactModel::body;
  VineState s = straight_state(m, 0.0);
  const double tip = centerline_points(m, s.q).back().x();
  m.obstacles = {make_circle(Vec2(tip + m.contact_radius + 0.01 - 1.3e-6, 0.0),
                             0.01)};  // 1.3 um into the tip's capsule
  const ProjectionReport report = project_state(m, s, 1e-3, "vine.initial_state");
  // the prismatic joints shorten; no point moves more than the penetration
  EXPECT_GT(report.max_move, 0.0);
  EXPECT_LE(report.max_move, 1.3e-6 + 1e-12);
  VineStepper stepper(m);
  EXPECT_GT(stepper.contact_distances_at(s.q).minCoeff(), -1e-12);
  // body 2 moved 5 cm off its pin: refused, naming the body and the distance
  VineState broken = straight_state(m, 0.0);
  broken.q(3 * 2 + 1) += 0.05;
  broken.q(3 * 3 + 1) += 0.05;
  broken.q(3 * 4 + 1) += 0.05;
  broken.q(3 * 5 + 1) += 0.05;
  try {
    project_state(m, broken, 1e-3, "vine.initial_state");
    FAIL() << "a 5 cm broken pin was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key_path(), "vine.initial_state");
    EXPECT_NE(std::string(e.what()).find("tolerance"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tendril::vine

namespace tendril::vine {
namespace {

TEST(BroadPhase, AStepBeyondTheReachIsSolvedAgainWithThePair) {
  // at rest the reach is the contact radius (12 mm): a wall 15 mm ahead of the tip capsule gets no
  // row; growth at 3 m/s moves the tip 30 mm in one step, so the step must be solved again with
  // the wall's row and stop the tip on it
  for (ContactModel contact : {ContactModel::body, ContactModel::point}) {
    VineModel m = head_on_scene(GrowthControl::force_limited);
    m.contact_model = contact;
    m.growth = GrowthSchedule::constant(3.0);
    m.growth_force = 1e3;
    m.obstacles = {make_half_plane(Vec2(0.16 + m.contact_radius + 0.015, 0.0), Vec2(-1.0, 0.0))};
    VineStepper stepper(m);
    VineState s = straight_state(m, 0.0);
    const VineStepReport rep = stepper.step(s);
    ASSERT_TRUE(rep.ok());
    EXPECT_EQ(rep.qp_solves, 2);
    EXPECT_EQ(rep.active_contacts, 1);
    EXPECT_NEAR(rep.growth_rate, 0.015 / m.dt, 1e-9);  // exactly to the wall
    EXPECT_GT(stepper.contact_distances_at(s.q).minCoeff(), -1e-12);
  }
}

}  // namespace
}  // namespace tendril::vine
