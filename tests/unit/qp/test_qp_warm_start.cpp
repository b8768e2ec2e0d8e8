// Warm start: the active set kept from the previous call gives the same solution as a cold start,
// and a slowly changing vine-like QP (chain_qp.hpp) needs at most two active-set iterations per
// step.

#include <gtest/gtest.h>

#include <string>

#include "tendril/qp/qp_solver.hpp"
#include "unit/qp/chain_qp.hpp"

namespace tendril::qp {
namespace {

// active contacts as a string of 0/1 (rows with A_in x - b_in <= 1e-9)
std::string active_pattern(const QpProblem& qp, const QpSolution& s) {
  const VecX slack = qp.A_in * s.x - qp.b_in;
  std::string pattern;
  for (Eigen::Index i = 0; i < slack.size(); ++i) pattern += slack[i] <= 1e-9 ? '1' : '0';
  return pattern;
}

TEST(QpWarmStart, SlowlyChangingChainMatchesColdStartInFewIterations) {
  QpSolver warm;
  int warm_iterations = 0, cold_iterations = 0, active_set_changes = 0;
  std::string previous;
  for (int step = 0; step < 40; ++step) {
    SCOPED_TRACE(step);
    const QpProblem qp = test::chain_qp(30, 6, 0.02 * step);
    const QpSolution w = warm.solve(qp);
    QpSolver cold_solver;
    const QpSolution c = cold_solver.solve(qp);
    ASSERT_EQ(w.status, QpStatus::solved);
    ASSERT_EQ(c.status, QpStatus::solved);
    EXPECT_LE(w.kkt_residual, 1e-10);
    EXPECT_LE((w.x - c.x).lpNorm<Eigen::Infinity>(),
              1e-12 * std::max(1.0, c.x.lpNorm<Eigen::Infinity>()));
    EXPECT_LE((w.y_eq - c.y_eq).lpNorm<Eigen::Infinity>(),
              1e-12 * std::max(1.0, c.y_eq.lpNorm<Eigen::Infinity>()));
    EXPECT_LE((w.z_in - c.z_in).lpNorm<Eigen::Infinity>(),
              1e-12 * std::max(1.0, c.z_in.lpNorm<Eigen::Infinity>()));
    EXPECT_FALSE(w.used_interior_point);
    EXPECT_EQ(w.factorizations, w.iterations);
    const std::string pattern = active_pattern(qp, w);
    if (step > 0) {
      // one iteration if the active set is unchanged, one more per change (contacts switch one at a
      // time here)
      EXPECT_LE(w.iterations, pattern == previous ? 1 : 2);
      active_set_changes += pattern != previous;
      warm_iterations += w.iterations;
      cold_iterations += c.iterations;
    }
    previous = pattern;
  }
  EXPECT_GE(active_set_changes, 3) << "the path should switch contacts on and off";
  EXPECT_LT(2 * warm_iterations, cold_iterations);
}

TEST(QpWarmStart, RepeatedSolveTakesOneIteration) {
  const QpProblem qp = test::chain_qp(12, 4, 0.9);
  QpSolver solver;
  const QpSolution first = solver.solve(qp);
  const QpSolution second = solver.solve(qp);
  ASSERT_EQ(first.status, QpStatus::solved);
  ASSERT_EQ(second.status, QpStatus::solved);
  EXPECT_EQ(second.iterations, 1);
  EXPECT_EQ(second.x, first.x);
}

TEST(QpWarmStart, NewPatternDropsTheWarmStart) {
  QpSolver solver;
  ASSERT_EQ(solver.solve(test::chain_qp(10, 3, 0.3)).status, QpStatus::solved);
  const QpProblem other = test::chain_qp(7, 2, 0.3);
  const QpSolution s = solver.solve(other);
  const QpSolution cold = QpSolver().solve(other);
  ASSERT_EQ(s.status, QpStatus::solved);
  EXPECT_EQ(s.iterations, cold.iterations);
  EXPECT_EQ(s.x, cold.x);
  solver.reset_warm_start();
  EXPECT_EQ(solver.solve(other).iterations, cold.iterations);
}

}  // namespace
}  // namespace tendril::qp

