// Near-rigid parts that must rotate (issue 7, docs/physics/time_integration.md "Stiff parts that
// rotate"): the benchmark cantilever (L 1 m, r 5 mm, E 1e7 Pa, 26 nodes, gravity) whose middle
// edges 10-14 (x in [0.4, 0.6] m) are f = 1e2 .. 1e10 times stiffer in EA, and the springs there f
// times stiffer in EI and GJ (the springs at nodes 10 and 15, between a stiff and a soft edge, take
// the mean (1 + f)/2, as the scene's stiffness_overrides by edges do). Under gravity this segment
// swings down with the rod; a Newton step, linear in the positions, stretches it by l theta^2 / 2.
//
// Reference (the rigid limit): as f -> infinity the segment becomes a rigid body. Its compliance
// adds a deflection bounded by the small-deflection estimate (Euler-Bernoulli, as in
// test_stiff_parts.cpp): the segment (L_s = 0.2 m, bending stiffness f EI) carries at most the
// moment of the outer rod, M <= q L_o^2 / 2 with L_o = 0.6 m beyond node 10 and q = rho A g, so its
// end turns by at most M L_s / (f EI) relative to the rigid segment, swung over the L_r = 0.4 m
// beyond it:
//   |x(f) - x_rigid| <= q L_o^2 L_s L_r / (2 f EI) + (the segment's own sag, smaller)  =: B / f,
// doubled for the dynamic run (a suddenly applied load at most doubles the static response).
// The tests check (1) the Cauchy property |x(f) - x(100 f)| <= 1.01 B / f (x2 dynamic) towards that
// limit, i.e. O(1/f) convergence to one configuration, and (2) that the segment is a rigid body in
// the limit: after the best rigid fit to its rest shape its nodes are within B / f of it.
#include <cmath>
#include <cstdio>
#include <memory>
#include <numbers>

#include <gtest/gtest.h>

#include "tendril/forces/gravity.hpp"
#include "tendril/integrate/static_solver.hpp"
#include "tendril/integrate/stiff_segments.hpp"
#include "tendril/integrate/time_stepper.hpp"
#include "unit/rod/rod_shapes.hpp"

namespace tendril {
namespace {

constexpr int kNodes = 26;
constexpr int kFirstStiff = 10, kLastStiff = 14;  ///< stiff edges 10-14 (nodes 10-15)

/// The clamped benchmark rod under gravity with edges 10-14 `factor` times stiffer (see the file
/// comment).
test::BuiltRod rod_with_stiff_middle(double factor) {
  test::BuiltRod rod = test::clamped_benchmark_rod(kNodes);
  Model& model = rod.model;
  model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0.0, 0.0, -9.81)));
  auto edge_factor = [&](int e) { return e >= kFirstStiff && e <= kLastStiff ? factor : 1.0; };
  for (int e = 0; e + 1 < kNodes; ++e) model.rods.stretch_stiffness[e] *= edge_factor(e);
  for (BendTwistSpring& spring : model.rods.springs) {
    const double f = 0.5 * (edge_factor(spring.node - 1) + edge_factor(spring.node));
    spring.bend_stiffness_1 *= f;
    spring.bend_stiffness_2 *= f;
    spring.twist_stiffness *= f;
  }
  return rod;
}

/// B of the file comment [m] (the bound is B / f).
double compliance_bound(const Model& model) {
  const double q = 9.81 * model.mass[3 * 5] /
                   model.rods.rest_length[5];  // weight per length of a soft edge [N/m]
  const double bend = model.rods.springs[5].bend_stiffness_1;  // EI of a soft spring [N m^2]
  const double outer = 0.6, segment = 0.2, rest = 0.4;         // L_o, L_s, L_r [m]
  return q * outer * outer * segment * rest / (2.0 * bend);
}

/// Largest distance between corresponding nodes [m].
double max_node_distance(const VecX& a, const VecX& b, int num_nodes) {
  double largest = 0.0;
  for (int i = 0; i < num_nodes; ++i)
    largest = std::max(largest, (a.segment<3>(3 * i) - b.segment<3>(3 * i)).norm());
  return largest;
}

