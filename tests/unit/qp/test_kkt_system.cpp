// KktSystem (kkt_system.hpp): the matrix it writes as inequality rows are switched off and on, its
// product with K0 and its blockwise backward error, against a dense K0 assembled here from P, A_eq,
// A_in, the rows switched on and D, and the regularisation of docs/physics/qp_solver.md; a system
// re-analysed as contact rows appear and vanish against a freshly analysed one and a dense solve.

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "tendril/qp/kkt_system.hpp"
#include "tendril/qp/ldl_factorization.hpp"
#include "tendril/qp/qp_solver.hpp"

namespace tendril::qp {
namespace {

constexpr double kEps = 1e-9;  // regularisation eps (QpOptions' default)

/// rows x cols with each entry nonzero with probability `density`, values in (-1, 1).
SparseMatrix random_sparse(int rows, int cols, double density, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0), pick(0.0, 1.0);
  MatX m = MatX::Zero(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      if (pick(rng) < density) m(i, j) = u(rng);
  SparseMatrix s = m.sparseView();
  s.makeCompressed();
  return s;
}

/// A QP with n = 12, 5 equalities and 8 inequalities: P = G G' + diag (both triangles, diagonal
/// entries from 1e-2 to 1e2 as a mass matrix's), sparse A_eq and A_in; `scale` multiplies every
/// value (the same pattern for every scale).
QpProblem random_qp(std::mt19937& rng, double scale = 1.0) {
  const int n = 12;
  const SparseMatrix g = random_sparse(n, n, 0.2, rng);
  MatX p = MatX(g) * MatX(g).transpose();
  for (int j = 0; j < n; ++j) p(j, j) += std::pow(10.0, -2.0 + 4.0 * j / (n - 1));
  QpProblem qp;
  qp.P = (scale * p).sparseView();
  qp.P.makeCompressed();
  qp.c = VecX::Random(n);
  qp.A_eq = scale * random_sparse(5, n, 0.4, rng);
  qp.b_eq = VecX::Random(5);
  qp.A_in = scale * random_sparse(8, n, 0.4, rng);
  qp.b_in = VecX::Random(8);
  return qp;
}

/// K0 of `qp` (dense, both triangles): inequality row i holds A_in row i and D_i = d[i] if
/// row_on[i], else zeros and D_i = 1.
MatX dense_k0(const QpProblem& qp, const std::vector<char>& row_on, const VecX& d) {
  const int n = qp.num_variables(), m_eq = qp.num_equalities(), m_in = qp.num_inequalities();
  MatX k0 = MatX::Zero(n + m_eq + m_in, n + m_eq + m_in);
  k0.topLeftCorner(n, n) = MatX(qp.P);
  k0.block(n, 0, m_eq, n) = MatX(qp.A_eq);
  const MatX a_in = MatX(qp.A_in);
  for (int i = 0; i < m_in; ++i) {
    if (row_on[i]) k0.block(n + m_eq + i, 0, 1, n) = a_in.row(i);
    k0(n + m_eq + i, n + m_eq + i) = row_on[i] ? -d[i] : -1.0;
  }
  k0.topRightCorner(n, m_eq + m_in) = k0.bottomLeftCorner(m_eq + m_in, n).transpose();
  return k0;
}

/// The documented regularisation: rho_j = eps max(P_jj, 1e-3 max_k P_kk), -eps on the multipliers.
VecX regularization(const QpProblem& qp) {
  const int n = qp.num_variables();
  VecX r = VecX::Constant(n + qp.num_equalities() + qp.num_inequalities(), -kEps);
  const VecX p_diagonal = MatX(qp.P).diagonal();
  const double p_floor = 1e-3 * p_diagonal.maxCoeff();
  for (int j = 0; j < n; ++j) r[j] = kEps * std::max(p_diagonal[j], p_floor);
  return r;
}

/// max_i |rhs - K0 u|_i / max_i (|K0| |u| + |rhs|)_i per block of rows, the largest over blocks.
double dense_backward_error(const MatX& k0, const VecX& rhs, const VecX& u,
                            const std::vector<int>& blocks) {
  const VecX r = rhs - k0 * u;
  const VecX m = k0.cwiseAbs() * u.cwiseAbs() + rhs.cwiseAbs();
  double error = 0.0;
  for (std::size_t b = 0; b + 1 < blocks.size(); ++b) {
    const int first = blocks[b], count = blocks[b + 1] - blocks[b];
    error = std::max(
        error, r.segment(first, count).cwiseAbs().maxCoeff() / m.segment(first, count).maxCoeff());
  }
  return error;
}

std::vector<char> random_rows(int m_in, std::mt19937& rng) {
  std::vector<char> on(m_in);
  for (char& f : on) f = static_cast<char>(rng() % 2);
  return on;
}

/// A QP shaped like a 3D vine step: `bodies` bodies of 6 unknowns with a dense SPD 6 x 6 block of
/// P each, 4 joint rows per body on it and the body before (the first on itself), and per entry of
/// `contact_bodies` 3 contact rows on that body's 6 unknowns (rows in pair order); random values
/// in (-1, 1).
QpProblem chain3d_qp(int bodies, const std::vector<int>& contact_bodies, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int n = 6 * bodies;
  std::vector<Eigen::Triplet<double, int>> p, eq, in;
  for (int b = 0; b < bodies; ++b) {
    const MatX g = MatX::NullaryExpr(6, 6, [&] { return u(rng); });
    const MatX block = g * g.transpose() + MatX::Identity(6, 6);
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) p.emplace_back(6 * b + i, 6 * b + j, block(i, j));
    for (int r = 4 * b; r < 4 * b + 4; ++r)
      for (int c = std::max(0, 6 * b - 6); c < 6 * b + 6; ++c) eq.emplace_back(r, c, u(rng));
  }
  const int m_in = 3 * static_cast<int>(contact_bodies.size());
  for (int r = 0; r < m_in; ++r)
    for (int l = 0; l < 6; ++l) in.emplace_back(r, 6 * contact_bodies[r / 3] + l, u(rng));
  QpProblem qp;
  qp.P.resize(n, n);
  qp.P.setFromTriplets(p.begin(), p.end());
  qp.A_eq.resize(4 * bodies, n);
  qp.A_eq.setFromTriplets(eq.begin(), eq.end());
  qp.A_in.resize(m_in, n);
  qp.A_in.setFromTriplets(in.begin(), in.end());
  for (SparseMatrix* m : {&qp.P, &qp.A_eq, &qp.A_in}) m->makeCompressed();
  qp.c = VecX::NullaryExpr(n, [&] { return u(rng); });
  qp.b_eq = VecX::NullaryExpr(4 * bodies, [&] { return u(rng); });
  qp.b_in = VecX::NullaryExpr(m_in, [&] { return u(rng); });
  return qp;
}

TEST(KktSystem, ReanalysedAsContactRowsAppearAndVanishSolvesAsAFreshlyAnalysedOne) {
  // one KktSystem re-analysed for each contact set in turn (rows appear, move, vanish, return),
  // against a KktSystem analysed only for that problem: the same matrix and bitwise the same
  // solution, which solves K0 u = rhs as a dense LU does; the chain takes the envelope kernel,
  // whose panels a re-analysis reuses
  const std::vector<std::vector<int>> contacts = {{}, {2, 5, 5, 9}, {3, 9, 11},
                                                  {}, {0, 7, 7, 7}, {1, 2, 3, 4}};
  std::mt19937 rng(13);
  const QpOptions options;  // the solver's refinement steps and target
  KktSystem reused;
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    SCOPED_TRACE(k);
    const QpProblem qp = chain3d_qp(12, contacts[k], rng);
    const int size = qp.num_variables() + qp.num_equalities() + qp.num_inequalities();
    const std::vector<char> on(qp.num_inequalities(), 1);
    const VecX d = VecX::Constant(qp.num_inequalities(), 0.1);  // D > 0: K0 regular
    const VecX rhs = VecX::Random(size);
    KktSystem fresh;
    VecX solution[2];
    int s = 0;
    for (KktSystem* kkt : {&reused, &fresh}) {
      kkt->analyse(qp);
      kkt->set_problem(qp, kEps);
      kkt->set_inequality_rows(qp, on, d);
      ASSERT_TRUE(kkt->factorize());
      ASSERT_TRUE(kkt->solve(rhs, solution[s++], options.max_refinement_steps,
                             options.refinement_target()));
    }
    EXPECT_EQ(MatX(reused.matrix()), MatX(fresh.matrix()));
    EXPECT_EQ(solution[0], solution[1]);
    const VecX exact = dense_k0(qp, on, d).partialPivLu().solve(rhs);
    EXPECT_LE((solution[0] - exact).norm(), 1e-10 * exact.norm());
    std::vector<signed char> sign(size, -1);
    std::fill(sign.begin(), sign.begin() + qp.num_variables(), 1);
    LdlFactorization kernel;  // the kernel KktSystem's analysis chooses for this matrix
    kernel.analyse(fresh.matrix(), sign);
    EXPECT_TRUE(kernel.envelope_kernel());
  }
}

