#pragma once
/// Eigen's SparseLU (COLAMD column ordering, partial pivoting by threshold) for Newton matrices that
/// are not symmetric, with the symbolic analysis (column ordering and elimination tree) done once
/// per pattern.

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
};

}  // namespace tendril
