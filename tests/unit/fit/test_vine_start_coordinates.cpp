// The vine's minimal start coordinates (fit/vine_start_coordinates.hpp): for chains of five and six
// bodies (the last body with and without a prismatic partner) and arbitrary pin angles and
// extensions, q(xi) meets every joint row of the simulator (vine/constraint_rows.hpp: c(q) = -dt
// rhs) to round-off, xi(q(xi)) returns xi, every prismatic joint's extension is the gap between its
// bodies' ends, and dq/dxi matches central differences.
#include <gtest/gtest.h>

#include <cmath>

#include "tendril/fit/vine_start_coordinates.hpp"
#include "tendril/vine/constraint_rows.hpp"

namespace tendril::fit {
namespace {

/// |c(q)|_inf over the chain's joint rows, evaluated as the step QP does.
double joint_violation(const vine::VineModel& m, const VecX& q) {
  vine::RowContext ctx;
  ctx.base = m.base;
  ctx.dt = 1.0;
  double worst = 0.0;
  for (const vine::RowSpec& spec : vine::joint_row_specs(m.half_length)) {
    VecN<6> local = VecN<6>::Zero(), a;
    if (spec.body_a >= 0) local.head<3>() = q.segment<3>(3 * spec.body_a);
    local.tail<3>() = q.segment<3>(3 * spec.body_b);
    double rhs = 0.0;
    vine::evaluate_row<double>(spec, ctx, local, VecN<6>::Zero(), a, rhs);
    worst = std::max(worst, std::abs(rhs));
  }
  return worst;
}

class StartCoordinates : public ::testing::TestWithParam<int> {};

TEST_P(StartCoordinates, MeetTheJointsRoundTripAndDifferentiate) {
  vine::UniformVineParameters p;
  p.bodies = GetParam();
  p.half_length = 0.02;
  vine::VineModel m = vine::uniform_vine(p);
  m.base = Vec2(0.1, -0.2);
  m.half_length[1] = 0.015;  // bodies of different lengths
  VecX xi(m.num_bodies);
  for (int j = 0; j < m.num_pins(); ++j) xi(j) = 0.4 + 0.7 * j;
  for (int j = 0; j < m.num_prismatic(); ++j) xi(m.num_pins() + j) = 0.003 * (j + 1);
  MatX dq;
  const VecX q = start_configuration(m, xi, &dq);
  EXPECT_LT(joint_violation(m, q), 1e-15);
  EXPECT_LT((start_coordinates(m, q) - xi).cwiseAbs().maxCoeff(), 1e-15);
  for (int j = 0; j < m.num_prismatic(); ++j) {  // the gap between body 2j's tip and 2j+1's tail
    const auto a = static_cast<std::size_t>(2 * j);
    const double ta = q(6 * j + 2), tb = q(6 * j + 5);
    const Vec2 tip = q.segment<2>(6 * j) + m.half_length[a] * Vec2(std::cos(ta), std::sin(ta));
    const Vec2 tail =
        q.segment<2>(6 * j + 3) - m.half_length[a + 1] * Vec2(std::cos(tb), std::sin(tb));
    EXPECT_NEAR((tail - tip).norm(), xi(m.num_pins() + j), 1e-15);
  }
  const double h = 1e-6;
  for (Eigen::Index c = 0; c < xi.size(); ++c) {
    VecX plus = xi, minus = xi;
    plus(c) += h;
    minus(c) -= h;
    const VecX fd = (start_configuration(m, plus) - start_configuration(m, minus)) / (2.0 * h);
    EXPECT_LT((dq.col(c) - fd).cwiseAbs().maxCoeff(), 1e-9) << "column " << c;
  }
}

INSTANTIATE_TEST_SUITE_P(Bodies, StartCoordinates, ::testing::Values(5, 6));

}  // namespace
}  // namespace tendril::fit