TEST(KktSystem, WritesK0PlusTheRegularisationAsRowsSwitchOffAndOn) {
  // the lower triangle of K after a sequence of working sets (all on, none, random, with D > 0 as
  // the interior-point method sets it), and after a new problem with the same pattern, equals the
  // dense K0 + diag(regularisation) of the last rows and values
  std::mt19937 rng(7);
  const QpProblem qp = random_qp(rng);
  const int m_in = qp.num_inequalities();
  KktSystem kkt;
  kkt.analyse(qp);
  const auto check = [&](const QpProblem& problem, const std::vector<char>& on, const VecX& d) {
    kkt.set_inequality_rows(problem, on, d);
    MatX k = dense_k0(problem, on, d);
    k.diagonal() += regularization(problem);
    const MatX written = MatX(kkt.matrix());
    const MatX expected = k.triangularView<Eigen::Lower>();
    EXPECT_LE((written - expected).lpNorm<Eigen::Infinity>(),
              1e-15 * expected.lpNorm<Eigen::Infinity>());
  };
  kkt.set_problem(qp, kEps);
  check(qp, std::vector<char>(m_in, 1), VecX::Zero(m_in));
  check(qp, std::vector<char>(m_in, 0), VecX::Zero(m_in));
  for (int k = 0; k < 4; ++k) {
    SCOPED_TRACE(k);
    check(qp, random_rows(m_in, rng), VecX::Random(m_in).cwiseAbs());
  }
  // new values on the same pattern (the next step's QP): P and A_eq written again by set_problem
  std::mt19937 same_pattern(7);
  const QpProblem next = random_qp(same_pattern, 3.0);
  ASSERT_TRUE(kkt.matches(next));
  kkt.set_problem(next, kEps);
  check(next, random_rows(m_in, rng), VecX::Zero(m_in));
  check(next, std::vector<char>(m_in, 1), VecX::Zero(m_in));
}

