#include "tendril/integrate/banded_ldlt_solver.hpp"

#include <algorithm>
#include <cmath>

#include "tendril/integrate/reverse_cuthill_mckee.hpp"

namespace tendril {

void BandedLdltSolver::analyze(const SparseMatrix& pattern) {
  n_ = static_cast<int>(pattern.rows());
  order_ = reverse_cuthill_mckee(pattern);
  b_ = permuted_bandwidth(pattern, order_);
  std::vector<int> inverse(n_);
  for (int k = 0; k < n_; ++k) inverse[order_[k]] = k;
  // map each stored entry on or below the permuted diagonal to its band slot
  entry_.clear();
  slot_.clear();
  for (int c = 0; c < n_; ++c)
    for (int p = pattern.outerIndexPtr()[c]; p < pattern.outerIndexPtr()[c + 1]; ++p) {
      const int i = inverse[pattern.innerIndexPtr()[p]];
      const int j = inverse[c];
      if (i >= j) {
        entry_.push_back(p);
        slot_.push_back(j * (b_ + 1) + (i - j));
      }
    }
  band_.assign(static_cast<std::size_t>(n_) * (b_ + 1), 0.0);
  work_.assign(b_ + 1, 0.0);
  inverse_pivot_.assign(n_, 0.0);
  y_.resize(n_);
}

Factorization BandedLdltSolver::factorize(const SparseMatrix& A, double singular_tolerance) {
  std::fill(band_.begin(), band_.end(), 0.0);
  const double* values = A.valuePtr();
  for (std::size_t e = 0; e < entry_.size(); ++e) band_[slot_[e]] = values[entry_[e]];
  const int w = b_ + 1;
  // each pivot is compared with its own row's diagonal (the largest one for a zero diagonal)
  double max_diagonal = 0.0;
  for (int j = 0; j < n_; ++j) {
    inverse_pivot_[j] = std::abs(band_[j * w]);  // the diagonal, until column j is eliminated
    max_diagonal = std::max(max_diagonal, inverse_pivot_[j]);
  }

  Factorization result;
  double* t = work_.data();
  for (int j = 0; j < n_; ++j) {
    double* col_j = band_.data() + j * w;  // col_j[r] = A(j + r, j), updated by the columns before j
    const double d = col_j[0];
    const double own = inverse_pivot_[j] > 0.0 ? inverse_pivot_[j] : max_diagonal;
    if (!(std::abs(d) > singular_tolerance * own)) {
      result.status = Factorization::Status::singular;
      return result;
    }
    if (d < 0.0) ++result.negative_pivots;
    const double inv = 1.0 / d;
    inverse_pivot_[j] = inv;
    const int m = std::min(b_, n_ - 1 - j);
    // L(j + r, j) = A(j + r, j) / d_j, keeping t_r = L(j + r, j) d_j for the update
    for (int r = 1; r <= m; ++r) {
      t[r] = col_j[r];
      col_j[r] *= inv;
    }
    // trailing update A(j + s, j + r) -= L(j + r, j) d_j L(j + s, j) for 1 <= r <= s <= m
    for (int r = 1; r <= m; ++r) {
      const double l = col_j[r];
      double* col_k = band_.data() + (j + r) * w - r;  // col_k[s] = A(j + s, j + r)
      for (int s2 = r; s2 <= m; ++s2) col_k[s2] -= l * t[s2];
    }
  }
  if (result.negative_pivots > 0) result.status = Factorization::Status::indefinite;
  return result;
}

void BandedLdltSolver::solve(const VecX& b, VecX& x) {
  const int w = b_ + 1;
  for (int k = 0; k < n_; ++k) y_[k] = b[order_[k]];
  // forward: L z = y (unit lower), column by column
  for (int j = 0; j < n_; ++j) {
    const double* col_j = band_.data() + j * w;
    const double yj = y_[j];
    const int m = std::min(b_, n_ - 1 - j);
    for (int r = 1; r <= m; ++r) y_[j + r] -= col_j[r] * yj;
  }
  // diagonal, then backward: L^T x = z, x_j = z_j - sum_r L(j + r, j) x_{j + r}
  for (int j = 0; j < n_; ++j) y_[j] *= inverse_pivot_[j];
  for (int j = n_ - 1; j >= 0; --j) {
    const double* col_j = band_.data() + j * w;
    const int m = std::min(b_, n_ - 1 - j);
    double s0 = 0.0, s1 = 0.0;  // two partial sums halve the dependency chain
    int r = 1;
    for (; r + 1 <= m; r += 2) {
      s0 += col_j[r] * y_[j + r];
      s1 += col_j[r + 1] * y_[j + r + 1];
    }
    if (r <= m) s0 += col_j[r] * y_[j + r];
    y_[j] -= s0 + s1;
  }
  x.resize(n_);
  for (int k = 0; k < n_; ++k) x[order_[k]] = y_[k];
}

}  // namespace tendril
