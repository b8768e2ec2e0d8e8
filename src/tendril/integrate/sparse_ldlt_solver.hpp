#pragma once
/// Eigen's SimplicialLDLT with an AMD fill-reducing ordering, the ordering and symbolic analysis
/// done once per pattern. The matrix is kept in its permuted order (the upper triangle of P A P^T,
/// filled through a value map each factorization), so a factorization neither permutes nor copies A
/// again.

#include <vector>

#include <Eigen/SparseCholesky>

#include "tendril/integrate/linear_solver.hpp"

namespace tendril {

class SparseLdltSolver final : public LinearSolver {
 public:
  std::string_view name() const override { return "sparse_ldlt"; }
  void analyze(const SparseMatrix& pattern) override;
  Factorization factorize(const SparseMatrix& A, double singular_tolerance) override;
  void solve(const VecX& b, VecX& x) override;

  /// Multiply-adds of one numeric factorization, sum_j c_j (c_j + 1) / 2 over the columns of L with
  /// c_j entries below the diagonal (after analyze): the work estimate the automatic choice
  /// compares with a banded factorization.
  double multiply_adds() const { return multiply_adds_; }
  /// Stored entries of L and D, sum_j (c_j + 1) (after analyze; 8 bytes each, plus an index for
  /// L's): the storage estimate the automatic choice compares with a banded factorization's.
  double factor_entries() const { return factor_entries_; }

 private:
  /// SimplicialLDLT on an already ordered upper triangle; exposes the column counts of L.
  class Ldlt
      : public Eigen::SimplicialLDLT<SparseMatrix, Eigen::Upper, Eigen::NaturalOrdering<int>> {
   public:
    const auto& column_counts() const { return m_nonZerosPerCol; }
  };

  Ldlt ldlt_;
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int>
      order_;              ///< P: row i of A is row P(i) of P A P^T
  SparseMatrix permuted_;  ///< upper triangle of P A P^T (the analyzed pattern)
  std::vector<int>
      source_;  ///< value index in A of each entry of permuted_ (#entries of permuted_)
  std::vector<int> diagonal_;  ///< value index of (i, i) in permuted_ (n)
  double multiply_adds_ = 0.0;
  double factor_entries_ = 0.0;
  VecX y_;  ///< permuted right-hand side (n)
};

}  // namespace tendril