/// Largest distance of the stiff segment's nodes (10-15) from its rest shape after the best rigid
/// fit (Kabsch) [m]: how far the segment is from a rigid body.
double distance_from_rigid(const VecX& q, const VecX& rest) {
  constexpr int n = kLastStiff - kFirstStiff + 2;
  Eigen::Matrix<double, 3, n> p, r;
  for (int i = 0; i < n; ++i) {
    p.col(i) = q.segment<3>(3 * (kFirstStiff + i));
    r.col(i) = rest.segment<3>(3 * (kFirstStiff + i));
  }
  const Vec3 cp = p.rowwise().mean(), cr = r.rowwise().mean();
  p.colwise() -= cp;
  r.colwise() -= cr;
  const Eigen::JacobiSVD<Eigen::Matrix3d> svd(p * r.transpose(),
                                              Eigen::ComputeFullU | Eigen::ComputeFullV);
  Eigen::Matrix3d d = Eigen::Matrix3d::Identity();
  d(2, 2) = (svd.matrixU() * svd.matrixV().transpose()).determinant() < 0.0 ? -1.0 : 1.0;
  const Eigen::Matrix3d rotation = svd.matrixU() * d * svd.matrixV().transpose();
  return (p - rotation * r).colwise().norm().maxCoeff();
}

/// Angle between the segment's chord (node 10 -> 15) and +x [deg].
double segment_angle(const VecX& q) {
  const Vec3 chord = q.segment<3>(3 * (kLastStiff + 1)) - q.segment<3>(3 * kFirstStiff);
  return std::atan2(-chord.z(), chord.x()) * 180.0 / std::numbers::pi;
}

TEST(RotatingStiffParts, ImplicitEulerStepsConvergeInAFewIterationsAndTendToARigidSegment) {
  constexpr int kSteps = 400;  // 0.4 s: the rod swings down, the segment turns by about 65 degrees
  DynamicsOptions options;
  options.dt = 1e-3;
  const test::BuiltRod plain = rod_with_stiff_middle(1.0);
  const double bound = 2.0 * compliance_bound(plain.model);

  VecX previous;
  double previous_factor = 0.0, plain_mean = 0.0;
  int plain_max = 0;
  for (double factor : {1.0, 1e2, 1e4, 1e6, 1e8, 1e10}) {
    const test::BuiltRod rod = rod_with_stiff_middle(factor);
    State state = test::rest_state(rod);
    TimeStepper stepper(rod.model, options, rod.q);
    int iterations = 0, max_iterations = 0;
    for (int k = 0; k < kSteps; ++k) {
      const StepReport report = stepper.step(state);
      ASSERT_TRUE(report.ok()) << "factor " << factor << ", step " << k << ": " << report.message;
      EXPECT_EQ(report.regularized_iterations, 0) << "factor " << factor << ", step " << k;
      EXPECT_EQ(report.dt_halvings, 0) << "factor " << factor << ", step " << k;
      iterations += report.iterations;
      max_iterations = std::max(max_iterations, report.iterations);
    }
    const double mean = static_cast<double>(iterations) / kSteps;
    std::printf(
        "factor %.0e: segment at %.1f deg, Newton iterations per step %.2f (max %d), rigid-fit "
        "distance "
        "%.3e m, distance to f/100 %.3e m\n",
        factor, segment_angle(state.q), mean, max_iterations, distance_from_rigid(state.q, rod.q),
        previous.size() ? max_node_distance(state.q, previous, kNodes) : 0.0);
    // as the plain rod, up to one iteration more (the stiff rows reach their tolerance one
    // iteration later at most, as in test_stiff_parts.cpp)
    if (factor == 1.0) {
      plain_mean = mean;
      plain_max = max_iterations;
    }
    EXPECT_LE(mean, plain_mean + 1.0) << factor;
    EXPECT_LE(max_iterations, plain_max + 1) << factor;
    if (factor >= 1e4) {
      EXPECT_GT(segment_angle(state.q), 60.0);
      EXPECT_LE(distance_from_rigid(state.q, rod.q), bound / factor + 1e-9) << factor;
      EXPECT_LE(max_node_distance(state.q, previous, kNodes), 1.01 * bound / previous_factor + 1e-9)
          << factor;
    }
    previous = state.q;
    previous_factor = factor;
  }
}

