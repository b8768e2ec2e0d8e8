#include "tendril/integrate/sparse_ldlt_solver.hpp"

#include <cmath>

#include "tendril/core/error.hpp"

namespace tendril {

void SparseLdltSolver::analyze(const SparseMatrix& pattern) {
  const Eigen::Index n = pattern.rows();
  // the AMD ordering of the symmetric pattern (as SimplicialLDLT computes it)
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> inverse;
  const SparseMatrix symmetric = pattern.selfadjointView<Eigen::Lower>();
  Eigen::AMDOrdering<int>()(symmetric, inverse);
  order_ = inverse.inverse();
  // the permuted upper triangle of a copy whose values are the value indices of A (exact in
  // double): where each entry of P A P^T comes from
  SparseMatrix index = pattern;
  for (Eigen::Index k = 0; k < index.nonZeros(); ++k) index.valuePtr()[k] = static_cast<double>(k);
  permuted_.resize(n, n);
  permuted_.selfadjointView<Eigen::Upper>() =
      index.selfadjointView<Eigen::Lower>().twistedBy(order_);
  permuted_.makeCompressed();
  source_.resize(static_cast<std::size_t>(permuted_.nonZeros()));
  for (Eigen::Index k = 0; k < permuted_.nonZeros(); ++k)
    source_[k] = static_cast<int>(permuted_.valuePtr()[k]);
  diagonal_.assign(static_cast<std::size_t>(n), -1);
  for (int c = 0; c < n; ++c)
    for (int p = permuted_.outerIndexPtr()[c]; p < permuted_.outerIndexPtr()[c + 1]; ++p)
      if (permuted_.innerIndexPtr()[p] == c) diagonal_[c] = p;
  ldlt_.analyzePattern(permuted_);
  multiply_adds_ = 0.0;
  factor_entries_ = 0.0;
  for (Eigen::Index j = 0; j < n; ++j) {
    const double c = ldlt_.column_counts()[j];
    multiply_adds_ += 0.5 * c * (c + 1.0);
    factor_entries_ += c + 1.0;
  }
  y_.resize(n);
}

Factorization SparseLdltSolver::factorize(const SparseMatrix& A, double singular_tolerance) {
  TENDRIL_ASSERT(A.rows() == permuted_.rows(), "factorize needs the analyzed pattern");
  double* values = permuted_.valuePtr();
  const double* a = A.valuePtr();
  for (std::size_t k = 0; k < source_.size(); ++k) values[k] = a[source_[k]];
  ldlt_.factorize(permuted_);
  Factorization result;
  if (ldlt_.info() != Eigen::Success) {
    result.status = Factorization::Status::singular;
    return result;
  }
  // each pivot against its own row's diagonal (the largest one for a zero diagonal), in the AMD
  // order
  double max_diagonal = 0.0;
  for (int slot : diagonal_)
    if (slot >= 0) max_diagonal = std::max(max_diagonal, std::abs(values[slot]));
  const auto& d = ldlt_.vectorD();
  for (Eigen::Index i = 0; i < d.size(); ++i) {
    const double own = diagonal_[i] >= 0 ? std::abs(values[diagonal_[i]]) : 0.0;
    if (!accept_pivot(d[i], own, max_diagonal, singular_tolerance, result)) return result;
  }
  if (result.negative_pivots > 0) result.status = Factorization::Status::indefinite;
  return result;
}

void SparseLdltSolver::solve(const VecX& b, VecX& x) {
  // (P A P^T) (P x) = P b
  y_.noalias() = order_ * b;
  const bool off_diagonal = ldlt_.matrixL().nestedExpression().nonZeros() > 0;  // else L = I
  if (off_diagonal) ldlt_.matrixL().solveInPlace(y_);
  y_.array() /= ldlt_.vectorD().array();
  if (off_diagonal) ldlt_.matrixU().solveInPlace(y_);
  x.resize(y_.size());
  x.noalias() = order_.transpose() * y_;
}

}  // namespace tendril
