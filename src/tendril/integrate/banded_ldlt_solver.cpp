#include "tendril/integrate/banded_ldlt_solver.hpp"

#include <algorithm>
#include <cmath>

#include "tendril/integrate/reverse_cuthill_mckee.hpp"

namespace tendril {

void BandedLdltSolver::analyze(const SparseMatrix& pattern) {
  n_ = static_cast<int>(pattern.rows());
  order_ = reverse_cuthill_mckee(pattern);
  b_ = permuted_bandwidth(pattern, order_);
  stride_ = b_ + kPanel;
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
        slot_.push_back(j * stride_ + (i - j));
      }
    }
  band_.assign(static_cast<std::size_t>(n_) * stride_, 0.0);
  work_.assign(static_cast<std::size_t>(kPanel) * stride_, 0.0);
  inverse_pivot_.assign(n_, 0.0);
  y_.resize(n_);
}

Factorization BandedLdltSolver::factorize(const SparseMatrix& A, double singular_tolerance) {
  std::fill(band_.begin(), band_.end(), 0.0);
  const double* values = A.valuePtr();
  for (std::size_t e = 0; e < entry_.size(); ++e) band_[slot_[e]] = values[entry_[e]];
  const int w = stride_;
  // each pivot is compared with its own row's diagonal (the largest one for a zero diagonal)
  double max_diagonal = 0.0;
  for (int j = 0; j < n_; ++j) {
    inverse_pivot_[j] = std::abs(band_[static_cast<std::size_t>(j) * w]);  // the diagonal, until column j is eliminated
    max_diagonal = std::max(max_diagonal, inverse_pivot_[j]);
  }

  Factorization result;
  for (int j0 = 0; j0 < n_; j0 += kPanel) {
    const int k = std::min(kPanel, n_ - j0);  // columns j0 .. j0 + k - 1 form the panel
    // 1. eliminate the panel's columns one after the other, updating only the panel's later columns;
    //    t_p[r] = L(p + r, p) d_p is kept for the trailing update (zero beyond the band: the padding)
    for (int q = 0; q < k; ++q) {
      const int j = j0 + q;
      double* col_j = band_.data() + static_cast<std::size_t>(j) * w;  // col_j[r] = A(j + r, j)
      const double d = col_j[0];
      const double own = inverse_pivot_[j] > 0.0 ? inverse_pivot_[j] : max_diagonal;
      if (!(std::abs(d) > singular_tolerance * own)) {
        result.status = Factorization::Status::singular;
        return result;
      }
      if (d < 0.0) ++result.negative_pivots;
      const double inv = 1.0 / d;
      inverse_pivot_[j] = inv;
      double* t = work_.data() + static_cast<std::size_t>(q) * w;
      for (int r = 1; r < w; ++r) {
        t[r] = col_j[r];
        col_j[r] *= inv;
      }
      // A(j + s, j + r) -= L(j + r, j) d_j L(j + s, j) for the panel's columns j + r (r < k - q), r <= s <= b
      for (int r = 1; r < k - q; ++r) {
        const double l = col_j[r];
        double* col_r = band_.data() + static_cast<std::size_t>(j + r) * w - r;  // col_r[s] = A(j + s, j + r)
        for (int s2 = r; s2 <= b_; ++s2) col_r[s2] -= l * t[s2];
      }
    }
    // 2. rank-k update of the columns after the panel that it reaches, c = j0 + k .. j0 + k - 1 + b:
    //    A(s, c) -= sum_p L(s, p) t_p[c - p] over the panel's columns p, s = c .. j0 + k - 1 + b. Each entry
    //    of A is loaded and stored once per panel instead of once per column (contiguous in s: vectorized).
    const int last_row = j0 + k - 1 + b_;
    const int last_col = std::min(n_ - 1, last_row);
    const double* l0 = band_.data() + static_cast<std::size_t>(j0) * w - j0;  // l0[s] = L(s, j0)
    if (k == kPanel) {
      const double* l1 = l0 + w - 1;  // l1[s] = L(s, j0 + 1)
      const double* l2 = l1 + w - 1;
      const double* l3 = l2 + w - 1;
      const double* t0 = work_.data() - j0;  // t0[c] = t_{j0}[c - j0]
      const double* t1 = t0 + w - 1;
      const double* t2 = t1 + w - 1;
      const double* t3 = t2 + w - 1;
      for (int c = j0 + kPanel; c <= last_col; ++c) {
        const double u0 = t0[c], u1 = t1[c], u2 = t2[c], u3 = t3[c];
        double* col_c = band_.data() + static_cast<std::size_t>(c) * w - c;  // col_c[s] = A(s, c)
        for (int s = c; s <= last_row; ++s) col_c[s] -= l0[s] * u0 + l1[s] * u1 + l2[s] * u2 + l3[s] * u3;
      }
    } else {
      for (int q = 0; q < k; ++q) {
        const double* lq = l0 + static_cast<std::size_t>(q) * (w - 1);
        const double* tq = work_.data() + static_cast<std::size_t>(q) * w - (j0 + q);
        for (int c = j0 + k; c <= last_col; ++c) {
          const double u = tq[c];
          double* col_c = band_.data() + static_cast<std::size_t>(c) * w - c;
          for (int s = c; s <= last_row; ++s) col_c[s] -= lq[s] * u;
        }
      }
    }
  }
  if (result.negative_pivots > 0) result.status = Factorization::Status::indefinite;
  return result;
}

void BandedLdltSolver::solve(const VecX& b, VecX& x) {
  const int w = stride_;
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
