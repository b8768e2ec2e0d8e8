#include "tendril/integrate/sparse_lu_solver.hpp"

#include <cmath>
#include <type_traits>

namespace tendril {

void SparseLuSolver::analyze(const SparseMatrix& pattern) { lu_.analyzePattern(pattern); }

Factorization SparseLuSolver::factorize(const SparseMatrix& A, double singular_tolerance) {
  Factorization result;
  result.status = Factorization::Status::general;
  // a zero column or a non-finite entry is reported by Eigen as a failed factorization
  lu_.factorize(A);
  if (lu_.info() != Eigen::Success) {
    result.status = Factorization::Status::singular;
    return result;
  }
  // a pivot |u_jj| <= tolerance * max|A_ii| counts as zero, as in the LDL^T solvers (the diagonal
  // blocks of U are stored in the supernodes of L)
  const double tiny = singular_tolerance * A.diagonal().cwiseAbs().maxCoeff();
  const auto& factors = lu_.matrixL().m_mapL;
  for (Eigen::Index j = 0; j < A.cols(); ++j) {
    double pivot = 0.0;
    for (typename std::decay_t<decltype(factors)>::InnerIterator it(factors, j); it; ++it)
      if (it.index() == j) {
        pivot = it.value();
        break;
      }
    if (!(std::abs(pivot) > tiny)) {
      result.status = Factorization::Status::singular;
      return result;
    }
    if (pivot < 0.0) ++result.negative_pivots;
  }
  return result;
}

void SparseLuSolver::solve(const VecX& b, VecX& x) { x = lu_.solve(b); }

}  // namespace tendril
