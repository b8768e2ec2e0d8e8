// Degenerate QPs that once gave NaN (rank-deficient P with repeated equality and inequality rows):
// the KKT Schur complements are ~ |A|^2 / rho there and a dependent row's pivot cancels down to
// rounding noise; the solver must return a finite KKT point (or a failure status, never NaN as
// `solved`).

#include <gtest/gtest.h>

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
