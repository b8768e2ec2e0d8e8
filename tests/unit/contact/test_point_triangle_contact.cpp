// IMC contact between nodes and triangles (shell contact, point-triangle pairs; the smooth penalty
// of mat_dismech eq. 21 on the point-triangle distance, docs/physics/contact.md "Shell contact"):
// conformance inside and at the edges of the smooth zone in every distance regime, equal and
// opposite pair forces of magnitude -k_c b'(g), the exclusion of mesh neighbours touching at the
// start, friction (eq. 23-24 on the point-triangle pairs) in stick, slip and the transition in
// every regime, the point-triangle and edge-triangle broad phases against all pairs, the
// segment-triangle crossing (a start's edge through a sheet) against a linear solve, and the
// point-triangle continuous collision check (additive conservative advancement, Li, Kaufman and
// Jiang 2021, Algorithm 1).
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <algorithm>
#include <optional>
#include <random>

#include "support/conformance.hpp"
#include "tendril/contact/ccd/point_triangle_ccd.hpp"
#include "tendril/contact/distance/segment_triangle_crossing.hpp"
#include "tendril/contact/friction/point_triangle_friction.hpp"
#include "tendril/contact/point_triangle_contact.hpp"

namespace tendril::contact {
namespace {

using namespace conformance;

/// A node (0) above a triangle (1, 2, 3) in the plane z = 0, as a Model of positions only.
struct PointAndTriangle {
  Model model;
  VecX q;
  RodFrames frames;
};

PointAndTriangle make(const Vec3& point) {
  PointAndTriangle s;
  Model& m = s.model;
  m.dofs.num_nodes = 4;
  m.rest_positions.resize(12);
  m.rest_positions << point, Vec3(0, 0, 0), Vec3(0.1, 0, 0.002), Vec3(0.02, 0.09, -0.001);
  m.mass = VecX::Constant(m.dofs.size(), 0.01);
  m.fixed.assign(m.dofs.size(), 0);
  s.q = m.rest_positions;
  initialize_frames(m, s.q, s.frames);
  return s;
}

ContactParameters parameters() {
  ContactParameters p;
  p.stiffness = 30.0;
  p.distance_tolerance = 0.004;
  return p;
}

/// The stencil [p, t0, t1, t2] of the single pair.
Vec12 term_stencil(const PointAndTriangle& s) {
  return s.q.head<12>();
}

ContactNodes point_nodes(double radius) {
  return {{0}, {radius}};
}
ContactTriangles triangle(double radius) {
  return {{{1, 2, 3}}, {radius}};
}

/// The candidates for a step starting at q at rest (what the solver does before each step).
void update_at(const PointTriangleContact& term, const PointAndTriangle& s) {
  State state;
  state.q = s.q;
  state.u = VecX::Zero(s.q.size());
  term.update_stencils(s.model, state);
}

TEST(PointTriangleContact, ConformsAcrossTheSmoothZoneInEveryRegime) {
  const ContactParameters p = parameters();
  // r_p + r_t = 0.007 + 0.001; directions from the triangle to the point in the face, edge and
  // vertex regimes; gaps from -1.5 delta to the outer edge of the zone (0.95 delta)
  const double radius_sum = 0.008;
  struct Case {
    Vec3 foot, direction;
    TriangleRegime regime;
  };
  const Case cases[] = {
      {{0.04, 0.03, 0.0}, {0.01, -0.02, 1.0}, TriangleRegime::face},
      {{0.05, 0.0, 0.001}, {0.0, -1.0, 0.3}, TriangleRegime::edge},
      {{0.1, 0.0, 0.002}, {1.0, -0.5, 0.2}, TriangleRegime::vertex},
  };
  const PointAndTriangle far = make({0.0, 0.0, 1.0});
  for (const Case& c : cases)
    for (double gap : {-1.5, -1.0, -0.3, 0.0, 0.5, 0.95}) {
      SCOPED_TRACE(::testing::Message() << "regime " << int(c.regime) << " gap " << gap);
      // move along the direction until the distance is radius_sum + gap delta
      const double target = radius_sum + gap * p.distance_tolerance;
      double along = target;
      for (int it = 0; it < 50; ++it) {
        const Vec12 y = make(c.foot + along * c.direction.normalized()).q;
        along += target - point_triangle_closest_point(y.segment<3>(0), y.segment<3>(3),
                                                       y.segment<3>(6), y.segment<3>(9))
                              .distance;
      }
      const PointAndTriangle s = make(c.foot + along * c.direction.normalized());
      const PointTriangleContact term(point_nodes(0.007), triangle(0.001), {}, p, far.q);
      EXPECT_TRUE(term.pairs().excluded().empty());
      EXPECT_TRUE(term.candidates().empty());
      update_at(term, s);
      ASSERT_EQ(term.candidates().size(), 1u);
      const Vec12 x = term.pairs().stencil(s.q, term.candidates()[0]);
      const PointTriangleDistance d = point_triangle_distance(x.segment<3>(0), x.segment<3>(3),
                                                              x.segment<3>(6), x.segment<3>(9));
      EXPECT_EQ(d.closest.regime, c.regime);
      EXPECT_GT(evaluate_energy(term, s.model, s.frames, s.q).energy, 0.0);
      Tolerances tol;
      tol.step = 1e-8;
      expect_energy_conforms(term, s.model, s.frames, s.q, tol);
      expect_rigid_motion_invariance(term, s.model, s.frames, s.q);
      EXPECT_EQ(term.missed_pairs(), 0);
      const ContactStatistics stats = term.statistics(s.model, s.q, 0.0);
      EXPECT_EQ(stats.active, 1);
      EXPECT_NEAR(stats.min_gap, gap * p.distance_tolerance, 1e-12);
    }
}

TEST(PointTriangleContact, PairForceIsEqualAndOppositeAlongTheNormal) {
  const ContactParameters p = parameters();
  const PointAndTriangle s = make({0.03, 0.03, 0.005});
  const PointTriangleContact term(point_nodes(0.004), triangle(0.0005), {}, p, make({0, 0, 1}).q);
  const EnergyEval e = evaluate_energy(term, s.model, s.frames, s.q, false);
  const Vec3 on_point = -e.gradient.head<3>();
  Vec3 on_triangle = Vec3::Zero();
  for (int i = 1; i < 4; ++i) on_triangle -= e.gradient.segment<3>(3 * i);
  EXPECT_LE((on_point + on_triangle).norm(), 1e-12 * on_point.norm());
  const PairContact c =
      imc_point_triangle_contact(term.pairs().stencil(s.q, {0, 0}), 0.0045, p, false);
  EXPECT_NEAR(on_point.norm(), -p.stiffness * smooth_penalty(c.gap, p.distance_tolerance).slope,
              1e-12);
  // pushed away from the triangle's plane (normal close to +z)
  EXPECT_GT(on_point.z(), 0.99 * on_point.norm());
  // beyond the smooth zone: nothing
  const PointAndTriangle away = make({0.03, 0.03, 0.0045 + 0.01});
  EXPECT_EQ(evaluate_energy(term, away.model, away.frames, away.q, false).gradient.norm(), 0.0);
}

TEST(PointTriangleFriction, ConformsInStickSlipAndTransitionInEveryRegime) {
  ContactParameters p = parameters();
  p.slip_tolerance = 0.01;
  p.friction = 0.3;
  // gap -0.4 delta in the face, edge and vertex regimes (r_p + r_t = 0.008)
  const Vec3 points[] = {{0.04, 0.03, 0.0068}, {0.05, -0.0068, 0.003}, {0.106, -0.003, 0.004}};
  const TriangleRegime regimes[] = {TriangleRegime::face, TriangleRegime::edge,
                                    TriangleRegime::vertex};
  for (int r = 0; r < 3; ++r) {
    const Vec3& point = points[r];
    const PointAndTriangle s = make(point);
    const Vec12 x = term_stencil(s);
    EXPECT_EQ(point_triangle_closest_point(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6),
                                           x.segment<3>(9))
                  .regime,
              regimes[r]);
    const PointTriangleFriction term(point_nodes(0.007), triangle(0.001), {}, p, make({0, 0, 1}).q);
    State state;
    state.q = s.q;
    state.u = VecX::Zero(s.q.size());
    term.update_stencils(s.model, state);
    EXPECT_FALSE(term.has_symmetric_jacobian());
    for (double speed : {1e-5, 1e-3, 0.01, 0.1}) {
      SCOPED_TRACE(::testing::Message() << point.transpose() << " speed " << speed);
      const VecX u = perturbed(s.model, VecX::Zero(s.q.size()), speed, 0.0, 5);
      Tolerances tol;
      tol.step = 1e-8;
      tol.hessian = 2e-5;
      expect_force_conforms(term, s.model, s.frames, s.q, u, 0.0, tol);
      EXPECT_GT(evaluate_force(term, s.model, s.frames, s.q, u, 0.0, 1, 0, false).force.norm(),
                0.0);
    }
  }
}

TEST(PointTriangleFriction, SlidingPointFeelsMuTimesNormalForceBalanced) {
  ContactParameters p = parameters();
  p.friction = 0.3;
  p.slip_tolerance = 0.01;
  const PointAndTriangle s = make({0.04, 0.03, 0.0085});
  const PointTriangleFriction term(point_nodes(0.007), triangle(0.001), {}, p, make({0, 0, 1}).q);
  VecX u = VecX::Zero(s.q.size());
  u.head<3>() = Vec3(0.0, 2.0, 0.0);  // the node slides along y at 200 nu
  const ForceEval f = evaluate_force(term, s.model, s.frames, s.q, u, 0.0, 1, 0, false);
  const Vec3 on_point = f.force.head<3>();
  Vec3 on_triangle = Vec3::Zero();
  for (int i = 1; i < 4; ++i) on_triangle += f.force.segment<3>(3 * i);
  const PairContact c = imc_point_triangle_contact(term_stencil(s), 0.008, p, false);
  const double normal = -p.stiffness * smooth_penalty(c.gap, p.distance_tolerance).slope;
  // the slip is along y up to the tilt of the triangle's normal; gamma(200 nu) = tanh(1500) = 1
  EXPECT_NEAR(on_point.norm(), p.friction * normal, 1e-3 * p.friction * normal);
  EXPECT_LT(on_point.y(), -0.99 * on_point.norm());
  EXPECT_LE((on_point + on_triangle).norm(), 1e-12 * on_point.norm());
}

TEST(PointTriangleContact, MeshNeighboursTouchingAtTheStartAreExcluded) {
  // a strip of two triangles (1, 2, 3), (2, 4, 3) with edges 0.01 long, thickness 0.02: node 4 is
  // within delta of triangle (1, 2, 3) and one edge away from it; node 0 touches the first triangle
  // at the start (lying on it) but is not joined to it: it interacts
  Model m;
  m.dofs.num_nodes = 5;
  m.rest_positions.resize(15);
  m.rest_positions << 0.003, 0.003, 0.015, 0, 0, 0, 0.01, 0, 0, 0, 0.01, 0, 0.01, 0.01, 0;
  m.mass = VecX::Constant(15, 0.01);
  m.fixed.assign(15, 0);
  const ContactParameters p = parameters();
  const std::vector<std::array<int, 2>> mesh_edges = {{1, 2}, {2, 3}, {3, 1}, {2, 4}, {4, 3}};
  const PointTriangleContact term({{0, 1, 2, 3, 4}, {0.01, 0.01, 0.01, 0.01, 0.01}},
                                  {{{1, 2, 3}, {2, 4, 3}}, {0.01, 0.01}}, mesh_edges, p,
                                  m.rest_positions);
  // (node 4, triangle 0) and (node 1, triangle 1) are excluded; node 0 is not
  const std::vector<EdgePair> excluded = {{1, 1}, {4, 0}};
  EXPECT_EQ(term.pairs().excluded(), excluded);
  std::vector<EdgePair> pairs;
  term.pairs().find(m.rest_positions, pairs);
  EXPECT_TRUE(std::binary_search(pairs.begin(), pairs.end(), EdgePair{0, 0}));
  EXPECT_TRUE(std::binary_search(pairs.begin(), pairs.end(), EdgePair{0, 1}));
}

TEST(BroadPhase, FindsExactlyTheOverlappingPointOrEdgeAndTriangleBoxes) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const int num_nodes = 600;
  VecX positions(3 * num_nodes);
  for (int i = 0; i < 3 * num_nodes; ++i) positions[i] = 0.3 * unit(rng);
  std::vector<int> points;
  std::vector<double> point_margin;
  for (int i = 0; i < 200; ++i) {
    points.push_back(i);
    point_margin.push_back(0.01 * unit(rng));
  }
  std::vector<std::array<int, 3>> triangles;
  std::vector<double> triangle_margin;
  for (int i = 200; i + 2 < num_nodes; i += 3) {
    for (int k = 1; k < 3; ++k)
      positions.segment<3>(3 * (i + k)) =
          positions.segment<3>(3 * i) + 0.03 * Vec3(unit(rng), unit(rng), unit(rng));
    triangles.push_back({i, i + 1, i + 2});
    triangle_margin.push_back(0.01 * unit(rng));
  }
  points.push_back(201);  // a vertex of triangle 0: never paired with it
  point_margin.push_back(0.01);
  BroadPhase broad;
  std::vector<EdgePair> found;
  broad.find_point_triangle_pairs(positions, points, point_margin, triangles, triangle_margin,
                                  found);
  std::vector<EdgePair> expected;
  for (int a = 0; a < int(points.size()); ++a)
    for (int b = 0; b < int(triangles.size()); ++b) {
      const auto& t = triangles[b];
      if (points[a] == t[0] || points[a] == t[1] || points[a] == t[2]) continue;
      bool overlap = true;
      for (int c = 0; c < 3; ++c) {
        const double x = positions[3 * points[a] + c];
        const double v[3] = {positions[3 * t[0] + c], positions[3 * t[1] + c],
                             positions[3 * t[2] + c]};
        const double lb = std::min({v[0], v[1], v[2]}) - triangle_margin[b];
        const double ub = std::max({v[0], v[1], v[2]}) + triangle_margin[b];
        overlap = overlap && x - point_margin[a] <= ub && lb <= x + point_margin[a];
      }
      if (overlap) expected.push_back({a, b});
    }
  EXPECT_GT(expected.size(), 10u);
  EXPECT_EQ(found, expected);

