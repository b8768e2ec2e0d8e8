#include "tendril/integrate/sparse_ldlt_solver.hpp"

#include <cmath>


namespace tendril {

void SparseLdltSolver::analyze(const SparseMatrix& pattern) { ldlt_.analyzePattern(pattern); }

Factorization SparseLdltSolver::factorize(const SparseMatrix& A, double singular_tolerance) {
  ldlt_.factorize(A);
  Factorization result;
  if (ldlt_.info() != Eigen::Success) {
    result.status = Factorization::Status::singular;
    return result;
  }
  // each pivot against its own row's diagonal, in the factorization's (AMD) order
  diagonal_ = A.diagonal().cwiseAbs();
  const double max_diagonal = diagonal_.maxCoeff();
  permuted_diagonal_ = ldlt_.permutationP() * diagonal_;
  const auto& d = ldlt_.vectorD();
  for (Eigen::Index i = 0; i < d.size(); ++i) {
    const double own = permuted_diagonal_[i] > 0.0 ? permuted_diagonal_[i] : max_diagonal;
    if (!(std::abs(d[i]) > singular_tolerance * own)) {
      result.status = Factorization::Status::singular;
      return result;
    }
    if (d[i] < 0.0) ++result.negative_pivots;
  }
  if (result.negative_pivots > 0) result.status = Factorization::Status::indefinite;
  return result;
}

void SparseLdltSolver::solve(const VecX& b, VecX& x) { x = ldlt_.solve(b); }

}  // namespace tendril
