#pragma once
/// Eigen's SparseLU (COLAMD column ordering, partial pivoting by threshold) for Newton matrices
/// that are not symmetric, with the symbolic analysis (column ordering and elimination tree) done
/// once per pattern. The matrix is equilibrated first (S A S, s_i a power of two near
/// 1/sqrt|A_ii|), so the threshold pivoting and the singular-pivot test see rows of comparable
/// scale.

#include <Eigen/SparseLU>

#include "tendril/integrate/linear_solver.hpp"

namespace tendril {

class SparseLuSolver final : public LinearSolver {
 public:
  std::string_view name() const override { return "sparse_lu"; }
  void analyze(const SparseMatrix& pattern) override;
  Factorization factorize(const SparseMatrix& A, double singular_tolerance) override;
  void solve(const VecX& b, VecX& x) override;

 private:
  Eigen::SparseLU<SparseMatrix, Eigen::COLAMDOrdering<int>> lu_;
  SparseMatrix scaled_;  ///< S A S, equilibrated with powers of two (the analyzed pattern)
  VecX scale_;           ///< s (n)
};

}  // namespace tendril