  // edges (the start's check: boxes not grown) between the points' nodes, one of them sharing
  // node 201 with triangle 0 (never paired with it)
  std::vector<std::array<int, 2>> edges;
  for (int i = 0; i + 1 < 200; i += 2) edges.push_back({i, i + 1});
  edges.push_back({201, 5});
  broad.find_edge_triangle_pairs(positions, edges, triangles, found);
  expected.clear();
  for (int a = 0; a < int(edges.size()); ++a)
    for (int b = 0; b < int(triangles.size()); ++b) {
      const auto& t = triangles[b];
      if (std::find(t.begin(), t.end(), edges[a][0]) != t.end() ||
          std::find(t.begin(), t.end(), edges[a][1]) != t.end())
        continue;
      bool overlap = true;
      for (int c = 0; c < 3; ++c) {
        const double x0 = positions[3 * edges[a][0] + c], x1 = positions[3 * edges[a][1] + c];
        const double v[3] = {positions[3 * t[0] + c], positions[3 * t[1] + c],
                             positions[3 * t[2] + c]};
        overlap = overlap && std::min(x0, x1) <= std::max({v[0], v[1], v[2]}) &&
                  std::min({v[0], v[1], v[2]}) <= std::max(x0, x1);
      }
      if (overlap) expected.push_back({a, b});
    }
  EXPECT_GT(expected.size(), 10u);
  EXPECT_EQ(found, expected);
}