TEST(RotatingStiffParts, StaticSolveFromStraightConvergesAndTendsToARigidSegment) {
  // large deflection from the straight rod (q L^3 / EI = 200, the segment turns by about 90
  // degrees): the plain rod needs tens of Newton iterations (docs/physics/time_integration.md). At
  // every f the stiff segment adds at most 10 of them, with no shifted matrix and no load stepping
  // (before the segment took the soft edges at its stiff junction springs along and turned its
  // whole step: 1031 iterations in 12 load stages at f = 1e8, 2096 in 33 at 1e10)
  const double bound = compliance_bound(rod_with_stiff_middle(1.0).model);
  int plain_iterations = 0;
  VecX previous;
  double previous_factor = 0.0;
  for (double factor : {1.0, 1e2, 1e4, 1e6, 1e8, 1e10}) {
    const test::BuiltRod rod = rod_with_stiff_middle(factor);
    State state = test::rest_state(rod);
    StaticSolver solver(rod.model, StaticOptions{}, rod.q);
    const StaticReport report = solver.solve(state);
    ASSERT_TRUE(report.ok()) << "factor " << factor << ": " << report.message;
    std::printf(
        "factor %.0e: segment at %.1f deg, %d Newton iterations (%d shifted) in %d load stages, "
        "rigid-fit "
        "distance %.3e m, distance to f/100 %.3e m\n",
        factor, segment_angle(state.q), report.iterations, report.regularized_iterations,
        report.load_stages, distance_from_rigid(state.q, rod.q),
        previous.size() ? max_node_distance(state.q, previous, kNodes) : 0.0);
    if (factor == 1.0) plain_iterations = report.iterations;
    EXPECT_LE(report.iterations, plain_iterations + 10) << factor;
    EXPECT_EQ(report.load_stages, 1) << factor;
    EXPECT_EQ(report.regularized_iterations, 0) << factor;
    EXPECT_GT(segment_angle(state.q), 80.0);
    if (factor >= 1e4) {
      EXPECT_LE(distance_from_rigid(state.q, rod.q), bound / factor + 1e-9) << factor;
      EXPECT_LE(max_node_distance(state.q, previous, kNodes), 1.01 * bound / previous_factor + 1e-9)
          << factor;
    }
    previous = state.q;
    previous_factor = factor;
  }
}

