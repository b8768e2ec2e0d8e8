// The sparse bounded Levenberg-Marquardt of fit/sparse_levenberg_marquardt.hpp on problems with
// known minima: the chained Rosenbrock function (minimum 0 at y = 1, More, Garbow and Hillstrom
// 1981, problem 21 "extended Rosenbrock"), a quadratic whose minimum lies outside the bounds (the
// solution is its projection, a closed form), and residuals undefined beyond a point (the trial
// steps there are rejected, the iterates stay where r is defined); with the residuals' curvature,
// Newton steps on problems whose minimum has a non-zero residual or whose Hessian is indefinite at
// the start.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "tendril/fit/sparse_levenberg_marquardt.hpp"

namespace tendril::fit {
namespace {

using Triplet = Eigen::Triplet<double, int>;

SparseMatrix sparse(int rows, int cols, const std::vector<Triplet>& t) {
  SparseMatrix m(rows, cols);
  m.setFromTriplets(t.begin(), t.end());
  return m;
}

TEST(SparseLevenbergMarquardt, FindsTheExtendedRosenbrockMinimum) {
  const int n = 200;  // r_{2i} = 10 (y_{2i+1} - y_{2i}^2), r_{2i+1} = 1 - y_{2i}
  const auto residuals = [n](const VecX& y, bool with_jacobian) {
    SparseResiduals out;
    out.ok = true;
    out.residual.resize(n);
    std::vector<Triplet> t;
    for (int i = 0; i < n / 2; ++i) {
      out.residual(2 * i) = 10.0 * (y(2 * i + 1) - y(2 * i) * y(2 * i));
      out.residual(2 * i + 1) = 1.0 - y(2 * i);
      t.emplace_back(2 * i, 2 * i, -20.0 * y(2 * i));
      t.emplace_back(2 * i, 2 * i + 1, 10.0);
      t.emplace_back(2 * i + 1, 2 * i, -1.0);
    }
    if (with_jacobian) out.jacobian = sparse(n, n, t);
    return out;
  };
  VecX y0(n);
  for (int i = 0; i < n / 2; ++i) y0.segment<2>(2 * i) << -1.2, 1.0;  // the standard start
  const VecX inf = VecX::Constant(n, INFINITY);
  const SparseLmResult r = minimise_sparse_least_squares(residuals, y0, -inf, inf);
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_LT(r.cost, 1e-20);
  EXPECT_LT((r.y - VecX::Ones(n)).lpNorm<Eigen::Infinity>(), 1e-9);
  EXPECT_EQ(r.failed_evaluations, 0);
}

TEST(SparseLevenbergMarquardt, KeepsTheBoundsAndStopsOnThem) {
  // 1/2 ((y0 - 2)^2 + (y1 + 1)^2 + (y0 - y2)^2) on 0 <= y0, y1 <= 1 (y2 free): y = (1, 0, 1)
  const auto residuals = [](const VecX& y, bool with_jacobian) {
    SparseResiduals out;
    out.ok = true;
    out.residual = VecX{{y(0) - 2.0, y(1) + 1.0, y(0) - y(2)}};
    if (with_jacobian)
      out.jacobian = sparse(3, 3, {{0, 0, 1.0}, {1, 1, 1.0}, {2, 0, 1.0}, {2, 2, -1.0}});
    return out;
  };
  const VecX lower = Vec3(0.0, 0.0, -INFINITY), upper = Vec3(1.0, 1.0, INFINITY);
  const SparseLmResult r =
      minimise_sparse_least_squares(residuals, Vec3(0.5, 0.5, 0.0), lower, upper);
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_NEAR(r.y(0), 1.0, 1e-12);
  EXPECT_NEAR(r.y(1), 0.0, 1e-12);
  EXPECT_NEAR(r.y(2), 1.0, 1e-9);
}

TEST(SparseLevenbergMarquardt, RejectsTrialPointsWhereTheResidualsAreUndefined) {
  // r = y - 3 defined only for y < 2.5: the iterates approach 2.5 from below and never leave
  std::vector<double> visited;
  const auto residuals = [&](const VecX& y, bool with_jacobian) {
    SparseResiduals out;
    if (!(y(0) < 2.5)) {
      out.message = "undefined";
      return out;
    }
    visited.push_back(y(0));
    out.ok = true;
    out.residual = VecX::Constant(1, y(0) - 3.0);
    if (with_jacobian) out.jacobian = sparse(1, 1, {{0, 0, 1.0}});
    return out;
  };
  const VecX inf = VecX::Constant(1, INFINITY);
  int failures_reported = 0, accepted_reported = 0;
  const SparseLmProgress progress = [&](const SparseLmIteration& i) {
    failures_reported += !i.accepted && i.failure == "undefined" && !(i.y->x() < 2.5) ? 1 : 0;
    accepted_reported += i.accepted ? 1 : 0;
    return true;
  };
  const SparseLmResult r =
      minimise_sparse_least_squares(residuals, VecX::Zero(1), -inf, inf,
                                    {.max_iterations = 60, .max_rejections = 60}, {}, progress);
  EXPECT_GT(r.failed_evaluations, 0);
  // every trial reported: each failed one with its point and reason, and the start and accepted
  // steps
  EXPECT_EQ(failures_reported, r.failed_evaluations);
  EXPECT_EQ(accepted_reported, 1 + r.iterations);
  EXPECT_LT(r.y(0), 2.5);
  EXPECT_GT(r.y(0), 2.4);
  EXPECT_LT(r.cost, 0.5 * 0.6 * 0.6);
  for (double y : visited) EXPECT_LT(y, 2.5);
  const auto undefined = [](const VecX&, bool) { return SparseResiduals{}; };
  EXPECT_THROW(minimise_sparse_least_squares(undefined, VecX::Zero(1), -inf, inf),
               std::runtime_error);
}

// The one stopping rule: a short step under large damping is a stall, not a minimum. r = (y - 3)
// whose Jacobian is wrong by a factor -1 (a model that does not describe the cost): every step goes
// uphill, lambda grows, the steps shrink below the step tolerance; reported not converged (the old
// rules called such a stall converged). The progress callback's false stops the solver at once.
TEST(SparseLevenbergMarquardt, AStallUnderLargeDampingIsNotConvergedAndProgressCanStop) {
  const auto wrong_jacobian = [](const VecX& y, bool with_jacobian) {
    SparseResiduals out;
    out.ok = true;
    out.residual = VecX::Constant(1, y(0) - 3.0);
    if (with_jacobian) out.jacobian = sparse(1, 1, {{0, 0, -1.0}});
    return out;
  };
  const VecX inf = VecX::Constant(1, INFINITY);
  const SparseLmResult stall =
      minimise_sparse_least_squares(wrong_jacobian, VecX::Zero(1), -inf, inf);
  EXPECT_FALSE(stall.converged) << stall.message;
  EXPECT_NE(stall.message.find("a stall, not a minimum"), std::string::npos) << stall.message;
  EXPECT_EQ(stall.y(0), 0.0);
  int calls = 0;
  const SparseLmResult stopped =
      minimise_sparse_least_squares(wrong_jacobian, VecX::Zero(1), -inf, inf, {}, {},
                                    [&](const SparseLmIteration&) { return ++calls < 3; });
  EXPECT_TRUE(stopped.interrupted);
  EXPECT_FALSE(stopped.converged);
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(stopped.message, "interrupted");
}

// With the residuals' curvature S = sum r_k d2r_k (the `curvature` argument) the steps are
// Newton's: r = y^2 + 1 (minimum at y = 0 with residual 1, where J^T J = 4 y^2 vanishes and
// Gauss-Newton only creeps) converges to 1e-9 in at most 10 steps where the Gauss-Newton steps need
// more; and r = y^2 - 1 from y = 0.1, where J^T J + S = 6 y^2 - 2 is negative, still reaches y = 1
// (the damping grows until the damped matrix is positive definite).
TEST(SparseLevenbergMarquardt, NewtonStepsWithTheResidualsCurvature) {
  const auto square_plus = [](double c) {
    return [c](const VecX& y, bool with_jacobian) {
      SparseResiduals out;
      out.ok = true;
      out.residual = VecX::Constant(1, y(0) * y(0) + c);
      if (with_jacobian) out.jacobian = sparse(1, 1, {{0, 0, 2.0 * y(0)}});
      return out;
    };
  };
  const SparseCurvatureFunction curvature = [](const VecX&, const VecX& r) {
    return sparse(1, 1, {{0, 0, 2.0 * r(0)}});
  };
  const VecX inf = VecX::Constant(1, INFINITY);
  const SparseLmOptions ten{.max_iterations = 10, .step_tolerance = 1e-12};
  const SparseLmResult newton = minimise_sparse_least_squares(
      square_plus(1.0), VecX::Constant(1, 0.5), -inf, inf, ten, curvature);
  const SparseLmResult gauss_newton =
      minimise_sparse_least_squares(square_plus(1.0), VecX::Constant(1, 0.5), -inf, inf, ten);
  EXPECT_LT(std::abs(newton.y(0)), 1e-9);
  EXPECT_GT(std::abs(gauss_newton.y(0)), 1e-9);
  const SparseLmResult indefinite = minimise_sparse_least_squares(
      square_plus(-1.0), VecX::Constant(1, 0.1), -inf, inf, {}, curvature);
  ASSERT_TRUE(indefinite.converged) << indefinite.message;
  EXPECT_NEAR(indefinite.y(0), 1.0, 1e-9);
}

}  // namespace
}  // namespace tendril::fit