TEST(SegmentTriangleCrossing, AgreesWithTheLinearSolveOnRandomSegments) {
  // reference: a0 + s (a1 - a0) = t0 + u (t1 - t0) + v (t2 - t0) solved for (u, v, s); a strict
  // crossing has s in (0, 1), u, v > 0 and u + v < 1
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const auto random = [&] { return Vec3(unit(rng), unit(rng), unit(rng)); };
  int crossings = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Vec3 t0 = random(), t1 = random(), t2 = random(), a0 = random(), a1 = random();
    Mat3 m;
    m << t1 - t0, t2 - t0, a0 - a1;
    const Vec3 uvs = m.fullPivLu().solve(a0 - t0);
    const bool expected =
        uvs[2] > 0.0 && uvs[2] < 1.0 && uvs[0] > 0.0 && uvs[1] > 0.0 && uvs[0] + uvs[1] < 1.0;
    const std::optional<Vec3> p = segment_triangle_crossing(a0, a1, t0, t1, t2);
    ASSERT_EQ(p.has_value(), expected) << "trial " << trial;
    if (!p) continue;
    ++crossings;
    EXPECT_LT((*p - (a0 + uvs[2] * (a1 - a0))).norm(), 1e-12);
  }
  EXPECT_GT(crossings, 50);
  // a segment in the triangle's plane, and one ending on it, do not cross it strictly
  const Vec3 t0(0, 0, 0), t1(1, 0, 0), t2(0, 1, 0);
  EXPECT_FALSE(segment_triangle_crossing(Vec3(-1, 0.2, 0), Vec3(1, 0.2, 0), t0, t1, t2));
  EXPECT_FALSE(segment_triangle_crossing(Vec3(0.2, 0.2, 0), Vec3(0.2, 0.2, 1), t0, t1, t2));
  EXPECT_TRUE(segment_triangle_crossing(Vec3(0.2, 0.2, -1e-9), Vec3(0.2, 0.2, 1), t0, t1, t2));
}