namespace tendril::qp {
namespace {

TEST(QpWarmStart, AnEmptiedRowLeavesTheWarmStartWithoutAnIteration) {
  // min 1/2 |x|^2 + x0 + x1 s.t. x0 >= 0, x1 >= 0: x = 0, both rows active with z = (1, 1). Then
  // row 1 loses its coefficient (a stored zero, the pattern unchanged: 0 >= -1, as the vine steps
  // write contact rows that no longer apply): x = (0, -1), z = (1, 0), found in one iteration from
  // the warm start (row 1 in the working set would make the subproblem inconsistent)
  QpProblem qp;
  qp.P = SparseMatrix(2, 2);
  qp.P.insert(0, 0) = 1.0;
  qp.P.insert(1, 1) = 1.0;
  qp.P.makeCompressed();
  qp.c = VecX::Ones(2);
  qp.A_eq = SparseMatrix(0, 2);
  qp.b_eq = VecX::Zero(0);
  qp.A_in = SparseMatrix(2, 2);
  qp.A_in.insert(0, 0) = 1.0;
  qp.A_in.insert(1, 1) = 1.0;
  qp.A_in.makeCompressed();
  qp.b_in = VecX::Zero(2);
  QpSolver solver;
  const QpSolution both = solver.solve(qp);
  ASSERT_EQ(both.status, QpStatus::solved);
  EXPECT_LE(both.x.lpNorm<Eigen::Infinity>(), 1e-12);
  EXPECT_LE((both.z_in - VecX::Ones(2)).lpNorm<Eigen::Infinity>(), 1e-12);
  EXPECT_EQ(solver.warm_start(), (std::vector<char>{1, 1}));

  qp.A_in.valuePtr()[1] = 0.0;
  qp.b_in[1] = -1.0;
  const QpSolution one = solver.solve(qp);
  ASSERT_EQ(one.status, QpStatus::solved);
  EXPECT_LE((one.x - Vec2(0.0, -1.0)).lpNorm<Eigen::Infinity>(), 1e-12);
  EXPECT_LE((one.z_in - Vec2(1.0, 0.0)).lpNorm<Eigen::Infinity>(), 1e-12);
  EXPECT_EQ(one.iterations, 1);
  EXPECT_EQ(one.factorizations, 1);
  EXPECT_EQ(solver.warm_start(), (std::vector<char>{1, 0}));
}

TEST(QpWarmStart, RestoredActiveSetGivesTheWarmSolutionBitwise) {
  // min x^2 / 2 s.t. x >= 5e-11: the row is violated by less than the tolerance 1e-10 at the
  // unconstrained minimum x = 0, so a cold start stops there, while a start with the row active
  // stops at x = 5e-11: both are solutions to the tolerance, and the result depends on the start
  QpProblem qp;
  qp.P = SparseMatrix(1, 1);
  qp.P.insert(0, 0) = 1.0;
  qp.c = VecX::Zero(1);
  qp.A_eq = SparseMatrix(0, 1);
  qp.b_eq = VecX::Zero(0);
  qp.A_in = SparseMatrix(1, 1);
  qp.A_in.insert(0, 0) = 1.0;
  qp.b_in = VecX::Constant(1, 5e-11);
  QpSolver cold;
  EXPECT_EQ(cold.solve(qp).x(0), 0.0);
  QpSolver active;
  active.set_warm_start({1});
  const QpSolution warm = active.solve(qp);
  ASSERT_EQ(warm.status, QpStatus::solved);
  EXPECT_EQ(warm.x(0), 5e-11);
  EXPECT_EQ(active.warm_start(), std::vector<char>{1});
  // a fresh solver given the saved active set continues exactly
  QpSolver restored;
  restored.set_warm_start(active.warm_start());
  EXPECT_EQ(restored.solve(qp).x(0), warm.x(0));
  // an active set of the wrong size is ignored (cold start)
  QpSolver wrong;
  wrong.set_warm_start({1, 1});
  EXPECT_EQ(wrong.solve(qp).x(0), 0.0);
}

}  // namespace
}  // namespace tendril::qp
