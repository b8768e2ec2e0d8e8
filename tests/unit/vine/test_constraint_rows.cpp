// The linearised rows of eq. 12-14 against central differences of the nonlinear constraints
// c(q) (eq. 2, 3), Phi(q) (eq. 5) and g(q, v) (eq. 6), and the spring forces (eq. 7, 8) against
// the spring energy.
#include <random>

#include <gtest/gtest.h>

#include "tendril/vine/applied_forces.hpp"
#include "tendril/vine/constraint_rows.hpp"
#include "tendril/vine/vine_model.hpp"

namespace tendril::vine {
namespace {

constexpr double kDt = 0.01;

VecN<6> random_local(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  VecN<6> x;
  for (int i = 0; i < 6; ++i) x(i) = scale * uni(rng);
  return x;
}

/// c(q) of a joint row: -dt * rhs.
double joint_value(const RowSpec& r, const RowContext& ctx, const VecN<6>& q) {
  VecN<6> a;
  double rhs = 0.0;
  evaluate_row<double>(r, ctx, q, VecN<6>::Zero(), a, rhs);
  return -ctx.dt * rhs;
}

TEST(ConstraintRows, JointRowsAreConstraintGradients) {
  std::mt19937 rng(1);
  RowContext ctx;
  ctx.dt = kDt;
  ctx.base = Vec2(0.01, -0.02);
  const double h = 1e-7;
  for (RowKind kind : {RowKind::pin_x, RowKind::pin_y, RowKind::prismatic_a, RowKind::prismatic_b})
    for (int body_a : {-1, 3})
      for (int trial = 0; trial < 20; ++trial) {
        RowSpec r{kind, body_a, 4, 0.013, 0.021, -1, 0};
        const VecN<6> q = random_local(rng, 0.5);
        VecN<6> a;
        double rhs;
        evaluate_row<double>(r, ctx, q, VecN<6>::Zero(), a, rhs);
        for (int l = 0; l < 6; ++l) {
          if (body_a < 0 && l < 3) continue;
          VecN<6> qp = q, qm = q;
          qp(l) += h;
          qm(l) -= h;
          const double fd = (joint_value(r, ctx, qp) - joint_value(r, ctx, qm)) / (2 * h);
          EXPECT_NEAR(a(l), fd, 1e-7) << "kind " << static_cast<int>(kind) << " entry " << l;
          if (!row_entry_used(kind, l)) {
            EXPECT_EQ(a(l), 0.0);
          }
        }
      }
}

TEST(ConstraintRows, PinRowUsesSineInSecondRow) {
  // eq. 2 as corrected: the proximal end of body 2 is (x_2 - d cos theta_2, y_2 - d sin theta_2)
  RowContext ctx;
  ctx.dt = 1.0;
  RowSpec r{RowKind::pin_y, 0, 1, 0.1, 0.2, -1, 0};
  VecN<6> q;
  q << 0.0, 0.0, 0.3, 0.5, 0.7, 1.1;
  const double expected = (0.0 + 0.1 * std::sin(0.3)) - (0.7 - 0.2 * std::sin(1.1));
  EXPECT_NEAR(joint_value(r, ctx, q), expected, 1e-15);
}

TEST(ConstraintRows, ContactRowIsDistanceGradient) {
  std::mt19937 rng(2);
  const Obstacle box = make_box(Vec2(0.3, 0.1), Vec2(0.2, 0.1), 0.3, 0.02);
  RowContext ctx;
  ctx.dt = kDt;
  ctx.contact_radius = 0.012;
  ctx.obstacle = &box;
  const double h = 1e-7;
  for (int trial = 0; trial < 50; ++trial) {
    RowSpec r{RowKind::contact, -1, 2, 0.0, 0.015, 0, 0};
    const VecN<6> q = random_local(rng, 0.6);
    VecN<6> a;
    double rhs, phi;
    evaluate_row<double>(r, ctx, q, VecN<6>::Zero(), a, rhs, &phi);
    EXPECT_NEAR(rhs, -phi / kDt, 1e-12);
    for (int l = 3; l < 6; ++l) {
      VecN<6> qp = q, qm = q;
      qp(l) += h;
      qm(l) -= h;
      double rp, rm;
      VecN<6> tmp;
      evaluate_row<double>(r, ctx, qp, VecN<6>::Zero(), tmp, rp);
      evaluate_row<double>(r, ctx, qm, VecN<6>::Zero(), tmp, rm);
      EXPECT_NEAR(a(l), -(rp - rm) * kDt / (2 * h), 1e-6);
    }
  }
}

TEST(ConstraintRows, GrowthRowIsLinearisedGrowthRate) {
  // eq. 14: g(q_k + dt v, v) ~ G_bar v for v near v_k (g_bar = 0); check G_bar = g_q dt + g_v
  std::mt19937 rng(3);
  RowContext ctx;
  ctx.dt = kDt;
  auto g = [](const VecN<6>& q, const VecN<6>& v) {
    const Vec2 hv = q.segment<2>(3) - q.segment<2>(0);
    const Vec2 hd = v.segment<2>(3) - v.segment<2>(0);
    return hv.dot(hd) / hv.norm();
  };
  const double h = 1e-7;
  for (int trial = 0; trial < 30; ++trial) {
    RowSpec r{RowKind::growth, 0, 1, 0.0, 0.0, -1, 0};
    const VecN<6> q = random_local(rng, 0.3), v = random_local(rng, 0.1);
    VecN<6> a;
    double rhs;
    evaluate_row<double>(r, ctx, q, v, a, rhs);
    EXPECT_EQ(rhs, 0.0);
    for (int l = 0; l < 6; ++l) {
      VecN<6> e = VecN<6>::Zero();
      e(l) = h;
      const double g_q = (g(q + e, v) - g(q - e, v)) / (2 * h);
      const double g_v = (g(q, v + e) - g(q, v - e)) / (2 * h);
      EXPECT_NEAR(a(l), g_q * kDt + g_v, 1e-7);
    }
  }
}

TEST(AppliedForces, SpringForceIsMinusEnergyGradientAndZeroAtRest) {
  UniformVineParameters p;
  p.bodies = 6;
  p.stiffness = 0.3;
  p.damping = 0.0;
  p.heading = 0.4;
  VineModel m = uniform_vine(p);
  m.stiffness = {0.3, 0.5, 0.7};
  m.rest_angle = {0.4, 0.1, -0.2};
  std::mt19937 rng(4);
  std::normal_distribution<double> normal;
  VecX q(m.num_dofs()), v = VecX::Zero(m.num_dofs());
  for (int i = 0; i < q.size(); ++i) q(i) = normal(rng);
  VecX f;
  applied_forces(m, q, v, f);
  const double h = 1e-6;
  for (int i = 0; i < q.size(); ++i) {
    VecX qp = q, qm = q;
    qp(i) += h;
    qm(i) -= h;
    EXPECT_NEAR(f(i), -(spring_energy(m, qp) - spring_energy(m, qm)) / (2 * h), 1e-7);
  }
  // at the rest angles there is no torque
  VecX q_rest = VecX::Zero(m.num_dofs());
  double theta = 0.0;
  for (int b = 0; b < m.num_bodies; ++b) {
    if (b % 2 == 0) theta += m.rest_angle[b / 2];
    q_rest(3 * b + 2) = theta;
  }
  applied_forces(m, q_rest, v, f);
  EXPECT_LT(f.norm(), 1e-15);
  // dampers oppose the relative rotation and do no work on a rigid rotation of bodies 1..n-1
  m.damping = {0.0, 0.2, 0.2};
  VecX w = VecX::Zero(m.num_dofs());
  for (int b = 1; b < m.num_bodies; ++b) w(3 * b + 2) = 1.5;
  applied_forces(m, q_rest, w, f);
  EXPECT_NEAR(f.dot(w), 0.0, 1e-15);
  w(3 * 4 + 2) = 2.5;  // body 4 spins faster than body 3 across pin 2
  applied_forces(m, q_rest, w, f);
  EXPECT_NEAR(f(3 * 4 + 2), -0.2 * 1.0, 1e-15);
  EXPECT_NEAR(f(3 * 3 + 2), 0.2 * 1.0, 1e-15);
  EXPECT_LT(f.dot(w), 0.0);
}

}  // namespace
}  // namespace tendril::vine
