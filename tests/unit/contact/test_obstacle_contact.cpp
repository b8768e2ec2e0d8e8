// Contact and friction of rod nodes with rigid obstacles (mat_dismech sec. 5.2, eq. 25-26 and 23):
// the conformance suite for the ground plane, sphere, capsule and box, fixed and moving, in the
// smooth zone and in deep contact, and friction in stick, slip and the transition.
#include <gtest/gtest.h>

#include "forces/small_rod.hpp"
#include "support/conformance.hpp"
#include "tendril/contact/friction/obstacle_friction.hpp"
#include "tendril/contact/obstacle_contact.hpp"
#include "tendril/core/error.hpp"

namespace tendril::contact {
namespace {

using namespace conformance;

/// A small rod whose nodes sit at gaps of -delta .. +delta from the obstacle along its normal.
struct ContactSetup {
  testing::SmallRod rod = testing::make_small_rod(6, 3);
  ContactNodes nodes;
  ContactParameters params;
  ContactSetup() {
    params.stiffness = 50.0;
    params.distance_tolerance = 0.02;
    params.slip_tolerance = 0.05;
    params.friction = 0.4;
    for (int i = 0; i < 6; ++i) {
      nodes.nodes.push_back(i);
      nodes.radius.push_back(0.01 + 0.002 * i);
    }
  }
  /// Places node i at gap (i / 5 * 2 - 1) * 1.2 delta from the obstacle, along its normal at the
  /// node.
  void place_on(const RigidObstacle& obstacle, double time = 0.0) {
    for (int i = 0; i < 6; ++i) {
      Vec3 x = rod.q.segment<3>(3 * i);
      for (int it = 0; it < 50; ++it) {
        const SurfaceDistance d = obstacle.distance(x, time);
        const double target =
            nodes.radius[i] + (i / 5.0 * 2.0 - 1.0) * 1.2 * params.distance_tolerance;
        x += (target - d.distance) * d.normal;
      }
      rod.q.segment<3>(3 * i) = x;
    }
  }
};

std::vector<std::shared_ptr<RigidObstacle>> all_obstacles() {
  const double angle = 0.4;
  const Mat3 rotation = Eigen::AngleAxisd(angle, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  return {std::make_shared<HalfSpace>(Vec3(0, 0, -0.05), Vec3(0.1, -0.2, 1.0)),
          std::make_shared<Sphere>(Vec3(0.25, 0.0, -0.4), 0.35),
          std::make_shared<Capsule>(Vec3(-0.1, -0.2, -0.3), Vec3(0.6, 0.3, -0.35), 0.2),
          std::make_shared<Box>(Vec3(0.25, 0.0, -0.3), Vec3(0.4, 0.3, 0.2), rotation)};
}

/// Edges (radius 0.03 m) of the small rod, for the obstacles placed by obstacles_under_edge.
ContactEdges small_rod_edges() {
  ContactEdges edges;
  for (int e = 0; e < 5; ++e) {
    edges.nodes.push_back({e, e + 1});
    edges.radius.push_back(0.03);
  }
  return edges;
}

TEST(ObstacleContact, EveryShapeConformsInAndAroundTheSmoothZone) {
  for (const auto& obstacle : all_obstacles()) {
    SCOPED_TRACE(std::string(obstacle->shape()));
    ContactSetup s;
    s.place_on(*obstacle);
    const ObstacleContact term(obstacle, s.nodes, s.params);
    const EnergyEval e = evaluate_energy(term, s.rod.model, s.rod.frames, s.rod.q);
    EXPECT_GT(e.energy, 0.0);
    expect_energy_conforms(term, s.rod.model, s.rod.frames, s.rod.q);
    const ContactStatistics stats = term.statistics(s.rod.model, s.rod.q, 0.0);
    EXPECT_NEAR(stats.min_gap, -1.2 * s.params.distance_tolerance, 1e-9);
    EXPECT_EQ(stats.active,
              5);  // gaps -1.2, -0.72, -0.24, 0.24, 0.72 delta are below delta, 1.2 delta is not
  }
}

/// A sphere, a capsule across the edge and a box with an edge across it (a ridge), each placed so
/// that the closest point of edge (2, 3) of the small rod is `gap` [m] from its surface off the
/// edge's middle (closer than any node), with the edge's radius r_e [m].
std::vector<std::shared_ptr<RigidObstacle>> obstacles_under_edge(const VecX& q, double r_e,
                                                                 double gap) {
  const Vec3 a = q.segment<3>(6), b = q.segment<3>(9), d = (b - a).normalized();
  const Vec3 n = d.cross(Vec3::UnitY()).normalized(), across = n.cross(d);
  const Vec3 touch = a + 0.4 * (b - a) - (r_e + gap) * n;  // the obstacle's closest point
  const double radius = 0.01, half = 0.02;
  Mat3 rotation;
  rotation.col(0) = (d + n) / std::sqrt(2.0);
  rotation.col(2) = (n - d) / std::sqrt(2.0);
  rotation.col(1) = rotation.col(2).cross(rotation.col(0));
  return {
      std::make_shared<Sphere>(touch - radius * n, radius),
      std::make_shared<Capsule>(touch - radius * n - 0.05 * across,
                                touch - radius * n + 0.05 * across, radius),
      std::make_shared<Box>(touch - std::sqrt(2.0) * half * n, Vec3(half, half, half), rotation)};
}

TEST(ObstacleContact, EdgesAgainstTheCoreConformAndAreSeenByTheStatistics) {
  ContactSetup s;
  const ContactEdges edges = small_rod_edges();
  // the centre line stays outside (r_e + gap > 0), where the core gives the exact distance
  for (double factor : {-1.2, -0.3, 0.3, 0.9}) {
    const double gap = factor * s.params.distance_tolerance;
    for (const auto& obstacle : obstacles_under_edge(s.rod.q, 0.03, gap)) {
      SCOPED_TRACE(std::string(obstacle->shape()) + " at gap " + std::to_string(gap));
      const ObstacleContact term(obstacle, s.nodes, s.params, edges);
      const EnergyEval e = evaluate_energy(term, s.rod.model, s.rod.frames, s.rod.q);
      EXPECT_GT(e.energy, 0.0);
      Tolerances tol;
      tol.step = 1e-8;  // as for the edge pairs (test_self_contact.cpp): the penalty's K1 = 15 /
                        // delta is steep
      expect_energy_conforms(term, s.rod.model, s.rod.frames, s.rod.q, tol);
      // the edge is the closest: its exact gap is the smallest
      EXPECT_NEAR(term.statistics(s.rod.model, s.rod.q, 0.0).min_gap, gap, 1e-9);
      // without the edges the nodes alone see a larger gap
      EXPECT_GT(ObstacleContact(obstacle, s.nodes, s.params)
                    .statistics(s.rod.model, s.rod.q, 0.0)
                    .min_gap,
                gap);
    }
  }
}

TEST(ObstacleContact, GroundCarriesTheNodesWeightAtTheClosedFormGap) {
  // a node of mass m resting on z = 0: k_c b'(g) = -m g_z at equilibrium (eq. 25); deep contact
  // (g <= -delta) gives the linear spring 2 k_c (-g) = m g
  ContactSetup s;
  auto ground = std::make_shared<HalfSpace>(Vec3::Zero(), Vec3::UnitZ());
  ContactNodes one{{0}, {0.0}};
  s.params.distance_tolerance = 1e-4;
  const ObstacleContact term(ground, one, s.params);
  const double weight = 0.3;  // [N]
  const double gap = -weight / (2 * s.params.stiffness);
  VecX q = s.rod.q;
  q.segment<3>(0) = Vec3(0.0, 0.0, gap);
  const EnergyEval e = evaluate_energy(term, s.rod.model, s.rod.frames, q, false);
  EXPECT_NEAR(-e.gradient[2], weight, 1e-6 * weight);
}

TEST(ObstacleContact, MovingObstacleUsesItsDisplacement) {
  ContactSetup s;
  auto sphere = std::make_shared<Sphere>(Vec3(0.25, 0.0, -0.4), 0.35);
  sphere->set_path([](double t) { return Vec3(0.1 * t, 0.0, 0.05 * t); });
  s.place_on(*sphere, 0.7);
  const ObstacleContact term(sphere, s.nodes, s.params);
  const ContactStatistics stats = term.statistics(s.rod.model, s.rod.q, 0.7);
  EXPECT_NEAR(stats.min_gap, -1.2 * s.params.distance_tolerance, 1e-9);
  EXPECT_NEAR(sphere->velocity(0.7).x(), 0.1, 1e-9);
}

/// Friction conformance at t = 0.3 s at slip speeds relative to nu = 0.05: stick (1e-3 nu),
/// transition (0.1 .. 1 nu), slip (10 nu); `step`: the finite-difference step [m].
void expect_friction_conforms(const ObstacleFriction& term, const ContactSetup& s, double step) {
  for (double speed : {5e-5, 5e-3, 0.05, 0.5}) {
    SCOPED_TRACE(speed);
    const VecX u = perturbed(s.rod.model, VecX::Zero(s.rod.q.size()), speed, 0.0, 11);
    EXPECT_GT(evaluate_force(term, s.rod.model, s.rod.frames, s.rod.q, u, 0.3).force.norm(), 0.0);
    Tolerances tol;
    tol.step = step;
    tol.hessian = 2e-5;
    expect_force_conforms(term, s.rod.model, s.rod.frames, s.rod.q, u, 0.3, tol);
  }
}

TEST(ObstacleFriction, ConformsInStickSlipAndTransitionOnEveryShape) {
  for (const auto& obstacle : all_obstacles()) {
    SCOPED_TRACE(std::string(obstacle->shape()));
    obstacle->set_path([](double t) { return Vec3(0.02 * t, -0.01 * t, 0.0); });
    ContactSetup s;
    s.place_on(*obstacle, 0.3);
    const ObstacleFriction term(obstacle, s.nodes, s.params);
    EXPECT_FALSE(term.has_symmetric_jacobian());
    expect_friction_conforms(term, s, 1e-7);
  }
}

TEST(ObstacleFriction, SlidingNodeFeelsMuTimesNormalForceAgainstItsSlip) {
  ContactSetup s;
  auto ground = std::make_shared<HalfSpace>(Vec3::Zero(), Vec3::UnitZ());
  ContactNodes one{{0}, {0.0}};
  VecX q = s.rod.q;
  q.segment<3>(0) = Vec3(0.0, 0.0, -0.01);
  VecX u = VecX::Zero(q.size());
  u.segment<3>(0) = Vec3(3.0, -4.0, 0.7);  // slip 5 m/s = 100 nu: gamma = 1
  const ObstacleContact contact(ground, one, s.params);
  const ObstacleFriction friction(ground, one, s.params);
  const double normal = -evaluate_energy(contact, s.rod.model, s.rod.frames, q, false).gradient[2];
  const Vec3 f = evaluate_force(friction, s.rod.model, s.rod.frames, q, u, 0.0).force.segment<3>(0);
  EXPECT_NEAR(f.x(), -s.params.friction * normal * 0.6, 1e-12);
  EXPECT_NEAR(f.y(), s.params.friction * normal * 0.8, 1e-12);
  EXPECT_EQ(f.z(), 0.0);
}

TEST(ObstacleFriction, EdgesAgainstTheCoreConformInStickSlipAndTransition) {
  ContactSetup s;
  const ContactEdges edges = small_rod_edges();
  for (double factor : {-1.2, -0.3, 0.5}) {
    for (const auto& obstacle :
         obstacles_under_edge(s.rod.q, 0.03, factor * s.params.distance_tolerance)) {
      SCOPED_TRACE(std::string(obstacle->shape()) + " at gap factor " + std::to_string(factor));
      // moving at (0.02, -0.01, 0) m/s, at its placement at t = 0.3 s
      obstacle->set_path([](double t) { return Vec3(0.02 * (t - 0.3), -0.01 * (t - 0.3), 0.0); });
      const ObstacleFriction term(obstacle, ContactNodes{}, s.params, edges);
      expect_friction_conforms(term, s, 1e-8);
    }
  }
}

TEST(ObstacleFriction, EdgeSlidingAcrossTheCoreFeelsMuTimesItsNormalForce) {
  // the edge (2, 3) across each obstacle, its nodes out of reach, both nodes sliding at 10 nu
  // along the obstacle's surface, perpendicular to the edge: the friction on the edge sums to
  // mu |F_n| against the slip (gamma(10 nu) = tanh(75) = 1), F_n the contact force on the edge
  ContactSetup s;
  ContactEdges edge{{{2, 3}}, {0.03}};
  const Vec3 d = (s.rod.q.segment<3>(9) - s.rod.q.segment<3>(6)).normalized();
  const Vec3 n = d.cross(Vec3::UnitY()).normalized(), across = n.cross(d);
  VecX u = VecX::Zero(s.rod.q.size());
  u.segment<3>(6) = u.segment<3>(9) = 10.0 * s.params.slip_tolerance * across;
  for (const auto& obstacle :
       obstacles_under_edge(s.rod.q, 0.03, -0.3 * s.params.distance_tolerance)) {
    SCOPED_TRACE(std::string(obstacle->shape()));
    const ObstacleContact contact(obstacle, ContactNodes{}, s.params, edge);
    const ObstacleFriction friction(obstacle, ContactNodes{}, s.params, edge);
    const VecX g = evaluate_energy(contact, s.rod.model, s.rod.frames, s.rod.q, false).gradient;
    const double normal = (g.segment<3>(6) + g.segment<3>(9)).norm();
    const VecX f = evaluate_force(friction, s.rod.model, s.rod.frames, s.rod.q, u, 0.0).force;
    const Vec3 total = f.segment<3>(6) + f.segment<3>(9);
    EXPECT_GT(normal, 0.0);
    EXPECT_NEAR(total.dot(-across), s.params.friction * normal, 1e-12 * normal);
    EXPECT_NEAR((total + total.dot(-across) * across).norm(), 0.0, 1e-12 * normal);
  }
}

TEST(ObstacleContact, RejectsBadParameters) {
  ContactSetup s;
  auto ground = std::make_shared<HalfSpace>(Vec3::Zero(), Vec3::UnitZ());
  ContactParameters p = s.params;
  p.stiffness = -1.0;
  EXPECT_THROW(ObstacleContact(ground, s.nodes, p), InputError);
  p = s.params;
  p.distance_tolerance = 0.0;
  EXPECT_THROW(ObstacleContact(ground, s.nodes, p), InputError);
  p = s.params;
  p.friction = -0.1;
  EXPECT_THROW(ObstacleFriction(ground, s.nodes, p), InputError);
  EXPECT_THROW(HalfSpace(Vec3::Zero(), Vec3::Zero()), InputError);
  EXPECT_THROW(Sphere(Vec3::Zero(), -1.0), InputError);
  EXPECT_THROW(Box(Vec3::Zero(), Vec3(1, 0, 1)), InputError);
}

}  // namespace
}  // namespace tendril::contact
