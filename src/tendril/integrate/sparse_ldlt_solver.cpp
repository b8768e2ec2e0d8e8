#include "tendril/integrate/sparse_ldlt_solver.hpp"

#include <cmath>


namespace tendril {

void SparseLdltSolver::analyze(const SparseMatrix& pattern) { ldlt_.analyzePattern(pattern); }

Factorization SparseLdltSolver::factorize(const SparseMatrix& A, double singular_tolerance) {
  ldlt_.factorize(A);
  Factorization result;
  const double tiny = singular_tolerance * A.diagonal().cwiseAbs().maxCoeff();
  if (ldlt_.info() != Eigen::Success) {
    result.status = Factorization::Status::singular;
    return result;
  }
  const auto& d = ldlt_.vectorD();
  for (Eigen::Index i = 0; i < d.size(); ++i) {
    if (!(std::abs(d[i]) > tiny)) {
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