TEST(RotatingStiffParts, SegmentsAreTheFreeGroupsOfStiffEdgesAndTurnAlongTheFittedRotation) {
  // grouping: edges 10-14 of the rod above with edges 9 and 15, which meet them at the springs of
  // nodes 10 and 15 (bending (1 + f) / 2 times stiffer); no group when the stiff edges hang on the
  // clamp
  const test::BuiltRod rod = rod_with_stiff_middle(1e6);
  StiffSegments segments(rod.model, 100.0);
  ASSERT_EQ(segments.groups().size(), 1u);
  EXPECT_EQ(segments.groups()[0], (std::vector<int>{9, 10, 11, 12, 13, 14, 15, 16}));
  EXPECT_TRUE(StiffSegments(rod.model, 0.0).empty());
  EXPECT_TRUE(StiffSegments(rod_with_stiff_middle(50.0).model, 100.0).empty());
  // stiff stretching alone (springs unchanged): the stiff edges only
  test::BuiltRod stretch_only = test::clamped_benchmark_rod(kNodes);
  for (int e = kFirstStiff; e <= kLastStiff; ++e)
    stretch_only.model.rods.stretch_stiffness[e] *= 1e6;
  const StiffSegments stretch_segments(stretch_only.model, 100.0);
  ASSERT_EQ(stretch_segments.groups().size(), 1u);
  EXPECT_EQ(stretch_segments.groups()[0], (std::vector<int>{10, 11, 12, 13, 14, 15}));
  test::BuiltRod clamped = test::clamped_benchmark_rod(kNodes);
  for (int e = 0; e < 5; ++e) clamped.model.rods.stretch_stiffness[e] *= 1e6;
  EXPECT_TRUE(StiffSegments(clamped.model, 100.0).empty());
  // stiff edges 2-4 and springs 2-5 (nodes 0 and 1 are clamped): edges 1 and 5 join, fixed node 1
  // stays
  test::BuiltRod near_clamp = test::clamped_benchmark_rod(kNodes);
  for (int e = 2; e <= 4; ++e) near_clamp.model.rods.stretch_stiffness[e] *= 1e6;
  for (BendTwistSpring& spring : near_clamp.model.rods.springs)
    if (spring.node >= 2 && spring.node <= 5)
      spring.bend_stiffness_1 = spring.bend_stiffness_2 *= 1e6;
  const StiffSegments near_clamp_segments(near_clamp.model, 100.0);
  ASSERT_EQ(near_clamp_segments.groups().size(), 1u);
  EXPECT_EQ(near_clamp_segments.groups()[0], (std::vector<int>{2, 3, 4, 5, 6}));

  // a step that is an infinitesimal rotation w x r of the group about its centroid (plus a
  // translation; w normal to the straight segment, which cannot see a spin about its own axis): the
  // trial point is the exact rotation, so the group keeps its edge lengths for any a
  const VecX& y = rod.q;
  const Vec3 centre = 0.5 * (y.segment<3>(3 * 12) + y.segment<3>(3 * 13));
  const Vec3 w(0.0, 0.7, -0.2), t(0.01, -0.02, 0.03);
  VecX d = VecX::Zero(y.size());
  for (int i = 9; i <= 16; ++i) d.segment<3>(3 * i) = t + w.cross(y.segment<3>(3 * i) - centre);
  d[3 * 5 + 2] = 0.3;  // a soft node moves on the straight line
  segments.fit(y, d);
  VecX trial;
  for (double a : {1.0, 0.5}) {
    segments.trial(y, d, a, trial);
    const Eigen::AngleAxisd rotation(a * w.norm(), w.normalized());
    for (int i = 9; i <= 16; ++i) {
      const Vec3 expected = centre + a * t + rotation * (y.segment<3>(3 * i) - centre);
      EXPECT_LT((trial.segment<3>(3 * i) - expected).norm(), 1e-12) << i;
    }
    EXPECT_EQ(trial[3 * 5 + 2], y[3 * 5 + 2] + a * 0.3);
  }
  // tangent d at a = 0: the trial differs from y + a d by O(a^2)
  const double small = 1e-4;
  segments.trial(y, d, small, trial);
  EXPECT_LT((trial - y - small * d).norm(), 1.0 * small * small * w.squaredNorm());

  // the same rotation with the soft edge 9 stretched along itself (node 9 moves by s along -x): the
  // rest of the step turns with the group, so edge 9 stays aligned with edge 10 (the stiff spring
  // at node 10 is not bent) and is stretched by a s, for any a
  const double stretch = 0.02;
  d[3 * 9] -= stretch;
  segments.fit(y, d);
  for (double a : {1.0, 0.5}) {
    segments.trial(y, d, a, trial);
    const Vec3 edge9 = trial.segment<3>(3 * 10) - trial.segment<3>(3 * 9);
    const Vec3 edge10 = trial.segment<3>(3 * 11) - trial.segment<3>(3 * 10);
    EXPECT_LT(edge9.normalized().cross(edge10.normalized()).norm(), 1e-12) << a;
    EXPECT_NEAR(edge9.norm(), rod.model.rods.rest_length[9] + a * stretch, 1e-12) << a;
  }
}

}  // namespace
}  // namespace tendril
