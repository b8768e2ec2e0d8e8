// Linear solvers: banded LDL^T (after reverse Cuthill-McKee) agrees with Eigen's sparse LDL^T and a
// dense solve; both report the inertia (Sylvester's law: #negative pivots = #negative eigenvalues)
// and singular matrices.
#include <memory>
#include <random>

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "tendril/integrate/banded_ldlt_solver.hpp"
#include "tendril/integrate/banded_lu_solver.hpp"
#include "tendril/integrate/sparse_lu_solver.hpp"
#include "tendril/integrate/reverse_cuthill_mckee.hpp"
#include "tendril/integrate/sparse_ldlt_solver.hpp"

namespace tendril {
namespace {

/// A random symmetric matrix with bandwidth b in a scrambled (randomly permuted) order; the diagonal
/// is shift + sum of |off-diagonals| (SPD for shift > 0).
MatX random_banded(int n, int b, double shift, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  MatX a = MatX::Zero(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = std::max(0, i - b); j < i; ++j) a(i, j) = a(j, i) = unit(rng);
  for (int i = 0; i < n; ++i) a(i, i) = a.row(i).cwiseAbs().sum() + shift;
  std::vector<int> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  MatX p = MatX::Zero(n, n);
  for (int i = 0; i < n; ++i) p(i, perm[i]) = 1.0;
  return p * a * p.transpose();
}

SparseMatrix to_sparse(const MatX& a) { return a.sparseView(0.0, 0.0); }

TEST(LinearSolvers, BandedEqualsSparseOnRandomSpdBandedMatrices) {
  for (auto [n, b, seed] : {std::tuple{30, 1, 1u}, {80, 4, 2u}, {150, 10, 3u}, {200, 25, 4u}}) {
    const MatX a = random_banded(n, b, 0.5, seed);
    const SparseMatrix s = to_sparse(a);
    BandedLdltSolver banded;
    SparseLdltSolver sparse;
    banded.analyze(s);
    sparse.analyze(s);
    EXPECT_LE(banded.bandwidth(), 3 * b) << "RCM should recover a narrow band";
    ASSERT_EQ(banded.factorize(s, 1e-13).status, Factorization::Status::positive_definite);
    ASSERT_EQ(sparse.factorize(s, 1e-13).status, Factorization::Status::positive_definite);
    const VecX rhs = VecX::LinSpaced(n, -1.0, 2.0);
    VecX x_banded, x_sparse;
    banded.solve(rhs, x_banded);
    sparse.solve(rhs, x_sparse);
    const VecX x_dense = a.ldlt().solve(rhs);
    EXPECT_LE((x_banded - x_dense).norm(), 1e-10 * x_dense.norm()) << "n " << n;
    EXPECT_LE((x_sparse - x_dense).norm(), 1e-10 * x_dense.norm()) << "n " << n;
    // refactorizing new values in the same pattern reuses the analysis
    const SparseMatrix s2 = to_sparse(2.0 * a);
    banded.factorize(s2, 1e-13);
    banded.solve(rhs, x_banded);
    EXPECT_LE((2.0 * x_banded - x_dense).norm(), 1e-10 * x_dense.norm());
  }
}

TEST(LinearSolvers, LuSolversMatchADenseSolveOnNonSymmetricBandedMatrices) {
  for (auto [n, b, seed] : {std::tuple{30, 1, 5u}, {80, 4, 6u}, {150, 10, 7u}}) {
    // symmetric pattern, non-symmetric values: a random skew part added to an SPD banded matrix
    const MatX spd = random_banded(n, b, 0.5, seed);
    MatX a = spd;
    std::mt19937 rng(seed + 100);
    std::uniform_real_distribution<double> unit(-0.5, 0.5);
    for (int j = 0; j < n; ++j)
      for (int i = j + 1; i < n; ++i)
        if (spd(i, j) != 0.0) {
          const double s = unit(rng);
          a(i, j) += s;
          a(j, i) -= s;
        }
    const SparseMatrix s = to_sparse(a);
    BandedLuSolver banded;
    SparseLuSolver sparse;
    banded.analyze(s);
    sparse.analyze(s);
    EXPECT_LE(banded.bandwidth(), 3 * b);
    ASSERT_NE(banded.factorize(s, 1e-13).status, Factorization::Status::singular);
    ASSERT_NE(sparse.factorize(s, 1e-13).status, Factorization::Status::singular);
    const VecX rhs = VecX::LinSpaced(n, -1.0, 2.0);
    VecX x_banded, x_sparse;
    banded.solve(rhs, x_banded);
    sparse.solve(rhs, x_sparse);
    const VecX x_dense = a.partialPivLu().solve(rhs);
    EXPECT_LE((x_banded - x_dense).norm(), 1e-10 * x_dense.norm()) << "n " << n;
    EXPECT_LE((x_sparse - x_dense).norm(), 1e-10 * x_dense.norm()) << "n " << n;
    // a zero row/column is singular for both (a row with only a tiny diagonal, 1e-300, is not: the pivot
    // test is relative to each row's own diagonal, so such a row is as well conditioned as any)
    MatX z = a;
    z.row(n / 2).setZero();
    z.col(n / 2).setZero();
    const SparseMatrix zs = to_sparse(z);
    BandedLuSolver banded_z;
    SparseLuSolver sparse_z;
    banded_z.analyze(zs);
    sparse_z.analyze(zs);
    EXPECT_EQ(banded_z.factorize(zs, 1e-13).status, Factorization::Status::singular);
    EXPECT_EQ(sparse_z.factorize(zs, 1e-13).status, Factorization::Status::singular);
  }
}

TEST(LinearSolvers, PivotTestIsRelativeToEachRowsOwnDiagonal) {
  // D A D with D = diag(1e-7 .. 1e7): rows of very different stiffness (a near-rigid part beside soft
  // ones, twists beside positions). Every pivot is its row's diagonal times what survives the
  // elimination of the (well conditioned) A, so no solver may call it singular, and the solution is
  // D^-1 A^-1 D^-1 b to the accuracy of A's own solve
  const int n = 60;
  const MatX a = random_banded(n, 3, 0.5, 7u);
  VecX d(n);
  for (int i = 0; i < n; ++i) d[i] = std::pow(10.0, (i * 7) % 15 - 7);
  const MatX scaled = d.asDiagonal() * a * d.asDiagonal();
  const SparseMatrix s = to_sparse(scaled);
  const VecX rhs = VecX::LinSpaced(n, -1.0, 2.0);
  const VecX expected = (a.ldlt().solve(rhs.cwiseQuotient(d))).cwiseQuotient(d);
  std::unique_ptr<LinearSolver> solvers[] = {std::make_unique<BandedLdltSolver>(), std::make_unique<SparseLdltSolver>(),
                                             std::make_unique<BandedLuSolver>(), std::make_unique<SparseLuSolver>()};
  for (auto& solver : solvers) {
    solver->analyze(s);
    const Factorization f = solver->factorize(s, 1e-13);
    EXPECT_NE(f.status, Factorization::Status::singular) << solver->name();
    EXPECT_EQ(f.negative_pivots, 0) << solver->name();
    VecX x;
    solver->solve(rhs, x);
    EXPECT_LE((x - expected).cwiseQuotient(expected).cwiseAbs().maxCoeff(), 1e-9) << solver->name();
  }
}

TEST(LinearSolvers, IndefiniteMatricesReportTheirInertia) {
  const int n = 60;
  MatX a = random_banded(n, 3, 0.5, 9);
  a.diagonal() -= VecX::Constant(n, 3.3);  // pushes part of the spectrum below zero
  Eigen::SelfAdjointEigenSolver<MatX> eig(a);
  const int negative = static_cast<int>((eig.eigenvalues().array() < 0.0).count());
  ASSERT_GT(negative, 0);
  ASSERT_LT(negative, n);
  const SparseMatrix s = to_sparse(a);
  BandedLdltSolver banded;
  SparseLdltSolver sparse;
  banded.analyze(s);
  sparse.analyze(s);
  const Factorization fb = banded.factorize(s, 1e-13);
  const Factorization fs = sparse.factorize(s, 1e-13);
  EXPECT_EQ(fb.status, Factorization::Status::indefinite);
  EXPECT_EQ(fs.status, Factorization::Status::indefinite);
  EXPECT_EQ(fb.negative_pivots, negative);
  EXPECT_EQ(fs.negative_pivots, negative);
}

TEST(LinearSolvers, SingularMatricesAreDetected) {
  // graph Laplacian of a path: the constant vector is a null vector
  const int n = 40;
  MatX a = MatX::Zero(n, n);
  for (int i = 0; i + 1 < n; ++i) {
    a(i, i) += 1.0;
    a(i + 1, i + 1) += 1.0;
    a(i, i + 1) = a(i + 1, i) = -1.0;
  }
  const SparseMatrix s = to_sparse(a);
  BandedLdltSolver banded;
  SparseLdltSolver sparse;
  banded.analyze(s);
  sparse.analyze(s);
  EXPECT_EQ(banded.factorize(s, 1e-13).status, Factorization::Status::singular);
  EXPECT_EQ(sparse.factorize(s, 1e-13).status, Factorization::Status::singular);
}

TEST(LinearSolvers, ReverseCuthillMcKeeMakesARodBanded) {
  // the stencil pattern of a rod in DER order q = [x (3N) | theta (E)]: bend-twist at node k couples
  // x_{k-1}, x_k, x_{k+1}, theta_{k-1}, theta_k
  const int num_nodes = 50, num_edges = num_nodes - 1;
  SparsityBuilder builder(3 * num_nodes + num_edges);
  builder.add_diagonal();
  for (int k = 1; k + 1 < num_nodes; ++k) {
    std::vector<int> dofs;
    for (int i = k - 1; i <= k + 1; ++i)
      for (int a = 0; a < 3; ++a) dofs.push_back(3 * i + a);
    dofs.push_back(3 * num_nodes + k - 1);
    dofs.push_back(3 * num_nodes + k);
    builder.add_stencil(dofs);
  }
  const SparseMatrix pattern = builder.build();
  std::vector<int> natural(pattern.rows());
  std::iota(natural.begin(), natural.end(), 0);
  EXPECT_GT(permuted_bandwidth(pattern, natural), 3 * num_nodes - 10);
  const std::vector<int> order = reverse_cuthill_mckee(pattern);
  std::vector<int> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, natural) << "not a permutation";
  EXPECT_LE(permuted_bandwidth(pattern, order), 12);
}

}  // namespace
}  // namespace tendril
