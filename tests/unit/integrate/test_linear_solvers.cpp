// Linear solvers: banded LDL^T (after reverse Cuthill-McKee) agrees with Eigen's sparse LDL^T and a
// dense solve; both report the inertia (Sylvester's law: #negative pivots = #negative eigenvalues)
// and singular matrices.
#include <array>
#include <cstdio>
#include <memory>
#include <random>
#include <string_view>
#include <utility>

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "tendril/integrate/amd_lu_solver.hpp"
#include "tendril/integrate/banded_ldlt_solver.hpp"
#include "tendril/integrate/banded_lu_solver.hpp"
#include "tendril/integrate/linear_solver.hpp"
#include "tendril/integrate/reverse_cuthill_mckee.hpp"
#include "tendril/integrate/sparse_ldlt_solver.hpp"
#include "tendril/integrate/sparse_lu_solver.hpp"

namespace tendril {
namespace {

/// P a P^T for a random permutation P drawn from rng.
MatX scrambled(const MatX& a, std::mt19937& rng) {
  const auto n = static_cast<int>(a.rows());
  std::vector<int> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  MatX p = MatX::Zero(n, n);
  for (int i = 0; i < n; ++i) p(i, perm[i]) = 1.0;
  return p * a * p.transpose();
}

/// A random symmetric matrix with bandwidth b in a scrambled (randomly permuted) order; the
/// diagonal is shift + sum of |off-diagonals| (SPD for shift > 0).
MatX random_banded(int n, int b, double shift, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  MatX a = MatX::Zero(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = std::max(0, i - b); j < i; ++j) a(i, j) = a(j, i) = unit(rng);
  for (int i = 0; i < n; ++i) a(i, i) = a.row(i).cwiseAbs().sum() + shift;
  return scrambled(a, rng);
}

SparseMatrix to_sparse(const MatX& a) {
  return a.sparseView(0.0, 0.0);
}

/// A dense hub of `hub` unknowns with `chains` chains of `length` unknowns (bandwidth 3) attached
/// to it, in a scrambled order, with non-symmetric values dominated by the diagonal (the
/// flagellated robot's and the legged robot's patterns: limbs joined at a body).
MatX hub_with_chains(int hub, int chains, int length, unsigned seed) {
  const int n = hub + chains * length;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  MatX a = MatX::Zero(n, n);
  for (int i = 0; i < hub; ++i)
    for (int j = 0; j < hub; ++j) a(i, j) = unit(rng);
  for (int c = 0; c < chains; ++c)
    for (int k = 0; k < length; ++k) {
      const int i = hub + c * length + k;
      for (int d = 1; d <= 3; ++d) {
        // the chain's first unknowns couple to the hub's last ones
        const int j = k - d >= 0 ? i - d : (k - d + hub + 8 * chains) % hub;
        a(i, j) = unit(rng);
        a(j, i) = unit(rng);
      }
    }
  for (int i = 0; i < n; ++i) a(i, i) = a.row(i).cwiseAbs().sum() + a.col(i).cwiseAbs().sum() + 0.5;
  return scrambled(a, rng);
}

/// AmdLuSolver's solution of a x = rhs (s: a's entries, analyzed by `amd`), checked against a
/// dense LU's.
VecX amd_solution_against_dense(AmdLuSolver& amd, const MatX& a, const SparseMatrix& s,
                                const VecX& rhs) {
  EXPECT_EQ(amd.factorize(s, 1e-13).status, Factorization::Status::general);
  VecX x;
  amd.solve(rhs, x);
  const VecX x_dense = a.partialPivLu().solve(rhs);
  EXPECT_LE((x - x_dense).norm(), 1e-12 * x_dense.norm());
  return x;
}

/// Makes a diagonally dominant (each diagonal above its row's and column's sums), scrambles its
/// numbering and analyzes its entries with `amd`; returns them.
SparseMatrix dominant_scrambled_analyzed(MatX& a, std::mt19937& rng, AmdLuSolver& amd) {
  for (int i = 0; i < a.rows(); ++i)
    a(i, i) = a.row(i).cwiseAbs().sum() + a.col(i).cwiseAbs().sum() + 0.5;
  a = scrambled(a, rng);
  SparseMatrix s = to_sparse(a);
  amd.analyze(s);
  return s;
}

/// The graph Laplacian of a rows x cols grid of nodes with 8 neighbours each (a shell mesh's node
/// graph), nodes numbered in a scrambled order: positive semi-definite, the constant vector its
/// null vector.
MatX grid_laplacian(int rows, int cols, unsigned seed) {
  const int n = rows * cols;
  std::vector<int> id(n);
  std::iota(id.begin(), id.end(), 0);
  std::mt19937 rng(seed);
  std::shuffle(id.begin(), id.end(), rng);
  MatX a = MatX::Zero(n, n);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      for (int dr = 0; dr <= 1; ++dr)
        for (int dc = -1; dc <= 1; ++dc) {
          if ((dr == 0 && dc <= 0) || r + dr >= rows || c + dc < 0 || c + dc >= cols) continue;
          const int i = id[r * cols + c], j = id[(r + dr) * cols + c + dc];
          a(i, j) = a(j, i) = -1.0;
          a(i, i) += 1.0;
          a(j, j) += 1.0;
        }
  return a;
}

TEST(LinearSolvers, BandedEqualsSparseOnRandomSpdBandedMatrices) {
  // sizes of every remainder modulo the banded LDL^T's panel of 4 columns (b = 25) and narrow bands
  // on its band kernel (eliminate_band, b <= 16), down to a single unknown
  for (auto [n, b, seed] : {std::tuple{30, 1, 1u},
                            {80, 4, 2u},
                            {150, 10, 3u},
                            {200, 25, 4u},
                            {97, 6, 21u},
                            {7, 2, 22u},
                            {3, 1, 23u},
                            {1, 0, 24u}}) {
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

/// A rod's Newton matrix pattern with random SPD values: `nodes` nodes (three position DOFs each,
/// 0 .. 3 nodes - 1) and an edge twist after each but the last (3 nodes + e), every stretch
/// stencil (two nodes) and bend-twist stencil (three nodes, two twists) adding a random SPD block;
/// the first `clamped` DOFs of the interleaved order (x_0, theta_0, x_1, ...) removed, as a clamp.
MatX random_rod_matrix(int nodes, int clamped, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const int n = 4 * nodes - 1;
  MatX a = MatX::Zero(n, n);
  const auto add_stencil = [&](const std::vector<int>& dofs) {
    const auto m = static_cast<int>(dofs.size());
    MatX g(m, m);
    for (int k = 0; k < m * m; ++k) g.data()[k] = unit(rng);
    const MatX local = g * g.transpose() + MatX::Identity(m, m);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < m; ++j) a(dofs[i], dofs[j]) += local(i, j);
  };
  const auto node = [&](int i, std::vector<int>& dofs) {
    for (int d = 0; d < 3; ++d) dofs.push_back(3 * i + d);
  };
  for (int i = 0; i + 1 < nodes; ++i) {
    std::vector<int> stretch;
    node(i, stretch);
    node(i + 1, stretch);
    add_stencil(stretch);
    if (i + 2 < nodes) {
      std::vector<int> bend{3 * nodes + i, 3 * nodes + i + 1};
      for (int k = i; k <= i + 2; ++k) node(k, bend);
      add_stencil(bend);
    }
  }
  std::vector<int> keep;  // the interleaved order's DOFs after the clamped ones
  for (int i = 0; i < nodes; ++i)
    for (int d = 0; d < 4; ++d) {
      const int dof = d < 3 ? 3 * i + d : (i + 1 < nodes ? 3 * nodes + i : -1);
      if (dof >= 0 && 4 * i + d >= clamped) keep.push_back(dof);
    }
  MatX free(keep.size(), keep.size());
  for (std::size_t i = 0; i < keep.size(); ++i)
    for (std::size_t j = 0; j < keep.size(); ++j) free(i, j) = a(keep[i], keep[j]);
  return free;
}

TEST(LinearSolvers, BandedLdltOnARodStaircaseEqualsADenseSolve) {
  // a rod's band (b = 10) is a staircase of node blocks: the factorization that skips the zeros
  // beyond each block's band solves as a dense LDL^T does, for rod lengths of every remainder
  // modulo the block and clamps of 0 .. 7 DOFs (every phase of the blocks), twice on one storage
  for (int nodes : {4, 5, 6, 7, 26}) {
    for (int clamped = 0; clamped < 8; ++clamped) {
      const MatX a = random_rod_matrix(nodes, clamped, 100U * nodes + clamped);
      const SparseMatrix s = to_sparse(a);
      BandedLdltSolver banded;
      banded.analyze(s);
      if (nodes >= 5) {
        EXPECT_EQ(banded.bandwidth(), 10) << nodes << " nodes, " << clamped << " clamped";
        EXPECT_TRUE(banded.staircase()) << nodes << " nodes, " << clamped << " clamped";
      }
      ASSERT_EQ(banded.factorize(s, 1e-13).status, Factorization::Status::positive_definite);
      const VecX rhs = VecX::LinSpaced(a.rows(), -1.0, 2.0);
      VecX x;
      banded.solve(rhs, x);
      const VecX x_dense = a.ldlt().solve(rhs);
      EXPECT_LE((x - x_dense).norm(), 1e-12 * x_dense.norm())
          << nodes << " nodes, " << clamped << " clamped";
      // again on the same storage, with other values in the same pattern (the fill of the first
      // factorization cleared)
      const MatX a2 = random_rod_matrix(nodes, clamped, 100U * nodes + clamped + 50U);
      ASSERT_EQ(banded.factorize(to_sparse(a2), 1e-13).status,
                Factorization::Status::positive_definite);
      banded.solve(rhs, x);
      const VecX x2_dense = a2.ldlt().solve(rhs);
      EXPECT_LE((x - x2_dense).norm(), 1e-12 * x2_dense.norm())
          << nodes << " nodes, " << clamped << " clamped, second factorization";
    }
  }
}

TEST(LinearSolvers, BandedLdltOnAMeshFollowsItsEnvelope) {
  // a mesh's node graph in RCM order has a ragged envelope: the factorization stays inside it (less
  // work than the full band) and solves as a dense LDL^T does, on meshes of every size modulo the
  // panel of 4 columns
  for (auto [rows, cols, seed] : {std::tuple{12, 5, 41u}, {9, 7, 42u}, {15, 3, 43u}, {2, 2, 44u}}) {
    MatX a = grid_laplacian(rows, cols, seed);
    a.diagonal().array() += 0.3;
    const int n = rows * cols;
    BandedLdltSolver banded;
    banded.analyze(to_sparse(a));
    if (n > 20) {
      EXPECT_LT(banded.multiply_adds(), banded_multiply_adds(n, banded.bandwidth()))
          << rows << " x " << cols;
    }
    ASSERT_EQ(banded.factorize(to_sparse(a), 1e-13).status,
              Factorization::Status::positive_definite);
    const VecX rhs = VecX::LinSpaced(n, -1.0, 2.0);
    VecX x;
    banded.solve(rhs, x);
    const VecX x_dense = a.ldlt().solve(rhs);
    EXPECT_LE((x - x_dense).norm(), 1e-11 * x_dense.norm()) << rows << " x " << cols;
  }
}

TEST(LinearSolvers, LuSolversMatchADenseSolveOnNonSymmetricBandedMatrices) {
  // narrow bands (single-column updates) and bands of at least 24 (panels of 4 columns), with sizes
  // of every remainder modulo the panel, down to a single unknown
  for (auto [n, b, seed] : {std::tuple{30, 1, 5u},
                            {80, 4, 6u},
                            {150, 10, 7u},
                            {7, 2, 26u},
                            {3, 1, 27u},
                            {1, 0, 28u},
                            {200, 25, 29u},
                            {201, 30, 30u},
                            {202, 26, 31u},
                            {203, 40, 32u}}) {
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
    if (b >= 25) {
      EXPECT_GE(banded.bandwidth(), 24) << "the wide cases take the panels";
    }
    ASSERT_NE(banded.factorize(s, 1e-13).status, Factorization::Status::singular);
    ASSERT_NE(sparse.factorize(s, 1e-13).status, Factorization::Status::singular);
    const VecX rhs = VecX::LinSpaced(n, -1.0, 2.0);
    VecX x_banded, x_sparse;
    banded.solve(rhs, x_banded);
    sparse.solve(rhs, x_sparse);
    const VecX x_dense = a.partialPivLu().solve(rhs);
    EXPECT_LE((x_banded - x_dense).norm(), 1e-10 * x_dense.norm()) << "n " << n;
    EXPECT_LE((x_sparse - x_dense).norm(), 1e-10 * x_dense.norm()) << "n " << n;
    // a zero row/column is singular for both (a row with only a tiny diagonal, 1e-300, is not: the
    // pivot test is relative to each row's own diagonal, so such a row is as well conditioned as
    // any)
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

TEST(LinearSolvers, BandedSolversReadAMatrixThroughAMapAsTheyReadItsCopy) {
  // A is the submatrix of rows and columns `keep` of a larger matrix B; factorize_through(B's
  // values, map) must give what factorize(A) gives (the same operations on the same values:
  // bitwise), after a factorization of another matrix left the envelope full of other values
  const int n = 60;
  const MatX big = random_banded(n, 6, 0.5, 41u);
  MatX nonsymmetric = big;
  for (int j = 0; j < n; ++j)
    for (int i = j + 1; i < n; ++i)
      if (big(i, j) != 0.0) nonsymmetric(i, j) += 0.1 * (i - j);
  std::vector<int> keep;
  for (int i = 0; i < n; ++i)
    if (i % 7 != 3) keep.push_back(i);
  const int m = static_cast<int>(keep.size());
  const auto check = [&](LinearSolver& direct, LinearSolver& mapped, const MatX& b_dense) {
    MatX a_dense(m, m);
    for (int j = 0; j < m; ++j)
      for (int i = 0; i < m; ++i) a_dense(i, j) = b_dense(keep[i], keep[j]);
    const SparseMatrix a = to_sparse(a_dense), b = to_sparse(b_dense);
    std::vector<int> map;  // value index in b of each stored entry of a
    for (int j = 0; j < m; ++j)
      for (SparseMatrix::InnerIterator it(a, j); it; ++it)
        map.push_back(value_index(b, keep[it.row()], keep[j]));
    direct.analyze(a);
    mapped.analyze(a);
    ASSERT_TRUE(mapped.read_through(map));
    const SparseMatrix other = to_sparse(2.0 * a_dense + MatX::Identity(m, m));
    ASSERT_NE(mapped.factorize(other, 1e-13).status, Factorization::Status::singular);
    const Factorization f_direct = direct.factorize(a, 1e-13);
    const Factorization f_mapped = mapped.factorize_through(b.valuePtr(), 1e-13);
    EXPECT_EQ(f_direct.status, f_mapped.status);
    EXPECT_EQ(f_direct.negative_pivots, f_mapped.negative_pivots);
    const VecX rhs = VecX::LinSpaced(m, -1.0, 2.0);
    VecX x_direct, x_mapped;
    direct.solve(rhs, x_direct);
    mapped.solve(rhs, x_mapped);
    EXPECT_EQ(x_direct, x_mapped);
    EXPECT_LE((a_dense * x_mapped - rhs).norm(), 1e-10 * rhs.norm());
  };
  BandedLdltSolver ldlt_direct, ldlt_mapped;
  check(ldlt_direct, ldlt_mapped, big);
  BandedLuSolver lu_direct, lu_mapped;
  check(lu_direct, lu_mapped, nonsymmetric);
  SparseLuSolver sparse;
  EXPECT_FALSE(sparse.read_through(std::vector<int>{})) << "the sparse solvers read copies";
}

TEST(LinearSolvers, BandedLuOnAHubWithChainsFollowsItsEnvelope) {
  // A dense hub of 8 unknowns with `chains` chains of 40 unknowns (bandwidth 3) attached to it, in
  // a scrambled order, with non-symmetric values (the flagellated robot's pattern: a rigid head and
  // disc carrying tails). Reverse Cuthill-McKee runs down the chains at once, so the hub sets the
  // bandwidth; the envelope follows the chains (h ~ chains x 3 there): with 2 chains less than a
  // third of the band's work, with 8 (whose levels are as wide as the hub) still less than the
  // band's; the solve agrees with a dense LU, with single-column updates (2 chains) and with panels
  // (8 chains, b >= 24)
  for (auto [chains, seed] : {std::tuple{2, 51u}, {8, 52u}}) {
    const int hub = 8, length = 40, n = hub + chains * length;
    const MatX a = hub_with_chains(hub, chains, length, seed);
    const SparseMatrix s = to_sparse(a);
    BandedLuSolver banded;
    banded.analyze(s);
    const double band_work = static_cast<double>(n) * banded.bandwidth() * banded.bandwidth();
    EXPECT_LT(banded.multiply_adds(), chains == 2 ? band_work / 3.0 : band_work)
        << chains << " chains, bandwidth " << banded.bandwidth();
    if (chains == 8) {
      EXPECT_GE(banded.bandwidth(), 24) << "the wide case takes the panels";
    }
    ASSERT_EQ(banded.factorize(s, 1e-13).status, Factorization::Status::general);
    const VecX rhs = VecX::LinSpaced(n, -1.0, 2.0);
    VecX x;
    banded.solve(rhs, x);
    const VecX x_dense = a.partialPivLu().solve(rhs);
    EXPECT_LE((x - x_dense).norm(), 1e-11 * x_dense.norm()) << chains << " chains";
  }
}

TEST(LinearSolvers, AmdLuOnAHubWithChainsFollowsTheFill) {
  // nine chains of 40 unknowns at a hub of 8 (the legged robot's nine limbs at its body): the band
  // runs across all chains, while eliminating each chain from its free end leaves no fill outside
  // the hub: L has A's lower pattern plus at most the hub's 8 x 8 block, and the work is a small
  // fraction of the band's; the solve agrees with a dense LU, reading a copy or through a map
  const int hub = 8, chains = 9, length = 40, n = hub + chains * length;
  const MatX a = hub_with_chains(hub, chains, length, 53u);
  const SparseMatrix s = to_sparse(a);
  AmdLuSolver amd;
  amd.analyze(s);
  BandedLuSolver banded;
  banded.analyze(s);
  // eliminated from its free end, a chain's unknown has c_k = 3 entries below the diagonal (12
  // multiply-adds), its first three at most 3 + hub (the hub unknowns they touch and fill), the
  // hub's own dense LU sum_{c < hub} c (c + 1)
  const double chain_work = chains * ((length - 3) * 12.0 + 3 * (3.0 + hub) * (4.0 + hub));
  EXPECT_LE(amd.multiply_adds(), chain_work + (hub - 1.0) * hub * (hub + 1.0) / 3.0);
  EXPECT_LT(amd.multiply_adds(), banded.multiply_adds() / 10.0);
  const VecX rhs = VecX::LinSpaced(n, -1.0, 2.0);
  const VecX x = amd_solution_against_dense(amd, a, s, rhs);
  // through a map into a larger array holding A's values in reverse
  std::vector<double> stored(static_cast<std::size_t>(s.nonZeros()) + 5, 99.0);
  std::vector<int> map(static_cast<std::size_t>(s.nonZeros()));
  for (std::size_t k = 0; k < map.size(); ++k) {
    map[k] = static_cast<int>(stored.size() - 1 - k);
    stored[static_cast<std::size_t>(map[k])] = s.valuePtr()[k];
  }
  AmdLuSolver through;
  through.analyze(s);
  ASSERT_TRUE(through.read_through(map));
  ASSERT_EQ(through.factorize_through(stored.data(), 1e-13).status, Factorization::Status::general);
  VecX x_through;
  through.solve(rhs, x_through);
  EXPECT_EQ(x_through, x) << "the same factors either way";
  // a vanishing pivot is refused, and the next factorization starts clean
  MatX singular = a;
  singular.row(n / 2).setZero();
  singular.col(n / 2).setZero();
  SparseMatrix singular_values = s;  // A's pattern, the singular matrix's values
  for (int c = 0; c < n; ++c)
    for (SparseMatrix::InnerIterator it(singular_values, c); it; ++it)
      it.valueRef() = singular(it.row(), c);
  EXPECT_EQ(amd.factorize(singular_values, 1e-13).status, Factorization::Status::singular);
  ASSERT_EQ(amd.factorize(s, 1e-13).status, Factorization::Status::general);
  amd.solve(rhs, x_through);
  EXPECT_EQ(x_through, x);
}

TEST(LinearSolvers, AmdLuOnRodLimbsAgreesWithADenseLu) {
  // three limbs of 30 rod nodes at a hub node, four unknowns per node (a position and a twist, one
  // supernode: one panel of four lanes) coupled to the nodes up to two away (bend-twist), the hub's
  // 4 x 4 block and the limbs' first nodes dense and coupled to it: panels updated by runs of whole
  // and partial supernodes and by their own columns. Non-symmetric values; the solve agrees with a
  // dense LU, and a factorization refused at a pivot leaves the next one unchanged
  const int limbs = 3, nodes = 30, n = 4 * (1 + limbs * nodes);
  std::mt19937 rng(54u);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  MatX a = MatX::Zero(n, n);
  const auto couple = [&](int p, int q) {  // every unknown of node p with every one of node q
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        a(4 * p + i, 4 * q + j) = unit(rng);
        a(4 * q + j, 4 * p + i) = unit(rng);
      }
  };
  couple(0, 0);
  for (int limb = 0; limb < limbs; ++limb)
    for (int k = 0; k < nodes; ++k) {
      const int node = 1 + limb * nodes + k;
      for (int d = 0; d <= 2; ++d)
        if (k - d >= 0)
          couple(node, node - d);
        else
          couple(node, 0);  // the limb's first nodes hold on to the hub
    }
  AmdLuSolver amd;
  const SparseMatrix s = dominant_scrambled_analyzed(a, rng, amd);
  const VecX rhs = VecX::LinSpaced(n, -1.0, 2.0);
  const VecX x = amd_solution_against_dense(amd, a, s, rhs);
  SparseMatrix singular = s;
  for (int c = 0; c < n; ++c)
    for (SparseMatrix::InnerIterator it(singular, c); it; ++it)
      if (it.row() == n / 3 || c == n / 3) it.valueRef() = 0.0;
  EXPECT_EQ(amd.factorize(singular, 1e-13).status, Factorization::Status::singular);
  ASSERT_EQ(amd.factorize(s, 1e-13).status, Factorization::Status::general);
  VecX again;
  amd.solve(rhs, again);
  EXPECT_EQ(again, x);
}

TEST(LinearSolvers, AmdLuPanelsOfEveryWidthAgreeWithADenseLu) {
  // a chain of nodes of 1, 2, 3, 5, 6 and 7 unknowns, each node's unknowns coupled with every
  // unknown of the nodes up to two away (dense blocks: supernodes of those sizes, so panels of
  // width 1 to 4 with narrower rests): the factorization by panels and the substitutions by panels
  // agree with a dense LU, twice over (the second factorization starts from the first's work array)
  const std::array<int, 6> sizes{1, 2, 3, 5, 6, 7};
  const int nodes = 24;
  std::vector<int> first(nodes + 1, 0);
  for (int k = 0; k < nodes; ++k) first[k + 1] = first[k] + sizes[k % sizes.size()];
  const int n = first[nodes];
  std::mt19937 rng(55u);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  MatX a = MatX::Zero(n, n);
  for (int p = 0; p < nodes; ++p)
    for (int q = std::max(0, p - 2); q <= p; ++q)
      for (int i = first[p]; i < first[p + 1]; ++i)
        for (int j = first[q]; j < first[q + 1]; ++j) {
          a(i, j) = unit(rng);
          a(j, i) = unit(rng);
        }
  AmdLuSolver amd;
  const SparseMatrix s = dominant_scrambled_analyzed(a, rng, amd);
  const VecX rhs = VecX::LinSpaced(n, -1.0, 2.0);
  const VecX x = amd_solution_against_dense(amd, a, s, rhs);
  const VecX again = amd_solution_against_dense(amd, a, s, 3.0 * rhs);
  EXPECT_LE((again - 3.0 * x).norm(), 1e-13 * again.norm());
}

TEST(LinearSolvers, PivotTestIsRelativeToEachRowsOwnDiagonal) {
  // D A D with D = diag(1e-7 .. 1e7): rows of very different stiffness (a near-rigid part beside
  // soft ones, twists beside positions). Every pivot is its row's diagonal times what survives the
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
  std::unique_ptr<LinearSolver> solvers[] = {
      std::make_unique<BandedLdltSolver>(), std::make_unique<SparseLdltSolver>(),
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

TEST(LinearSolvers, SparseLdltOnMeshPatternsMatchesDenseSolvesAcrossPatternChanges) {
  // one solver object analyzes a 12 x 9 grid, then a 7 x 20 grid, then the first again: each time
  // the solve of an SPD matrix (Laplacian + identity) agrees with a dense LDL^T
  SparseLdltSolver sparse;
  for (auto [rows, cols, seed] : {std::tuple{12, 9, 11u}, {7, 20, 12u}, {12, 9, 13u}}) {
    MatX a = grid_laplacian(rows, cols, seed);
    a.diagonal().array() += 1.0;
    const SparseMatrix s = to_sparse(a);
    sparse.analyze(s);
    ASSERT_EQ(sparse.factorize(s, 1e-13).status, Factorization::Status::positive_definite);
    const VecX rhs = VecX::LinSpaced(a.rows(), -1.0, 2.0);
    VecX x;
    sparse.solve(rhs, x);
    const VecX expected = a.ldlt().solve(rhs);
    EXPECT_LE((x - expected).norm(), 1e-12 * expected.norm()) << rows << " x " << cols;
  }
}

TEST(LinearSolvers, SparseLdltOnAMeshTellsNearlySingularFromSingularAndCountsNegativePivots) {
  const MatX laplacian = grid_laplacian(10, 8, 14u);
  const int n = static_cast<int>(laplacian.rows());
  const VecX rhs = VecX::LinSpaced(n, -1.0, 2.0);
  SparseLdltSolver sparse;
  sparse.analyze(to_sparse(laplacian));
  // the Laplacian itself: its last pivot is round-off, far below 1e-13 of its row's diagonal
  EXPECT_EQ(sparse.factorize(to_sparse(laplacian), 1e-13).status, Factorization::Status::singular);
  // + 1e-7 I: smallest eigenvalue 1e-7, condition ~1e8, yet every pivot is far above the tolerance;
  // the solve still agrees with the dense one to about condition x eps
  MatX nearly = laplacian;
  nearly.diagonal().array() += 1e-7;
  ASSERT_EQ(sparse.factorize(to_sparse(nearly), 1e-13).status,
            Factorization::Status::positive_definite);
  VecX x;
  sparse.solve(rhs, x);
  const VecX expected = nearly.ldlt().solve(rhs);
  EXPECT_LE((x - expected).norm(), 1e-6 * expected.norm());
  // - 2.5 I: indefinite; the negative pivots are the negative eigenvalues (Sylvester's law of
  // inertia), and the solve of the indefinite system still agrees
  MatX indefinite = laplacian;
  indefinite.diagonal().array() -= 2.5;
  Eigen::SelfAdjointEigenSolver<MatX> eig(indefinite);
  const int negative = static_cast<int>((eig.eigenvalues().array() < 0.0).count());
  ASSERT_GT(negative, 0);
  ASSERT_LT(negative, n);
  ASSERT_GT(eig.eigenvalues().cwiseAbs().minCoeff(), 1e-3);
  const Factorization f = sparse.factorize(to_sparse(indefinite), 1e-13);
  EXPECT_EQ(f.status, Factorization::Status::indefinite);
  EXPECT_EQ(f.negative_pivots, negative);
  sparse.solve(rhs, x);
  const VecX expected_indefinite =
      eig.eigenvectors() * (eig.eigenvectors().transpose() * rhs).cwiseQuotient(eig.eigenvalues());
  EXPECT_LE((x - expected_indefinite).norm(), 1e-9 * expected_indefinite.norm());
}

TEST(LinearSolvers, AutomaticChoiceWeighsBandedAgainstSparseWork) {
  // the work estimates: a dense matrix fills L completely whatever the ordering, so both count
  // sum_j (n-1-j)(n-j)/2; a tridiagonal one has one entry per column of L under AMD as well
  const int n = 30;
  MatX dense = MatX::Constant(n, n, 1.0);
  dense.diagonal().array() += n;
  SparseLdltSolver sparse;
  sparse.analyze(to_sparse(dense));
  EXPECT_DOUBLE_EQ(sparse.multiply_adds(), banded_multiply_adds(n, n - 1));
  EXPECT_DOUBLE_EQ(banded_multiply_adds(n, n - 1), (n - 1.0) * n * (n + 1.0) / 6.0);
  BandedLdltSolver envelope;
  envelope.analyze(to_sparse(dense));
  EXPECT_DOUBLE_EQ(envelope.multiply_adds(), banded_multiply_adds(n, n - 1));
  MatX path = grid_laplacian(1, n, 15u);
  path.diagonal().array() += 1.0;
  sparse.analyze(to_sparse(path));
  EXPECT_DOUBLE_EQ(sparse.multiply_adds(), n - 1.0);
  EXPECT_DOUBLE_EQ(banded_multiply_adds(n, 1), n - 1.0);
  envelope.analyze(to_sparse(path));
  EXPECT_DOUBLE_EQ(envelope.multiply_adds(), n - 1.0);
  // the storage estimates of the same: n (n + 1) / 2 entries of L and D for the dense matrix, 2 n -
  // 1 for the path, the band's counted from the reverse Cuthill-McKee envelope alone (nothing
  // allocated)
  const SparseMatrix dense_pattern = to_sparse(dense), path_pattern = to_sparse(path);
  EXPECT_DOUBLE_EQ(
      envelope_size(permuted_envelope(dense_pattern, reverse_cuthill_mckee(dense_pattern))).entries,
      n * (n + 1.0) / 2.0);
  EXPECT_DOUBLE_EQ(
      envelope_size(permuted_envelope(path_pattern, reverse_cuthill_mckee(path_pattern))).entries,
      2.0 * n - 1.0);
  EXPECT_DOUBLE_EQ(sparse.factor_entries(), 2.0 * n - 1.0);
  sparse.analyze(dense_pattern);
  EXPECT_DOUBLE_EQ(sparse.factor_entries(), n * (n + 1.0) / 2.0);

  // above banded_max_bandwidth the estimates decide: a 3-wide strip's envelope (b ~ 4) costs about
  // what the sparse factor does, a 40 x 40 grid's 3.8 times more (2.56 M against 0.68 M
  // multiply-adds: its work grows as n^2, the sparse factor's as n^1.5), above the banded kernel's
  // speed-up of 3.5
  MatX strip = grid_laplacian(60, 3, 16u), square = grid_laplacian(20, 20, 17u),
       large = grid_laplacian(40, 40, 18u);
  strip.diagonal().array() += 1.0;
  square.diagonal().array() += 1.0;
  large.diagonal().array() += 1.0;
  EXPECT_EQ(make_linear_solver(LinearSolverKind::automatic, to_sparse(strip), 2, true)->name(),
            "banded_ldlt");
  EXPECT_EQ(make_linear_solver(LinearSolverKind::automatic, to_sparse(large), 8, true)->name(),
            "sparse_ldlt");

  // the LUs weigh the envelope against the LU along AMD's fill with a factor 14: the 20 x 20
  // grid's band is within it; a random tree's is not (no fill under AMD, a wide band in any order)
  EXPECT_EQ(make_linear_solver(LinearSolverKind::automatic, to_sparse(square), 8, false)->name(),
            "banded_lu");
  const int tree_nodes = 300;
  MatX tree = MatX::Identity(tree_nodes, tree_nodes) * 4.0;
  std::mt19937 parents(19u);
  for (int i = 1; i < tree_nodes; ++i) {
    const int p = std::uniform_int_distribution<int>(0, i - 1)(parents);
    tree(i, p) = tree(p, i) = -1.0;
  }
  EXPECT_EQ(make_linear_solver(LinearSolverKind::automatic, to_sparse(tree), 8, false)->name(),
            "amd_lu");
  // a non-symmetric system is weighed with the same estimates
  EXPECT_EQ(make_linear_solver(LinearSolverKind::automatic, to_sparse(strip), 2, false)->name(),
            "banded_lu");
  // within banded_max_bandwidth the band is taken without weighing
  EXPECT_EQ(make_linear_solver(LinearSolverKind::automatic, to_sparse(square), 400, true)->name(),
            "banded_ldlt");
  // the automatically chosen sparse solver comes analyzed: it factorizes and solves at once
  const SparseMatrix square_sparse = to_sparse(square);
  auto chosen = make_linear_solver(LinearSolverKind::automatic, square_sparse, 8, true);
  ASSERT_EQ(chosen->factorize(square_sparse, 1e-13).status,
            Factorization::Status::positive_definite);
  const VecX rhs = VecX::LinSpaced(square.rows(), -1.0, 2.0);
  VecX x;
  chosen->solve(rhs, x);
  EXPECT_LE((x - square.ldlt().solve(rhs)).norm(), 1e-12 * x.norm());
}

/// The pattern of a plate of k x k nodes with `block` DOFs each, every node coupled to its 8
/// neighbours, in row-major node order, with non-symmetric values dominated by the diagonal.
SparseMatrix plate_pattern(int k, int block) {
  std::vector<Eigen::Triplet<double>> entries;
  for (int r = 0; r < k; ++r)
    for (int c = 0; c < k; ++c)
      for (int dr = -1; dr <= 1; ++dr)
        for (int dc = -1; dc <= 1; ++dc) {
          if (r + dr < 0 || r + dr >= k || c + dc < 0 || c + dc >= k) continue;
          const int i = r * k + c, j = (r + dr) * k + c + dc;
          for (int a = 0; a < block; ++a)
            for (int b = 0; b < block; ++b)
              entries.emplace_back(block * i + a, block * j + b,
                                   i == j && a == b ? 10.0 : (i < j ? -0.1 : -0.2));
        }
  SparseMatrix m(k * k * block, k * k * block);
  m.setFromTriplets(entries.begin(), entries.end());
  m.makeCompressed();
  return m;
}

TEST(LinearSolvers, AutomaticChoiceWeighsTheLuBandsMemory) {
  // a non-symmetric plate (friction, drag): the band of a 2D mesh stores N^1.5 entries, AMD's L and
  // U about N log N; by work alone the banded LU is taken up to 200 x 200 nodes (2 x its
  // multiply-adds within 14 times AmdLuSolver's: 10.7 at 120 x 120, 11.6 at 200 x 200), where it
  // would store 5.7 times AmdLuSolver's entries. At 120 x 120 (43,200 DOFs) the band holds 4.8
  // times the LU's entries, above the 4 the band's speed is worth: AmdLuSolver, whose entries are
  // counted here from its analysis; at 40 x 40 (2.5 times) the band stays
  for (const auto& [k, expected] : {std::pair<int, std::string_view>{40, "banded_lu"},
                                    std::pair<int, std::string_view>{120, "amd_lu"}}) {
    const SparseMatrix plate = plate_pattern(k, 3);
    AmdLuSolver amd;
    amd.analyze(plate);
    const EnvelopeSize band = envelope_size(permuted_envelope(plate, reverse_cuthill_mckee(plate)));
    const double lu_entries = 2.0 * band.entries - static_cast<double>(plate.rows());
    std::printf("%d x %d nodes: band LU %.3g entries, %.3g multiply-adds; AMD LU %.3g, %.3g\n", k,
                k, lu_entries, 2.0 * band.multiply_adds, amd.factor_entries(), amd.multiply_adds());
    EXPECT_LE(2.0 * band.multiply_adds, 14.0 * amd.multiply_adds())
        << "the work alone takes the band";
    auto chosen = make_linear_solver(LinearSolverKind::automatic, plate, 64, false);
    EXPECT_EQ(chosen->name(), expected) << k << " x " << k;
    // the chosen solver factorizes and solves
    ASSERT_NE(chosen->factorize(plate, 1e-13).status, Factorization::Status::singular);
    const VecX rhs = VecX::LinSpaced(plate.rows(), -1.0, 2.0);
    VecX x;
    chosen->solve(rhs, x);
    EXPECT_LE((plate * x - rhs).norm(), 1e-10 * rhs.norm());
  }
}

TEST(LinearSolvers, ReverseCuthillMcKeeMakesARodBanded) {
  // the stencil pattern of a rod in DER order q = [x (3N) | theta (E)]: bend-twist at node k
  // couples x_{k-1}, x_k, x_{k+1}, theta_{k-1}, theta_k
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
