// Degenerate QPs that once gave NaN (rank-deficient P with repeated equality and inequality rows):
// the KKT Schur complements are ~ |A|^2 / rho there and a dependent row's pivot cancels down to
// rounding noise; the solver must return a finite KKT point (or a failure status, never NaN as
// `solved`).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "tendril/qp/qp_solver.hpp"
#include "unit/qp/degenerate_14.hpp"
#include "unit/qp/qp_test_problems.hpp"

namespace tendril::qp {
namespace {

constexpr double kKkt =
    1e-9;  // the tolerance of the reference test (tendril's default target is 1e-10)

void expect_finite(const QpSolution& s) {
  EXPECT_TRUE(s.x.allFinite());
  EXPECT_TRUE(s.y_eq.allFinite());
  EXPECT_TRUE(s.z_in.allFinite());
  EXPECT_TRUE(std::isfinite(s.objective));
  EXPECT_TRUE(std::isfinite(s.kkt_residual));
}

TEST(QpDegenerate, RandomReferenceProblemDegenerate14) {
  // reference: cvxopt 1.3.0's objective for this problem (see degenerate_14.hpp), within its 1e-6
  // accuracy
  QpSolver solver;
  const QpSolution s = solver.solve(test::degenerate_14());
  expect_finite(s);
  EXPECT_EQ(to_string(s.status), "solved");
  EXPECT_LE(s.kkt_residual, kKkt);
  EXPECT_NEAR(s.objective, -22.636314637963103, 1e-6 * 22.64);
  // the returned point's own residuals (recomputed here) confirm the reported ones
  EXPECT_LE(qp_residuals(test::degenerate_14(), s.x, s.y_eq, s.z_in).kkt, kKkt);
}

TEST(QpDegenerate, SmallIntegerProblemWithRepeatedRows) {
  // Found by a search over integer degenerate problems (make_reference_qps.py's construction with
  // integer data): before the fix the solver returned numerical_failure with NaN x, y, z.
  // P = B B' (rank 2), equality row 2 repeats row 0, inequality row 3 repeats row 0. The minimiser
  // x = (-2, 1, -2, 0) is checked through the KKT residual; objective 1/2 x'Px + c'x = 4.5 - 14 =
  // -9.5.
  MatX p(4, 4), a_eq(3, 4), a_in(4, 4);
  p << 4, 2, 0, 4, 2, 1, 0, 2, 0, 0, 0, 0, 4, 2, 0, 4;
  a_eq << 2, 1, -2, 1, 2, -3, 2, 1, 2, 1, -2, 1;
  a_in << 0, 1, 0, -2, 1, -3, 2, -1, 2, -2, 2, 1, 0, 1, 0, -2;
  const VecX c = (VecX(4) << 11, 4, -2, 3).finished();
  const VecX b_eq = (VecX(3) << 1, -11, 1).finished();
  const VecX b_in = (VecX(4) << 1, -9, -11, 1).finished();
  const QpProblem qp = test::make_problem(p, c, a_eq, b_eq, a_in, b_in);
  QpSolver solver;
  const QpSolution s = solver.solve(qp);
  expect_finite(s);
  EXPECT_EQ(to_string(s.status), "solved");
  EXPECT_LE(s.kkt_residual, kKkt);
  EXPECT_NEAR(s.objective, -9.5, 1e-9);
  EXPECT_LT((s.x - (VecX(4) << -2, 1, -2, 0).finished()).lpNorm<Eigen::Infinity>(), 1e-8);
}

/// k unit point masses (velocities x, 3 each) on the plane z = 0, each with a four-sided friction
/// pyramid (rows (+-mu, 0, 1) and (0, +-mu, 1) on its velocity, >= 0), weight 1 (c_z = 1), pushed
/// along x by `push` and along y by 0.3 push (i % 3 - 1); neighbours are tied (v_i - v_i+1 =
/// 0) but for the z rows, whose right-hand sides alternate +-1e-9, as a joint's position error
/// makes those of two bodies' shared contact point disagree. The tied pyramids' rows are dependent
/// and nearly inconsistent.
QpProblem tied_pyramids(int k, double mu, double push) {
  const int n = 3 * k;
  VecX c = VecX::Zero(n);
  MatX a_eq = MatX::Zero(3 * (k - 1), n), a_in = MatX::Zero(4 * k, n);
  VecX b_eq = VecX::Zero(3 * (k - 1));
  for (int i = 0; i < k; ++i) {
    c.segment<3>(3 * i) << -push, -0.3 * push * (i % 3 - 1), 1.0;
    const double edges[4][3] = {{mu, 0, 1}, {-mu, 0, 1}, {0, mu, 1}, {0, -mu, 1}};
    for (int r = 0; r < 4; ++r)
      for (int a = 0; a < 3; ++a) a_in(4 * i + r, 3 * i + a) = edges[r][a];
    if (i + 1 == k) continue;
    for (int a = 0; a < 3; ++a) {
      a_eq(3 * i + a, 3 * i + a) = 1.0;
      a_eq(3 * i + a, 3 * i + 3 + a) = -1.0;
    }
    b_eq[3 * i + 2] = i % 2 ? 1e-9 : -1e-9;
  }
  return test::make_problem(MatX::Identity(n, n), c, a_eq, b_eq, a_in, VecX::Zero(4 * k));
}

TEST(QpDegenerate, TiedFrictionPyramidsSolveWithoutCycling) {
  // Four tied masses: the whole is one body of weight 4 pushed by (1, 0.075) (sum of the pushes),
  // below the pyramid's capacity |f_x| + |f_y| <= mu 4 = 1.2, so it sticks: v = 0 up to the 1e-9
  // mismatch of the ties. The primal-dual active-set method cycled on the dependent rows (their
  // least-norm multipliers are negative on several rows at once) and needed the interior point.
  const int k = 4;
  const QpProblem qp = tied_pyramids(k, 0.3, 0.25);
  QpSolver solver;
  const QpSolution s = solver.solve(qp);
  EXPECT_EQ(to_string(s.status), "solved");
  EXPECT_LE(s.kkt_residual, kKkt);
  EXPECT_FALSE(s.used_interior_point);
  // sticks: the ties give v_z = (0, 1e-9, 0, 1e-9) and v_z >= 0, so the masses 1 and 3 rise by
  // 1e-9 and the rest is still
  VecX sticking = VecX::Zero(3 * k);
  sticking[5] = sticking[11] = 1e-9;
  EXPECT_LT((s.x - sticking).lpNorm<Eigen::Infinity>(), QpOptions{}.tolerance);
  // at rest the contact impulses on the whole balance its load (the ties' impulses cancel):
  // sum_i (A_in' z)_i = sum_i c_i = (-1, 0.075, 4), friction against the push, the weight carried
  Vec3 impulse = Vec3::Zero();
  const VecX row_impulse = qp.A_in.transpose() * s.z_in;
  for (int i = 0; i < k; ++i) impulse += row_impulse.segment<3>(3 * i);
  EXPECT_LT((impulse - Vec3(-1.0, 0.075, 4.0)).norm(), 1e-8);
}

TEST(QpDegenerate, TiedPyramidsWarmStartTheDualMethodFromItsLastWorkingSet) {
  // twelve tied masses under a push that grows step by step: each problem needs the dual
  // active-set method (dependent rows); warm-started from the last working set (flags 2) it goes
  // there first and finds the same solution as a new solver, with fewer factorisations
  const int k = 12;
  QpSolver warm;
  int warm_factorizations = 0, cold_factorizations = 0;
  for (int step = 0; step < 6; ++step) {
    SCOPED_TRACE(step);
    const QpProblem qp = tied_pyramids(k, 0.3, 0.25 + 0.01 * step);
    const QpSolution w = warm.solve(qp);
    const QpSolution c = QpSolver().solve(qp);
    ASSERT_EQ(to_string(w.status), "solved");
    ASSERT_EQ(to_string(c.status), "solved");
    EXPECT_LE(qp_residuals(qp, w.x, w.y_eq, w.z_in).kkt, kKkt);
    EXPECT_LT((w.x - c.x).lpNorm<Eigen::Infinity>(), 1e-9);
    const std::vector<char> flags = warm.warm_start();
    EXPECT_NE(std::find(flags.begin(), flags.end(), 2), flags.end());
    if (step == 0) continue;  // the first solve is cold in both
    warm_factorizations += w.factorizations;
    cold_factorizations += c.factorizations;
  }
  EXPECT_LT(2 * warm_factorizations, cold_factorizations);
}

TEST(QpDegenerate, NonFinitePointsNeverLookConverged) {
  // a NaN anywhere in (x, y, z) gives residual +inf (std::max alone would drop the NaN)
  MatX p = MatX::Identity(2, 2), a_in(1, 2);
  a_in << 1, 1;
  const QpProblem qp =
      test::make_problem(p, VecX::Zero(2), MatX(0, 2), VecX(0), a_in, VecX::Constant(1, -1.0));
  const VecX nan = VecX::Constant(2, std::nan(""));
  EXPECT_EQ(qp_residuals(qp, nan, VecX(0), VecX::Zero(1)).kkt, HUGE_VAL);
  EXPECT_EQ(qp_residuals(qp, VecX::Zero(2), VecX(0), VecX::Constant(1, std::nan(""))).kkt,
            HUGE_VAL);
  // finite entries whose products overflow: A_in x = 2e308 = inf
  EXPECT_EQ(qp_residuals(qp, VecX::Constant(2, 1e308), VecX(0), VecX::Zero(1)).kkt, HUGE_VAL);
  EXPECT_EQ(qp_residuals(qp, VecX::Zero(2), VecX(0), VecX::Zero(1)).kkt, 0.0);
}

}  // namespace
}  // namespace tendril::qp
