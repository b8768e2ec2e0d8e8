// The chain ordering and envelope LDL^T (ldl_factorization.hpp) against the AMD ordering and sparse
// LDL^T on random chain QPs shaped like the 3D vine's step: bodies of 6 unknowns, neighbours
// coupled in P (implicit springs) and by joint rows, contact rows on one body each, with repeated
// (dependent) joint and contact rows. Independent references: a dense LU solve of the KKT matrix
// (Eigen), the same QP with its unknowns and rows shuffled (which takes the AMD path), and the KKT
// residual of each returned point recomputed here.

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <numeric>
#include <random>

#include "tendril/qp/ldl_factorization.hpp"
#include "tendril/qp/qp_solver.hpp"

namespace tendril::qp {
namespace {

using Triplets = std::vector<Eigen::Triplet<double, int>>;

/// A strictly convex chain QP: `bodies` bodies of 6 unknowns; P = per body an SPD 6 x 6 block,
/// plus a spring coupling the rotations (unknowns 3..5) of bodies 2i+1 and 2i+2; 4 joint rows per
/// pair of neighbours (every 3rd one repeated: dependent); per body 3 contact rows (one repeated
/// when `dependent`), the most violated at the unconstrained minimiser.
QpProblem random_chain_qp(int bodies, bool dependent, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int n = 6 * bodies;
  Triplets p;
  for (int b = 0; b < bodies; ++b) {
    Eigen::Matrix<double, 6, 6> g;
    for (int i = 0; i < 36; ++i) g(i / 6, i % 6) = u(rng);
    const Eigen::Matrix<double, 6, 6> block =
        g * g.transpose() + Eigen::Matrix<double, 6, 6>::Identity();
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) p.emplace_back(6 * b + i, 6 * b + j, block(i, j));
  }
  for (int b = 1; b + 1 < bodies; b += 2)  // spring: w (omega_b+1 - omega_b)^2 / 2
    for (int a = 0; a < 3; ++a) {
      const int i = 6 * b + 3 + a, j = 6 * (b + 1) + 3 + a;
      p.emplace_back(i, i, 0.5);
      p.emplace_back(j, j, 0.5);
      p.emplace_back(i, j, -0.5);
      p.emplace_back(j, i, -0.5);
    }
  QpProblem qp;
  qp.P.resize(n, n);
  qp.P.setFromTriplets(p.begin(), p.end());
  qp.c = VecX::NullaryExpr(n, [&] { return u(rng); });
  Triplets eq;
  int rows = 0;
  VecX a(12);
  for (int b = 0; b + 1 < bodies; ++b)
    for (int r = 0; r < 4; ++r, ++rows) {
      // every third joint's last row repeats the row before (equal b_eq below: consistent)
      if (!(r == 3 && b % 3 == 0)) a = VecX::NullaryExpr(12, [&] { return u(rng); });
      for (int l = 0; l < 12; ++l) eq.emplace_back(rows, 6 * b + l, a[l]);
    }
  qp.A_eq.resize(rows, n);
  qp.A_eq.setFromTriplets(eq.begin(), eq.end());
  qp.b_eq = 0.1 * VecX::NullaryExpr(rows, [&] { return u(rng); });
  for (int b = 0; b + 1 < bodies; ++b)
    if (b % 3 == 0) qp.b_eq[4 * b + 3] = qp.b_eq[4 * b + 2];
  Triplets in;
  rows = 0;
  std::vector<double> rhs;
  for (int b = 0; b < bodies; ++b)
    for (int r = 0; r < 3; ++r, ++rows) {
      const bool repeat = dependent && r == 2;
      for (int l = 0; l < 6; ++l)
        in.emplace_back(rows, 6 * b + l, repeat ? in[in.size() - 6].value() : u(rng));
      rhs.push_back(repeat ? rhs.back() : 0.5 + u(rng));  // mostly violated at x = 0
    }
  qp.A_in.resize(rows, n);
  qp.A_in.setFromTriplets(in.begin(), in.end());
  qp.b_in = Eigen::Map<VecX>(rhs.data(), rows);
  return qp;
}

/// `qp` with its unknowns and rows permuted: x' = x[perm] (perm: new -> old).
QpProblem shuffled(const QpProblem& qp, const std::vector<int>& perm, std::mt19937& rng) {
  const int n = qp.num_variables();
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> columns(n);
  for (int k = 0; k < n; ++k) columns.indices()[perm[k]] = k;  // old -> new
  const auto rows = [&](int m) {
    Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> r(m);
    r.setIdentity();
    std::shuffle(r.indices().data(), r.indices().data() + m, rng);
    return r;
  };
  const auto eq = rows(qp.num_equalities()), in = rows(qp.num_inequalities());
  QpProblem out;
  out.P = qp.P.twistedBy(columns);
  out.c = columns * qp.c;
  out.A_eq = eq * SparseMatrix(qp.A_eq * columns.transpose());
  out.b_eq = eq * qp.b_eq;
  out.A_in = in * SparseMatrix(qp.A_in * columns.transpose());
  out.b_in = in * qp.b_in;
  return out;
}

/// Lower triangle of the regularised KKT matrix of `qp` with every row on (as KktSystem builds it).
SparseMatrix kkt_lower(const QpProblem& qp, double delta) {
  const int n = qp.num_variables(), m_eq = qp.num_equalities(), m = m_eq + qp.num_inequalities();
  Triplets t;
  for (int j = 0; j < n; ++j) {
    for (SparseMatrix::InnerIterator it(qp.P, j); it; ++it)
      if (it.row() >= j) t.emplace_back(it.row(), j, it.value() + (it.row() == j ? delta : 0.0));
    for (SparseMatrix::InnerIterator it(qp.A_eq, j); it; ++it)
      t.emplace_back(n + it.row(), j, it.value());
    for (SparseMatrix::InnerIterator it(qp.A_in, j); it; ++it)
      t.emplace_back(n + m_eq + it.row(), j, it.value());
  }
  for (int i = 0; i < m; ++i) t.emplace_back(n + i, n + i, -delta);
  SparseMatrix k(n + m, n + m);
  k.setFromTriplets(t.begin(), t.end());
  k.makeCompressed();
  return k;
}

std::vector<signed char> pivot_signs(const QpProblem& qp) {
  std::vector<signed char> sign(qp.num_variables() + qp.num_equalities() + qp.num_inequalities(),
                                -1);
  std::fill(sign.begin(), sign.begin() + qp.num_variables(), 1);
  return sign;
}

TEST(QpChainOrdering, ChainKktSolvesAsTheDenseLuAndTheShuffledKktTakesAmd) {
  std::mt19937 rng(7);
  for (int bodies : {2, 5, 30}) {
    SCOPED_TRACE(bodies);
    const QpProblem qp = random_chain_qp(bodies, false, rng);
    const SparseMatrix lower = kkt_lower(qp, 1e-3);  // independent rows, well-conditioned K
    LdlFactorization ldl;
    ldl.analyse(lower, pivot_signs(qp));
    EXPECT_TRUE(ldl.chain_ordered());
    if (bodies == 30) {
      EXPECT_TRUE(ldl.envelope_kernel());
    }
    ASSERT_EQ(ldl.factorize(lower, 1.0, 1e-14, 1e-10), 0);  // no pivot replaced
    const MatX dense = MatX(SparseMatrix(lower.selfadjointView<Eigen::Lower>()));
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    const VecX rhs = VecX::NullaryExpr(lower.rows(), [&] { return u(rng); });
    VecX x = rhs;
    ldl.solve_in_place(x);
    const VecX reference = dense.partialPivLu().solve(rhs);
    EXPECT_LE((x - reference).lpNorm<Eigen::Infinity>(),
              1e-10 * reference.lpNorm<Eigen::Infinity>());
  }
  // the same chain with its unknowns shuffled: the chain ordering's envelope is too large
  std::vector<int> perm(180);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  const QpProblem mixed = shuffled(random_chain_qp(30, false, rng), perm, rng);
  LdlFactorization ldl;
  ldl.analyse(kkt_lower(mixed, 1e-3), pivot_signs(mixed));
  EXPECT_FALSE(ldl.chain_ordered());
}

TEST(QpChainOrdering, RandomChainQpsWithDependentRowsMatchTheAmdPath) {
  // the chain path (unknowns along the chain) and the AMD path (the same QP shuffled) give the same
  // minimiser (unique: P is positive definite) to the QP's tolerance, also with repeated joint and
  // contact rows, and both points pass the KKT check recomputed here
  std::mt19937 rng(11);
  int checked = 0;
  for (int trial = 0; trial < 20; ++trial) {
    SCOPED_TRACE(trial);
    const int bodies = 4 + trial % 27;
    const QpProblem qp = random_chain_qp(bodies, trial % 2 == 1, rng);
    std::vector<int> perm(qp.num_variables());
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    const QpProblem mixed = shuffled(qp, perm, rng);
    const QpSolution chain = QpSolver().solve(qp);
    const QpSolution amd = QpSolver().solve(mixed);
    ASSERT_EQ(to_string(chain.status), "solved");
    ASSERT_EQ(to_string(amd.status), "solved");
    EXPECT_LE(qp_residuals(qp, chain.x, chain.y_eq, chain.z_in).kkt, 1e-9);
    EXPECT_LE(qp_residuals(mixed, amd.x, amd.y_eq, amd.z_in).kkt, 1e-9);
    double worst = 0.0;
    for (int k = 0; k < qp.num_variables(); ++k)
      worst = std::max(worst, std::abs(amd.x[k] - chain.x[perm[k]]));
    EXPECT_LE(worst, 1e-8 * std::max(1.0, chain.x.lpNorm<Eigen::Infinity>()));
    EXPECT_NEAR(chain.objective, amd.objective, 1e-9 * std::max(1.0, std::abs(chain.objective)));
    checked += (chain.z_in.array() > 0.0).count() > 0;
  }
  EXPECT_GE(checked, 15);  // most problems have active contact rows
}

}  // namespace
}  // namespace tendril::qp
