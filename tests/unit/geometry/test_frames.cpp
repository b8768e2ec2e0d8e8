#include <cmath>
#include <numbers>
#include <random>

#include <gtest/gtest.h>

#include "tendril/geometry/curvature_binormal.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/geometry/parallel_transport.hpp"
#include "tendril/geometry/signed_angle.hpp"

namespace tendril {
namespace {

constexpr double pi = std::numbers::pi;

TEST(ParallelTransport, QuarterTurnHandValues) {
  // z -> x is a rotation by +90 degrees about y: x -> -z, y -> y, z -> x
  const Vec3 x = Vec3::UnitX(), y = Vec3::UnitY(), z = Vec3::UnitZ();
  EXPECT_LE((parallel_transport(x, z, x) - (-z)).norm(), 1e-15);
  EXPECT_LE((parallel_transport(y, z, x) - y).norm(), 1e-15);
  EXPECT_LE((parallel_transport(z, z, x) - x).norm(), 1e-15);
  EXPECT_LE((parallel_transport(y, z, z) - y).norm(), 0.0);
}

TEST(ParallelTransport, KeepsLengthAndPerpendicularity) {
  std::mt19937 rng(3);
  std::normal_distribution<double> normal;
  for (int i = 0; i < 20; ++i) {
    const Vec3 from = Vec3(normal(rng), normal(rng), normal(rng)).normalized();
    const Vec3 to = Vec3(normal(rng), normal(rng), normal(rng)).normalized();
    Vec3 v(normal(rng), normal(rng), normal(rng));
    v -= v.dot(from) * from;
    const Vec3 w = parallel_transport(v, from, to);
    EXPECT_NEAR(w.norm(), v.norm(), 1e-12);
    EXPECT_NEAR(w.dot(to), 0.0, 1e-12);
    // transport back returns the vector
    EXPECT_LE((parallel_transport(w, to, from) - v).norm(), 1e-12);
    // the formula for a vector normal to t_from gives the same rotation
    EXPECT_LE((parallel_transport_normal(v, from, to) - w).norm(), 1e-14 * v.norm());
  }
  // opposite tangents: both fall back to the projection
  const Vec3 v(0.3, -0.2, 0.0), z = Vec3::UnitZ();
  EXPECT_EQ(parallel_transport_normal(v, z, -z), parallel_transport(v, z, -z));
}

TEST(SignedAngle, HandValues) {
  const Vec3 x = Vec3::UnitX(), y = Vec3::UnitY(), z = Vec3::UnitZ();
  EXPECT_DOUBLE_EQ(signed_angle(x, y, z), pi / 2);
  EXPECT_DOUBLE_EQ(signed_angle(y, x, z), -pi / 2);
  EXPECT_NEAR(signed_angle(x, Vec3(std::cos(2.5), std::sin(2.5), 0.0), z), 2.5, 1e-15);
  EXPECT_NEAR(signed_angle(x, Vec3(std::cos(2.5), std::sin(2.5), 0.0), -z), -2.5, 1e-15);
}

TEST(CurvatureBinormal, MagnitudeIsTwoTanHalfTurningAngle) {
  const double phi = 1.1;
  const Vec3 kb = curvature_binormal(Vec3::UnitX(), Vec3(std::cos(phi), std::sin(phi), 0.0));
  EXPECT_NEAR(kb.z(), 2.0 * std::tan(phi / 2.0), 1e-14);
  EXPECT_NEAR(kb.head<2>().norm(), 0.0, 1e-15);
}

TEST(InitialDirector, HandValues) {
  // docs/conventions.md#material-frame-at-t--0: a_1 = +z projected onto the plane normal to t; +x
  // for vertical t
  const Vec3 x = Vec3::UnitX(), y = Vec3::UnitY(), z = Vec3::UnitZ();
  for (const Vec3& t : {x, Vec3(-x), y, Vec3(-y)})
    EXPECT_LE((initial_director(t) - z).norm(), 1e-15) << t.transpose();
  EXPECT_LE((initial_director(Vec3(1, 0, 1).normalized()) - Vec3(-1, 0, 1).normalized()).norm(),
            1e-15);
  EXPECT_LE((initial_director(z) - x).norm(), 1e-15);
  EXPECT_LE((initial_director(-z) - x).norm(), 1e-15);
  // an explicit hint, and a hint along t falls back to the axis least aligned with the hint
  EXPECT_LE((initial_director(x, Vec3(0, 2, 1)) - Vec3(0, 2, 1).normalized()).norm(), 1e-15);
  EXPECT_LE((initial_director(y, Vec3(0, 3, 0)) - x).norm(), 1e-15);
  EXPECT_FALSE(director_hint_usable(y, Vec3(0, 3, 1e-7)));
  EXPECT_TRUE(director_hint_usable(y, Vec3(0, 3, 1e-5)));
}

TEST(InitialDirector, ContinuousInTheDirection) {
  // issue 7: under the former rule (a_1 = t x the axis least aligned with t) rods along [1, 0.1,
  // 0.09] and [1, 0.09, 0.1] started with perpendicular m1
  const Vec3 a = initial_director(Vec3(1, 0.1, 0.09).normalized());
  const Vec3 b = initial_director(Vec3(1, 0.09, 0.1).normalized());
  EXPECT_LT((a - b).norm(), 0.01);
  // the projection of z is Lipschitz away from the vertical: |d a_1| <= |d t| / sin(angle(t, z))
  std::mt19937 rng(7);
  std::normal_distribution<double> normal;
  int checked = 0;
  for (int i = 0; i < 2000; ++i) {
    const Vec3 t = Vec3(normal(rng), normal(rng), normal(rng)).normalized();
    const double sine = t.cross(Vec3::UnitZ()).norm();
    if (sine < 1e-3) continue;
    const Vec3 t2 = (t + 1e-6 * Vec3(normal(rng), normal(rng), normal(rng))).normalized();
    const Vec3 a1 = initial_director(t), a2 = initial_director(t2);
    EXPECT_NEAR(a1.dot(t), 0.0, 1e-14);
    EXPECT_LE((a2 - a1).norm(), 1.001 * (t2 - t).norm() / sine + 1e-14) << t.transpose();
    ++checked;
  }
  EXPECT_GT(checked, 1900);
}

/// Three nodes, two edges; edge 1 may be stored reversed.
Model two_edge_model(const VecX& q, bool reverse_second) {
  Model m;
  m.dofs.num_nodes = 3;
  m.dofs.num_edges = 2;
  m.rods.edges = {{0, 1}, reverse_second ? std::array<int, 2>{2, 1} : std::array<int, 2>{1, 2}};
  BendTwistSpring s;
  s.node = 1;
  s.edge_a = 0;
  s.edge_b = 1;
  s.sign_b = reverse_second ? -1 : 1;
  m.rods.springs = {s};
  m.rest_positions = q.head(9);
  return m;
}

VecX bent_configuration(double phi) {
  VecX q = VecX::Zero(11);
  q.segment<3>(0) = Vec3(-1.0, 0.0, 0.0);
  q.segment<3>(6) = Vec3(std::cos(phi), std::sin(phi), 0.0);
  return q;
}

TEST(Kinematics, InitialFramesAreUntwistedAndPerpendicular) {
  for (bool reverse : {false, true}) {
    const VecX q = bent_configuration(0.8);
    const Model m = two_edge_model(q, reverse);
    RodFrames frames;
    initialize_frames(m, q, frames);
    for (int e = 0; e < 2; ++e) {
      EXPECT_NEAR(frames.reference_director[e].dot(frames.tangent[e]), 0.0, 1e-15);
      EXPECT_NEAR(frames.reference_director[e].norm(), 1.0, 1e-15);
    }
    EXPECT_NEAR(frames.reference_twist[0], 0.0, 1e-15);  // space-parallel transport along the rod
  }
}

TEST(Kinematics, ReferenceTwistOfARotatedDirector) {
  // rotating the accepted a_1 of edge 1 by alpha about its tangent gives m_ref = alpha;
  // the material frame follows theta: m_1 = cos(theta) a_1 + sin(theta) a_2
  const VecX q0 = bent_configuration(0.6);
  const Model m = two_edge_model(q0, false);
  RodFrames frames;
  initialize_frames(m, q0, frames);
  const double alpha = 0.9;
  const Vec3 t1 = frames.tangent[1];
  const Vec3 a1 = frames.reference_director[1];
  frames.reference_director[1] = std::cos(alpha) * a1 + std::sin(alpha) * t1.cross(a1);
  VecX q = q0;
  q[10] = 0.4;
  Kinematics kin;
  compute_kinematics(m, frames, q, kin);
  EXPECT_NEAR(kin.reference_twist[0], alpha, 1e-14);
  const Vec3 expected_m1 =
      std::cos(0.4) * kin.reference_director_1[1] + std::sin(0.4) * kin.reference_director_2[1];
  EXPECT_LE((kin.material_director_1[1] - expected_m1).norm(), 1e-15);
  EXPECT_LE((kin.material_director_2[1] - t1.cross(expected_m1)).norm(), 1e-15);
}

TEST(Kinematics, ReferenceTwistKeepsTheAcceptedBranch) {
  const VecX q0 = bent_configuration(0.6);
  const Model m = two_edge_model(q0, true);
  RodFrames frames;
  initialize_frames(m, q0, frames);
  frames.reference_twist[0] += 2.0 * 2.0 * pi;  // two full turns accumulated earlier
  Kinematics kin;
  compute_kinematics(m, frames, q0, kin);
  EXPECT_NEAR(kin.reference_twist[0], 4.0 * pi, 1e-12);
}

TEST(Kinematics, TimeParallelTransportAndItsRotationGradient) {
  // at the accepted configuration the frames are unchanged and h = 0; away from it a_1 is the
  // transported accepted director, and h . de predicts the extra turn of a_1 about t to first order
  const VecX q0 = bent_configuration(0.6);
  const Model m = two_edge_model(q0, false);
  RodFrames frames;
  initialize_frames(m, q0, frames);
  Kinematics kin0;
  compute_kinematics(m, frames, q0, kin0);
  EXPECT_LE((kin0.reference_director_1[1] - frames.reference_director[1]).norm(), 1e-15);
  EXPECT_LE(kin0.transport_rotation_gradient[1].norm(),
            1e-15);  // exactly 0 in exact arithmetic; FMA leaves ~1e-18

  VecX q = q0;
  q.segment<3>(6) += Vec3(0.2, -0.3, 0.5);
  Kinematics kin;
  compute_kinematics(m, frames, q, kin);
  const Vec3 t_new = kin.tangent[1];
  EXPECT_LE((kin.reference_director_1[1] -
             parallel_transport(frames.reference_director[1], frames.tangent[1], t_new))
                .norm(),
            1e-14);
  const Vec3 de = 2e-6 * kin.transport_rotation_gradient[1].normalized() + Vec3(1e-6, 0.0, -0.5e-6);
  VecX q_moved = q;
  q_moved.segment<3>(6) += de;
  Kinematics moved;
  compute_kinematics(m, frames, q_moved, moved);
  // turn of the moved a_1 relative to the twist-free (Levi-Civita) transport of the old one
  const Vec3 carried = parallel_transport(kin.reference_director_1[1], t_new, moved.tangent[1]);
  const double turn = signed_angle(carried, moved.reference_director_1[1], moved.tangent[1]);
  const double predicted = kin.transport_rotation_gradient[1].dot(de);
  EXPECT_GT(std::abs(predicted), 1e-8);
  EXPECT_NEAR(turn, predicted, 1e-3 * std::abs(predicted));
}

TEST(Kinematics, WorksWithoutEdges) {
  Model m;
  m.dofs.num_nodes = 2;
  const VecX q = VecX::Zero(6);
  RodFrames frames;
  initialize_frames(m, q, frames);
  Kinematics kin;
  compute_kinematics(m, frames, q, kin);
  accept_frames(kin, frames);
  EXPECT_TRUE(kin.edge.empty());
  EXPECT_TRUE(frames.tangent.empty());
}

}  // namespace
}  // namespace tendril
