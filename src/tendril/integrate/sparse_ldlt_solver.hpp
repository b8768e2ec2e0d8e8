#pragma once
/// Eigen's SimplicialLDLT (AMD fill-reducing ordering) with the symbolic analysis done once.

#include <Eigen/SparseCholesky>

#include "tendril/integrate/linear_solver.hpp"

namespace tendril {

class SparseLdltSolver final : public LinearSolver {
 public:
  std::string_view name() const override { return "sparse_ldlt"; }
  void analyze(const SparseMatrix& pattern) override;
  Factorization factorize(const SparseMatrix& A, double singular_tolerance) override;
  void solve(const VecX& b, VecX& x) override;

 private:
  Eigen::SimplicialLDLT<SparseMatrix, Eigen::Lower, Eigen::AMDOrdering<int>> ldlt_;
  VecX diagonal_;           ///< |A_ii| (n)
  VecX permuted_diagonal_;  ///< the same in the factorization's order (n)
};

}  // namespace tendril
