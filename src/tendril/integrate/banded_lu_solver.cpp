#include "tendril/integrate/banded_lu_solver.hpp"

#include <algorithm>
#include <cmath>

#include "tendril/integrate/reverse_cuthill_mckee.hpp"

namespace tendril {

void BandedLuSolver::analyze(const SparseMatrix& pattern) {
  n_ = static_cast<int>(pattern.rows());
  order_ = reverse_cuthill_mckee(pattern);
  b_ = permuted_bandwidth(pattern, order_);
  panel_ = b_ >= kPanelMinBandwidth ? kPanel : 1;
  diagonal_offset_ = b_ + panel_ - 1;
  stride_ = 2 * diagonal_offset_ + 1;
  std::vector<int> inverse(n_);
  for (int k = 0; k < n_; ++k) inverse[order_[k]] = k;
  entry_.clear();
  slot_.clear();
  for (int c = 0; c < n_; ++c)
    for (int p = pattern.outerIndexPtr()[c]; p < pattern.outerIndexPtr()[c + 1]; ++p) {
      const int i = inverse[pattern.innerIndexPtr()[p]];
      const int j = inverse[c];
      entry_.push_back(p);
      slot_.push_back(j * stride_ + (i - j + diagonal_offset_));
    }
  band_.assign(static_cast<std::size_t>(n_) * stride_, 0.0);
  diagonal_.assign(n_, 0.0);
  y_.resize(n_);
}

Factorization BandedLuSolver::factorize(const SparseMatrix& A, double singular_tolerance) {
  std::fill(band_.begin(), band_.end(), 0.0);
  const double* values = A.valuePtr();
  for (std::size_t e = 0; e < entry_.size(); ++e) band_[slot_[e]] = values[entry_[e]];
  // each pivot is compared with its own row's diagonal (the largest one for a zero diagonal)
  double max_diagonal = 0.0;
  for (int j = 0; j < n_; ++j) {
    diagonal_[j] = std::abs(column(j)[j]);
    max_diagonal = std::max(max_diagonal, diagonal_[j]);
  }

  Factorization result;
  result.status = Factorization::Status::general;
  for (int j0 = 0; j0 < n_; j0 += panel_) {
    const int k = std::min(panel_, n_ - j0);  // columns j0 .. j0 + k - 1 form the panel
    const int last_row = j0 + k - 1 + b_;     // the last row the panel's L reaches
    // 1. eliminate the panel's columns one after the other, updating only the panel's later columns
    for (int j = j0; j < j0 + k; ++j) {
      double* col_j = column(j);  // col_j[s] = A(s, j)
      const double d = col_j[j];
      if (!accept_pivot(d, diagonal_[j], max_diagonal, singular_tolerance, result)) return result;
      const double inv = 1.0 / d;
      // L(s, j) = A(s, j) / U(j, j)
      const int m = std::min(b_, n_ - 1 - j);
      for (int s = j + 1; s <= j + m; ++s) col_j[s] *= inv;
      // A(s, c) -= L(s, j) U(j, c) for the panel's columns c after j
      for (int c = j + 1; c < j0 + k; ++c) {
        double* col_c = column(c);
        const double u = col_c[j];
        for (int s = j + 1; s <= j + b_; ++s) col_c[s] -= col_j[s] * u;
      }
    }
    // 2. the columns after the panel that it reaches, c = j0 + k .. j0 + k - 1 + b: first the panel's rows of
    //    U (a unit-lower triangular solve with the panel's L), then one rank-k update of the rows below,
    //    A(s, c) -= sum_p L(s, p) U(p, c), s = j0 + k .. last_row: each entry loaded and stored once per panel.
    //    Entries outside the band read and write the zero padding (U(p, c) = 0 there).
    const int last_col = std::min(n_ - 1, last_row);
    const double* l0 = column(j0);
    if (k == kPanel) {
      const double* l1 = column(j0 + 1);
      const double* l2 = column(j0 + 2);
      const double* l3 = column(j0 + 3);
      for (int c = j0 + kPanel; c <= last_col; ++c) {
        double* col_c = column(c);
        const double u0 = col_c[j0];
        const double u1 = (col_c[j0 + 1] -= l0[j0 + 1] * u0);
        const double u2 = (col_c[j0 + 2] -= l0[j0 + 2] * u0 + l1[j0 + 2] * u1);
        const double u3 = (col_c[j0 + 3] -= l0[j0 + 3] * u0 + l1[j0 + 3] * u1 + l2[j0 + 3] * u2);
        if (u0 != 0.0 && u1 != 0.0 && u2 != 0.0 && u3 != 0.0) {
          for (int s = j0 + kPanel; s <= last_row; ++s)
            col_c[s] -= l0[s] * u0 + l1[s] * u1 + l2[s] * u2 + l3[s] * u3;
          continue;
        }
        // zeros of U inside the band (a rod's interleaved DOFs leave many): one axpy per non-zero only
        const double* l[kPanel] = {l0, l1, l2, l3};
        const double u[kPanel] = {u0, u1, u2, u3};
        for (int q = 0; q < kPanel; ++q)
          if (u[q] != 0.0)
            for (int s = j0 + kPanel; s <= last_row; ++s) col_c[s] -= l[q][s] * u[q];
      }
    } else if (k == 1) {  // a single column (narrow bands): one axpy per non-zero U(j0, c)
      const int m = last_col - j0;
      const double* l = l0 + j0;  // l[r] = L(j0 + r, j0)
      for (int r = 1; r <= m; ++r) {
        double* col_c = column(j0 + r) + j0;  // col_c[s] = A(j0 + s, j0 + r)
        const double u = col_c[0];
        if (u == 0.0) continue;
        for (int s = 1; s <= m; ++s) col_c[s] -= l[s] * u;
      }
    } else {
      for (int c = j0 + k; c <= last_col; ++c) {
        double* col_c = column(c);
        for (int p = j0; p < j0 + k; ++p) {
          const double* l_p = column(p);
          const double u = col_c[p];
          if (u == 0.0) continue;
          for (int s = p + 1; s <= last_row; ++s) col_c[s] -= l_p[s] * u;
        }
      }
    }
  }
  return result;
}

void BandedLuSolver::solve(const VecX& b, VecX& x) {
  for (int k = 0; k < n_; ++k) y_[k] = b[order_[k]];
  // forward: L z = y (unit lower), column by column
  for (int j = 0; j < n_; ++j) {
    const double* col_j = column(j) + j;  // col_j[r] = A(j + r, j)
    const double yj = y_[j];
    const int m = std::min(b_, n_ - 1 - j);
    for (int r = 1; r <= m; ++r) y_[j + r] -= col_j[r] * yj;
  }
  // backward: U x = z, column by column from the last
  for (int j = n_ - 1; j >= 0; --j) {
    const double* col_j = column(j) + j;
    const double xj = y_[j] / col_j[0];
    y_[j] = xj;
    const int m = std::min(b_, j);
    for (int r = 1; r <= m; ++r) y_[j - r] -= col_j[-r] * xj;
  }
  x.resize(n_);
  for (int k = 0; k < n_; ++k) x[order_[k]] = y_[k];
}

}  // namespace tendril