double distance_at(const Vec12& x, const Vec12& p, double t) {
  const Vec12 y = x + t * p;
  return point_triangle_closest_point(y.segment<3>(0), y.segment<3>(3), y.segment<3>(6),
                                      y.segment<3>(9))
      .distance;
}

TEST(PointTriangleCcd, AFastPointStopsBeforeTheTriangleAndAPassingOneIsFree) {
  const double h = 1e-4, keep = 0.1;
  Vec12 x;
  x << 0.03, 0.03, h, 0, 0, 0, 0.1, 0, 0, 0, 0.1, 0;  // the point, then the triangle's three nodes
  // the point passes 100 times its distance through the face in one step: the distance h (1 - 200
  // t) first reaches keep h at t = (1 - keep) / 200
  Vec12 p = Vec12::Zero();
  p[2] = -200 * h;
  const double t = point_triangle_collision_free_fraction(x, p, keep);
  EXPECT_LE(t, (1 - keep) / 200 + 1e-12);
  EXPECT_GE(t, 0.9 * (1 - keep) / 200);
  for (int k = 0; k <= 1000; ++k)
    EXPECT_GE(distance_at(x, p, t * k / 1000.0), keep * h * (1 - 1e-9));
  // the triangle moving up onto the point instead: the same (only relative motion counts)
  Vec12 q = Vec12::Zero();
  for (int k = 1; k < 4; ++k) q[3 * k + 2] = 200 * h;
  EXPECT_NEAR(point_triangle_collision_free_fraction(x, q, keep), t, 1e-12);
  // moving parallel to the face, beyond its edge: the whole step
  Vec12 along = Vec12::Zero();
  along[0] = 0.5;
  EXPECT_EQ(point_triangle_collision_free_fraction(x, along, keep), 1.0);
}

}  // namespace
}  // namespace tendril::contact
