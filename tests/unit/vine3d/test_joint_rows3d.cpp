// The 3D vine's joint rows (src/tendril/vine3d/joint_rows.hpp): dc/dt = a . V by central
// differences along a rigid motion of each body, and the rows the stepper writes for a step (the
// rows of a joint evaluated together, from rotation matrices taken once per body) equal the rows
// evaluated one by one.
#include <cmath>

#include <gtest/gtest.h>

#include "tendril/vine3d/joint_rows.hpp"
#include "tendril/vine3d/vine3d_stepper.hpp"

namespace tendril::vine3d {
namespace {

/// Five bodies with a base frame, bent and displaced off their joints (c != 0), moving.
struct Fixture {
  Vine3dModel model;
  Vine3dState state;
  Fixture() {
    UniformVine3dParameters p;
    p.bodies = 5;
    p.half_length = 0.02;
    p.mass = 1e-3;
    model = uniform_vine3d(p);
    model.base = Vec3(0.1, -0.2, 0.05);
    model.base_frame = rotation_exp(Vec3(0.1, 0.2, 0.3));
    state = straight_state(model, 0.001);
    for (int i = 0; i < model.num_bodies; ++i) {
      const double s = 0.1 * (i + 1);
      state.position[i] += Vec3(0.003 * s, -0.002, 0.004 * s * s);
      state.orientation[i] = rotation_exp(Vec3(0.2 * s, -0.3, 0.25 - s)) * state.orientation[i];
      state.velocity.segment<6>(6 * i) << 0.3 - s, 0.2 * s, -0.1, 1.5 * s, -2.0, 0.7 + s;
    }
  }
  /// The bodies of `row` at time h along the motion p + h v, exp(h omega) r.
  RowBodies bodies(const JointRow& row, double h) const {
    RowBodies b;
    b.p_a = model.base;
    b.r_a = model.base_frame;
    if (row.body_a >= 0) {
      const VecN<6> v = state.velocity.segment<6>(6 * row.body_a);
      b.p_a = state.position[row.body_a] + h * v.head<3>();
      b.r_a = rotation_exp(h * v.tail<3>()) * state.orientation[row.body_a];
      b.velocity.head<6>() = v;
    }
    const VecN<6> v = state.velocity.segment<6>(6 * row.body_b);
    b.p_b = state.position[row.body_b] + h * v.head<3>();
    b.r_b = rotation_exp(h * v.tail<3>()) * state.orientation[row.body_b];
    b.velocity.tail<6>() = v;
    return b;
  }
};

TEST(JointRows3d, RowsAreTheRatesOfTheirConstraints) {
  const Fixture f;
  const double dt = 1e-3, h = 1e-6;  // central differences: error O(h^2 |c'''|) ~ 1e-12
  int checked = 0;
  for (const JointRow& row : chain_rows(f.model.half_length)) {
    if (row.kind == JointRowKind::growth) continue;  // a rate row, no constraint
    VecN<12> a, unused;
    double rhs = 0.0, r = 0.0;
    const RowBodies b = f.bodies(row, 0.0);
    const double c = evaluate_row(row, b, dt, 0.0, a, rhs);
    EXPECT_NEAR(rhs, -c / dt, 1e-12 * std::abs(c / dt));
    const double rate = (evaluate_row(row, f.bodies(row, h), dt, 0.0, unused, r) -
                         evaluate_row(row, f.bodies(row, -h), dt, 0.0, unused, r)) /
                        (2 * h);
    EXPECT_GT(std::abs(rate), 1e-3);  // the motion moves every row
    EXPECT_NEAR(a.dot(b.velocity), rate, 1e-8) << static_cast<int>(row.kind) << " " << row.body_b;
    ++checked;
  }
  EXPECT_EQ(checked, 3 * 3 + 2 * 4 + 5);  // 3 bending, 2 prismatic joints' rows, 5 twist rows
}

TEST(JointRows3d, StepperRowsEqualTheRowsOneByOne) {
  Fixture f;
  f.model.growth = GrowthSchedule::constant(0.03);
  Vine3dStepper stepper(f.model);
  Vine3dState s = f.state;
  stepper.step(s);  // the rows are written whether or not the step is accepted
  const qp::QpProblem& qp = stepper.last_problem();
  const int first_growth = static_cast<int>(stepper.rows().size()) - f.model.num_prismatic();
  for (int r = 0; r < static_cast<int>(stepper.rows().size()); ++r) {
    const JointRow& row = stepper.rows()[r];
    VecN<12> a;
    double rhs = 0.0;
    evaluate_row(row, f.bodies(row, 0.0), f.model.dt, f.model.growth_lookahead, a, rhs);
    if (r >= first_growth) rhs += stepper.last_joint_rates()(r - first_growth);
    EXPECT_NEAR(qp.b_eq(r), rhs, 1e-14 * (1.0 + std::abs(rhs))) << r;
    for (int l = 0; l < 12; ++l) {
      const int body = l < 6 ? row.body_a : row.body_b;
      if (body < 0) continue;
      EXPECT_NEAR(qp.A_eq.coeff(r, 6 * body + l % 6), a(l), 1e-15) << r << " " << l;
    }
  }
}

}  // namespace
}  // namespace tendril::vine3d