TEST(KktSystem, BackwardErrorAndK0ProductMatchADenseK0) {
  std::mt19937 rng(11);
  const QpProblem qp = random_qp(rng);
  const int n = qp.num_variables(), m_eq = qp.num_equalities(), m_in = qp.num_inequalities();
  const std::vector<int> blocks = {0, n, n + m_eq, n + m_eq + m_in};
  KktSystem kkt;
  kkt.analyse(qp);
  kkt.set_problem(qp, kEps);
  const std::vector<char> on = random_rows(m_in, rng);
  const VecX d = VecX::Zero(m_in);
  kkt.set_inequality_rows(qp, on, d);
  const MatX k0 = dense_k0(qp, on, d);

  // blocks of very different scales (velocities, large multipliers, small ones)
  VecX u(n + m_eq + m_in), rhs(n + m_eq + m_in);
  u << VecX::Random(n), 1e3 * VecX::Random(m_eq), 1e-2 * VecX::Random(m_in);
  rhs << VecX::Random(n), 1e-3 * VecX::Random(m_eq), VecX::Random(m_in);
  const double scale = (k0.cwiseAbs() * u.cwiseAbs() + rhs.cwiseAbs()).maxCoeff();
  VecX product(u.size());
  kkt.multiply_k0(u, product);
  EXPECT_LE((product - k0 * u).lpNorm<Eigen::Infinity>(), 1e-14 * scale);
  const double error = kkt.backward_error(rhs, u);
  EXPECT_NEAR(error, dense_backward_error(k0, rhs, u, blocks),
              1e-13 * dense_backward_error(k0, rhs, u, blocks));
  EXPECT_LE((kkt.residual() - (rhs - k0 * u)).lpNorm<Eigen::Infinity>(), 1e-14 * scale);

  // the exact solution of K0 u = rhs (dense LU) has a backward error at rounding level in every
  // block, however small its scale
  const VecX exact = k0.partialPivLu().solve(rhs);
  EXPECT_LE(kkt.backward_error(rhs, exact), 1e-13);
  EXPECT_LE(dense_backward_error(k0, rhs, exact, blocks), 1e-13);

  // a non-finite entry of u gives +inf
  VecX broken = u;
  broken[n + 1] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(kkt.backward_error(rhs, broken), HUGE_VAL);
  broken[n + 1] = HUGE_VAL;
  EXPECT_EQ(kkt.backward_error(rhs, broken), HUGE_VAL);
}

}  // namespace
}  // namespace tendril::qp
