// Hand-made QPs with closed-form solutions: projection onto a half-space, a box QP, an
// equality-constrained least-squares problem, degenerate, infeasible and unbounded cases, bad
// input.

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <limits>

#include "tendril/core/error.hpp"
#include "tendril/qp/qp_solver.hpp"
#include "unit/qp/qp_test_problems.hpp"

namespace tendril::qp {
namespace {

using test::make_problem;

constexpr double kKkt = 1e-9;

MatX none(int n) {
  return MatX(0, n);
}

TEST(QpSmall, ProjectionOntoHalfSpace) {
  // min 1/2 |x - p|^2 s.t. a'x >= beta: x = p + max(0, beta - a'p) a / |a|^2, z = max(0, beta -
  // a'p) / |a|^2
  const Vec3 a(1.0, -2.0, 0.5);
  const double beta = 1.5;
  for (const Vec3& p : {Vec3(0.3, 0.2, -1.0), Vec3(3.0, -1.0, 2.0)}) {
    const QpProblem qp = make_problem(MatX::Identity(3, 3), -p, none(3), VecX(0), a.transpose(),
                                      VecX::Constant(1, beta));
    QpSolver solver;
    const QpSolution s = solver.solve(qp);
    const double gap = std::max(0.0, beta - a.dot(p)) / a.squaredNorm();
    ASSERT_EQ(s.status, QpStatus::solved);
    EXPECT_LE((s.x - (p + gap * a)).lpNorm<Eigen::Infinity>(), 1e-12);
    EXPECT_NEAR(s.z_in[0], gap, 1e-12);
    EXPECT_LE(s.kkt_residual, kKkt);
    EXPECT_NEAR(s.objective, 0.5 * (s.x - p).squaredNorm() - 0.5 * p.squaredNorm(), 1e-12);
  }
}

TEST(QpSmall, BoxQpClampsTheUnconstrainedMinimiser) {
  // min 1/2 x'Dx + c'x s.t. l <= x <= u (D diagonal): x_i = clamp(-c_i / D_i, l_i, u_i)
  const VecX d = (VecX(5) << 1.0, 2.0, 0.5, 4.0, 3.0).finished();
  const VecX c = (VecX(5) << -3.0, 1.0, 0.2, -0.4, 9.0).finished();
  const VecX l = VecX::Constant(5, -1.0), u = VecX::Constant(5, 1.0);
  MatX a_in(10, 5);
  a_in << MatX::Identity(5, 5), -MatX::Identity(5, 5);
  VecX b_in(10);
  b_in << l, -u;
  const QpProblem qp =
      make_problem(d.asDiagonal().toDenseMatrix(), c, none(5), VecX(0), a_in, b_in);
  QpSolver solver;
  const QpSolution s = solver.solve(qp);
  ASSERT_EQ(s.status, QpStatus::solved);
  for (int i = 0; i < 5; ++i) {
    const double expected = std::clamp(-c[i] / d[i], l[i], u[i]);
    EXPECT_NEAR(s.x[i], expected, 1e-12) << i;
    // multipliers: z_lower - z_upper = D x + c
    EXPECT_NEAR(s.z_in[i] - s.z_in[5 + i], d[i] * expected + c[i], 1e-12) << i;
  }
  EXPECT_LE(s.kkt_residual, kKkt);
  EXPECT_FALSE(s.used_interior_point);
}

TEST(QpSmall, EqualityConstrainedLeastSquaresMatchesTheDenseKktSolve) {
  // min 1/2 |B x - d|^2 s.t. C x = e; reference: the dense KKT system [B'B C'; C 0] [x; -y] = [B'd;
  // e]
  std::srand(7);
  const MatX b = MatX::Random(8, 6);
  const VecX dvec = VecX::Random(8);
  const MatX cmat = MatX::Random(2, 6);
  const Vec2 e = Vec2::Random();
  MatX kkt = MatX::Zero(8, 8);
  kkt.topLeftCorner(6, 6) = b.transpose() * b;
  kkt.topRightCorner(6, 2) = cmat.transpose();
  kkt.bottomLeftCorner(2, 6) = cmat;
  VecX rhs(8);
  rhs << b.transpose() * dvec, e;
  const VecX reference = kkt.fullPivLu().solve(rhs);

  const QpProblem qp =
      make_problem(b.transpose() * b, -b.transpose() * dvec, cmat, e, none(6), VecX(0));
  QpSolver solver;
  const QpSolution s = solver.solve(qp);
  ASSERT_EQ(s.status, QpStatus::solved);
  EXPECT_LE((s.x - reference.head(6)).lpNorm<Eigen::Infinity>(), 1e-10);
  EXPECT_LE((s.y_eq + reference.tail(2)).lpNorm<Eigen::Infinity>(), 1e-10);
  EXPECT_LE(s.kkt_residual, kKkt);
  EXPECT_EQ(s.factorizations, 1);
}

TEST(QpSmall, DuplicatedRowsAndSingularHessian) {
  // min -x0 - x1 (P = 0) s.t. x0 + x1 = 1 (twice), 0 <= x <= 2 (x0 >= 0 twice): every feasible
  // point is optimal
  MatX a_eq(2, 2);
  a_eq << 1, 1, 1, 1;
  MatX a_in(5, 2);
  a_in << 1, 0, 1, 0, 0, 1, -1, 0, 0, -1;
  const VecX b_in = (VecX(5) << 0, 0, 0, -2, -2).finished();
  const QpProblem qp =
      make_problem(MatX::Zero(2, 2), VecX::Constant(2, -1.0), a_eq, VecX::Ones(2), a_in, b_in);
  QpSolver solver;
  const QpSolution s = solver.solve(qp);
  ASSERT_EQ(s.status, QpStatus::solved);
  EXPECT_NEAR(s.objective, -1.0, 1e-12);
  EXPECT_LE(s.kkt_residual, kKkt);
}

TEST(QpSmall, WeaklyActiveInequalityHasZeroMultiplier) {
  // min 1/2 |x|^2 s.t. x0 >= 0: the constraint is active at x = 0 with z = 0
  const QpProblem qp = make_problem(MatX::Identity(2, 2), VecX::Zero(2), none(2), VecX(0),
                                    MatX::Identity(1, 2), VecX::Zero(1));
  QpSolver solver;
  const QpSolution s = solver.solve(qp);
  ASSERT_EQ(s.status, QpStatus::solved);
  EXPECT_LE(s.x.norm(), 1e-14);
  EXPECT_NEAR(s.z_in[0], 0.0, 1e-14);
}

TEST(QpSmall, UnconstrainedProblem) {
  const MatX p = (MatX(2, 2) << 2.0, 1.0, 1.0, 3.0).finished();
  const VecX c = (VecX(2) << 1.0, -1.0).finished();
  QpSolver solver;
  const QpSolution s = solver.solve(make_problem(p, c, none(2), VecX(0), none(2), VecX(0)));
  ASSERT_EQ(s.status, QpStatus::solved);
  EXPECT_LE((s.x + p.inverse() * c).lpNorm<Eigen::Infinity>(), 1e-13);
}

TEST(QpSmall, InfeasibleProblemsAreReported) {
  QpSolver solver;
  // x0 >= 1 and x0 <= 0
  MatX a_in(2, 2);
  a_in << 1, 0, -1, 0;
  EXPECT_EQ(solver
                .solve(make_problem(MatX::Identity(2, 2), VecX::Zero(2), none(2), VecX(0), a_in,
                                    (VecX(2) << 1.0, 0.0).finished()))
                .status,
            QpStatus::infeasible);
  // x0 + x1 = 1 and x0 + x1 = 2
  MatX a_eq(2, 2);
  a_eq << 1, 1, 1, 1;
  EXPECT_EQ(solver
                .solve(make_problem(MatX::Identity(2, 2), VecX::Zero(2), a_eq,
                                    (VecX(2) << 1.0, 2.0).finished(), none(2), VecX(0)))
                .status,
            QpStatus::infeasible);
  // x0 + x1 = 1 and x0 + x1 >= 3
  EXPECT_EQ(solver
                .solve(make_problem(MatX::Identity(2, 2), VecX::Zero(2), a_eq.topRows(1),
                                    VecX::Ones(1), a_eq.topRows(1), VecX::Constant(1, 3.0)))
                .status,
            QpStatus::infeasible);
}

TEST(QpSmall, CertificatesAreReturned) {
  // infeasible: x0 + x1 >= 2, x0 <= 0, x1 <= 1 -> z >= 0 with A_in' z = 0 and b_in' z > 0
  const Eigen::Matrix<double, 3, 2> a_in =
      (Eigen::Matrix<double, 3, 2>() << 1, 1, -1, 0, 0, -1).finished();
  const Vec3 b_in(2.0, 0.0, -1.0);
  QpSolver solver;
  const QpSolution f =
      solver.solve(make_problem(MatX::Identity(2, 2), VecX::Zero(2), none(2), VecX(0), a_in, b_in));
  ASSERT_EQ(f.status, QpStatus::infeasible);
  EXPECT_GE(f.z_in.minCoeff(), -1e-12);
  EXPECT_LE((a_in.transpose() * f.z_in).norm(), 1e-9 * f.z_in.norm());
  EXPECT_GT(b_in.dot(f.z_in), 0.0);
  // unbounded: min -x0 + x1^2 s.t. x0 - x1 >= 0 -> d with P d = 0, A_in d >= 0, c'd < 0
  const Eigen::Matrix2d p = Vec2(0.0, 2.0).asDiagonal();
  const Vec2 c(-1.0, 0.0);
  const Eigen::RowVector2d row(1.0, -1.0);
  const QpSolution u = solver.solve(make_problem(p, c, none(2), VecX(0), row, VecX::Zero(1)));
  ASSERT_EQ(u.status, QpStatus::unbounded);
  EXPECT_LE((p * u.x).norm(), 1e-9 * u.x.norm());
  EXPECT_GE(row.dot(u.x), -1e-9 * u.x.norm());
  EXPECT_LT(c.dot(u.x), 0.0);
}

TEST(QpSmall, UnboundedProblemsAreReported) {
  QpSolver solver;
  // min -x1 with P = diag(1, 0), x0 >= 0
  const MatX p = (MatX(2, 2) << 1.0, 0.0, 0.0, 0.0).finished();
  EXPECT_EQ(solver
                .solve(make_problem(p, (VecX(2) << 0.0, -1.0).finished(), none(2), VecX(0),
                                    MatX::Identity(1, 2), VecX::Zero(1)))
                .status,
            QpStatus::unbounded);
  // min -x0 - x1 (LP) s.t. x0 = x1, x >= 0
  const MatX a_eq = (MatX(1, 2) << 1.0, -1.0).finished();
  EXPECT_EQ(solver
                .solve(make_problem(MatX::Zero(2, 2), VecX::Constant(2, -1.0), a_eq, VecX::Zero(1),
                                    MatX::Identity(2, 2), VecX::Zero(2)))
                .status,
            QpStatus::unbounded);
}

TEST(QpSmall, EmptyProblemsAndZeroRows) {
  QpSolver solver;
  EXPECT_EQ(
      solver.solve(make_problem(MatX(0, 0), VecX(0), none(0), VecX(0), none(0), VecX(0))).status,
      QpStatus::solved);
  // 0 >= -1 holds, 0 >= 1 and 0 = 1 do not
  const QpSolution ok =
      solver.solve(make_problem(MatX::Identity(2, 2), VecX::Ones(2), none(2), VecX(0),
                                MatX::Zero(1, 2), VecX::Constant(1, -1.0)));
  ASSERT_EQ(ok.status, QpStatus::solved);
  EXPECT_LE((ok.x + VecX::Ones(2)).norm(), 1e-14);
  EXPECT_EQ(solver
                .solve(make_problem(MatX::Identity(2, 2), VecX::Ones(2), none(2), VecX(0),
                                    MatX::Zero(1, 2), VecX::Constant(1, 1.0)))
                .status,
            QpStatus::infeasible);
  EXPECT_EQ(solver
                .solve(make_problem(MatX::Identity(2, 2), VecX::Ones(2), MatX::Zero(1, 2),
                                    VecX::Constant(1, 1.0), none(2), VecX(0)))
                .status,
            QpStatus::infeasible);
  // a linear objective without constraints
  EXPECT_EQ(
      solver
          .solve(make_problem(MatX::Zero(2, 2), VecX::Ones(2), none(2), VecX(0), none(2), VecX(0)))
          .status,
      QpStatus::unbounded);
}

TEST(QpSmall, ResidualsFollowTheDocumentedScaling) {
  // P = 2 I, c = (1, 0), x0 + x1 = 1, x0 >= 2; at x = (1, 0), y = 3, z = 4:
  // stationarity |(2 + 1 - 3 - 4, 0 - 3)| = 4 over max(1, |c|, |P x| = 2, |A_eq'y| = 3, |A_in'z| =
  // 4) = 4 inequality violation 1 over max(1, |b_in| = 2, |A_in x| = 1) = 2; complementarity 4 * 1
  // / (4 * 2)
  const QpProblem qp =
      make_problem(2.0 * MatX::Identity(2, 2), Vec2(1.0, 0.0), MatX::Ones(1, 2), VecX::Ones(1),
                   (MatX(1, 2) << 1.0, 0.0).finished(), VecX::Constant(1, 2.0));
  const QpResiduals r =
      qp_residuals(qp, Vec2(1.0, 0.0), VecX::Constant(1, 3.0), VecX::Constant(1, 4.0));
  EXPECT_DOUBLE_EQ(r.stationarity, 1.0);
  EXPECT_DOUBLE_EQ(r.equality, 0.0);
  EXPECT_DOUBLE_EQ(r.inequality, 0.5);
  EXPECT_DOUBLE_EQ(r.dual_sign, 0.0);
  EXPECT_DOUBLE_EQ(r.complementarity, 0.5);
  EXPECT_DOUBLE_EQ(r.kkt, 1.0);
  EXPECT_DOUBLE_EQ(qp_objective(qp, Vec2(1.0, 0.0)), 2.0);
}

TEST(QpSmall, UncompressedInputGivesTheSameSolution) {
  const QpProblem qp = make_problem(MatX::Identity(2, 2), VecX::Constant(2, -2.0), none(2), VecX(0),
                                    MatX::Constant(1, 2, -1.0), VecX::Constant(1, -1.0));
  QpProblem uncompressed = qp;
  uncompressed.P.uncompress();
  uncompressed.A_in.uncompress();
  QpSolver solver;
  const QpSolution a = solver.solve(qp);
  const QpSolution b = QpSolver().solve(uncompressed);
  ASSERT_EQ(a.status, QpStatus::solved);
  ASSERT_EQ(b.status, QpStatus::solved);
  EXPECT_LE((a.x - b.x).norm(), 1e-14);
  EXPECT_NEAR(a.x[0], 0.5, 1e-12);
}

TEST(QpSmall, BadDimensionsThrowInputErrorNamingTheMember) {
  QpProblem qp =
      make_problem(MatX::Identity(2, 2), VecX::Zero(2), none(2), VecX(0), none(2), VecX(0));
  qp.b_eq = VecX::Zero(1);
  QpSolver solver;
  try {
    solver.solve(qp);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key_path(), "qp.A_eq");
  }
  qp.b_eq.resize(0);
  qp.c[1] = std::nan("");
  EXPECT_THROW(solver.solve(qp), InputError);
}

TEST(QpSmall, NonFiniteValuesThrowInputErrorNamingTheEntry) {
  // +inf, -inf and NaN in each member are refused with the entry named; the largest and smallest
  // finite doubles are accepted
  const QpProblem base = make_problem(MatX::Identity(2, 2), VecX::Zero(2), MatX::Ones(1, 2),
                                      VecX::Zero(1), MatX::Identity(2, 2), VecX::Zero(2));
  for (const double bad : {HUGE_VAL, -HUGE_VAL, std::nan("")}) {
    const auto expect_refused = [&](QpProblem qp, const char* key) {
      SCOPED_TRACE(key);
      try {
        qp.validate();
        FAIL() << "expected InputError";
      } catch (const InputError& e) {
        EXPECT_EQ(e.key_path(), key);
      }
    };
    QpProblem qp = base;
    qp.P.coeffRef(1, 1) = bad;
    expect_refused(qp, "qp.P(1,1)");
    qp = base;
    qp.A_eq.coeffRef(0, 1) = bad;
    expect_refused(qp, "qp.A_eq(0,1)");
    qp = base;
    qp.A_in.coeffRef(1, 1) = bad;
    expect_refused(qp, "qp.A_in(1,1)");
    qp = base;
    qp.c[1] = bad;
    expect_refused(qp, "qp.c[1]");
    qp = base;
    qp.b_eq[0] = bad;
    expect_refused(qp, "qp.b_eq[0]");
    qp = base;
    qp.b_in[1] = bad;
    expect_refused(qp, "qp.b_in[1]");
  }
  QpProblem extreme = base;
  extreme.A_in.coeffRef(0, 0) = std::numeric_limits<double>::max();
  extreme.b_in[1] = -std::numeric_limits<double>::max();
  extreme.c[0] = std::numeric_limits<double>::denorm_min();
  EXPECT_NO_THROW(extreme.validate());
}

TEST(QpSmall, OptionsValidateNamesTheField) {
  QpOptions options;
  options.tolerance = -1.0;
  try {
    options.validate();
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key_path(), "qp_options.tolerance");
  }
  options = QpOptions{};
  options.max_iterations = 0;
  EXPECT_THROW(QpSolver{options}, InputError);
  EXPECT_NO_THROW(QpOptions{}.validate());
  EXPECT_EQ(to_string(QpStatus::infeasible), "infeasible");
}

}  // namespace
}  // namespace tendril::qp
