#include "tendril/integrate/banded_lu_solver.hpp"

#include <algorithm>
#include <cmath>

#include "tendril/integrate/reverse_cuthill_mckee.hpp"

namespace tendril {

void BandedLuSolver::analyze(const SparseMatrix& pattern) {
  n_ = static_cast<int>(pattern.rows());
  order_ = reverse_cuthill_mckee(pattern);
  b_ = permuted_bandwidth(pattern, order_);
  std::vector<int> inverse(n_);
  for (int k = 0; k < n_; ++k) inverse[order_[k]] = k;
  const int w = 2 * b_ + 1;
  entry_.clear();
  slot_.clear();
  for (int c = 0; c < n_; ++c)
    for (int p = pattern.outerIndexPtr()[c]; p < pattern.outerIndexPtr()[c + 1]; ++p) {
      const int i = inverse[pattern.innerIndexPtr()[p]];
      const int j = inverse[c];
      entry_.push_back(p);
      slot_.push_back(j * w + (i - j + b_));
    }
  band_.assign(static_cast<std::size_t>(n_) * w, 0.0);
  diagonal_.assign(n_, 0.0);
  y_.resize(n_);
}

Factorization BandedLuSolver::factorize(const SparseMatrix& A, double singular_tolerance) {
  std::fill(band_.begin(), band_.end(), 0.0);
  const double* values = A.valuePtr();
  for (std::size_t e = 0; e < entry_.size(); ++e) band_[slot_[e]] = values[entry_[e]];
  const int w = 2 * b_ + 1;
  // each pivot is compared with its own row's diagonal (the largest one for a zero diagonal)
  double max_diagonal = 0.0;
  for (int j = 0; j < n_; ++j) {
    diagonal_[j] = std::abs(band_[j * w + b_]);
    max_diagonal = std::max(max_diagonal, diagonal_[j]);
  }

  Factorization result;
  result.status = Factorization::Status::general;
  for (int j = 0; j < n_; ++j) {
    double* col_j = band_.data() + j * w + b_;  // col_j[r] = A(j + r, j) for -b <= r <= b
    const double d = col_j[0];
    const double own = diagonal_[j] > 0.0 ? diagonal_[j] : max_diagonal;
    if (!(std::abs(d) > singular_tolerance * own)) {
      result.status = Factorization::Status::singular;
      return result;
    }
    if (d < 0.0) ++result.negative_pivots;
    const double inv = 1.0 / d;
    const int m = std::min(b_, n_ - 1 - j);
    // L(j + r, j) = A(j + r, j) / U(j, j)
    for (int r = 1; r <= m; ++r) col_j[r] *= inv;
    // trailing update A(j + r, j + s) -= L(j + r, j) U(j, j + s) for 1 <= r, s <= m, column by column
    for (int s = 1; s <= m; ++s) {
      double* col_s = band_.data() + (j + s) * w + b_ - s;  // col_s[r] = A(j + r, j + s)
      const double u = col_s[0];                           // U(j, j + s)
      if (u == 0.0) continue;
      for (int r = 1; r <= m; ++r) col_s[r] -= col_j[r] * u;
    }
  }
  return result;
}

void BandedLuSolver::solve(const VecX& b, VecX& x) {
  const int w = 2 * b_ + 1;
  for (int k = 0; k < n_; ++k) y_[k] = b[order_[k]];
  // forward: L z = y (unit lower), column by column
  for (int j = 0; j < n_; ++j) {
    const double* col_j = band_.data() + j * w + b_;
    const double yj = y_[j];
    const int m = std::min(b_, n_ - 1 - j);
    for (int r = 1; r <= m; ++r) y_[j + r] -= col_j[r] * yj;
  }
  // backward: U x = z, column by column from the last
  for (int j = n_ - 1; j >= 0; --j) {
    const double* col_j = band_.data() + j * w + b_;
    const double xj = y_[j] / col_j[0];
    y_[j] = xj;
    const int m = std::min(b_, j);
    for (int r = 1; r <= m; ++r) y_[j - r] -= col_j[-r] * xj;
  }
  x.resize(n_);
  for (int k = 0; k < n_; ++k) x[order_[k]] = y_[k];
}

}  // namespace tendril
