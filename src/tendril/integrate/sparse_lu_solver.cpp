#include "tendril/integrate/sparse_lu_solver.hpp"

#include <cmath>
#include <type_traits>

namespace tendril {

void SparseLuSolver::analyze(const SparseMatrix& pattern) {
  scaled_ = pattern;
  scale_.setOnes(pattern.rows());
  lu_.analyzePattern(pattern);
}

Factorization SparseLuSolver::factorize(const SparseMatrix& A, double singular_tolerance) {
  Factorization result;
  result.status = Factorization::Status::general;
  // equilibrate, S A S with s_i a power of two near 1/sqrt|A_ii| (exact in floating point): the
  // threshold pivoting then compares balanced entries, and a pivot is compared with about 1, the
  // scaled diagonal of its row
  const Eigen::Index n = A.rows();
  for (Eigen::Index i = 0; i < n; ++i) {
    const double d = std::abs(A.coeff(i, i));
    int exponent = 0;
    std::frexp(d > 0.0 && std::isfinite(d) ? d : 1.0, &exponent);
    scale_[i] = std::ldexp(1.0, -(exponent >> 1));
  }
  for (Eigen::Index c = 0; c < n; ++c)
    for (SparseMatrix::InnerIterator it(scaled_, c), a(A, c); it; ++it, ++a)
      it.valueRef() = a.value() * scale_[it.row()] * scale_[c];
  // a zero column or a non-finite entry is reported by Eigen as a failed factorization
  lu_.factorize(scaled_);
  if (lu_.info() != Eigen::Success) {
    result.status = Factorization::Status::singular;
    return result;
  }
  // a pivot |u_jj| <= tolerance * max|(SAS)_ii| counts as zero (the diagonal blocks of U are stored
  // in the supernodes of L)
  const double tiny = singular_tolerance * scaled_.diagonal().cwiseAbs().maxCoeff();
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

void SparseLuSolver::solve(const VecX& b, VecX& x) {
  // A^{-1} b = S (S A S)^{-1} S b
  x = scale_.cwiseProduct(lu_.solve(scale_.cwiseProduct(b)));
}

}  // namespace tendril
