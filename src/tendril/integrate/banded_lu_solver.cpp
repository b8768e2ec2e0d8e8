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
  std::vector<int> inverse(n_);
  for (int k = 0; k < n_; ++k) inverse[order_[k]] = k;
  // the envelope: the last row of column j's fill and the last column of row j's (the staircase),
  // equal within each panel
  last_ = permuted_envelope(pattern, order_);
  widen_to_panels(last_, panel_);
  multiply_adds_ = 0.0;
  for (int j = 0; j < n_; ++j) multiply_adds_ += static_cast<double>(last_[j] - j) * (last_[j] - j);
  // column c's first row: the first column whose L reaches row c (so its U reaches column c)
  top_.resize(n_);
  for (int c = 0, p = 0; c < n_; ++c) {
    while (last_[p] < c) ++p;
    top_[c] = p;
  }
  offset_.assign(static_cast<std::size_t>(n_) + 1, 0);
  for (int j = 0; j < n_; ++j) offset_[j + 1] = offset_[j] + (last_[j] - top_[j] + 1);
  load_ = {};
  for (int c = 0; c < n_; ++c)
    for (int p = pattern.outerIndexPtr()[c]; p < pattern.outerIndexPtr()[c + 1]; ++p) {
      const int i = inverse[pattern.innerIndexPtr()[p]];
      const int j = inverse[c];
      load_.entry.push_back(p);
      load_.slot.push_back(static_cast<int>(offset_[j] + (i - top_[j])));
    }
  band_.assign(static_cast<std::size_t>(offset_[n_]), 0.0);
  // the envelope's entries outside A's pattern, zeroed before each factorization
  load_.find_fill(band_.size());
  inverse_pivot_.assign(n_, 0.0);
  y_.resize(n_);
}

Factorization BandedLuSolver::eliminate(double singular_tolerance) {
  // inverse_pivot_ holds the pivots' own scales until each column is eliminated
  const double max_diagonal = pivot_scales(
      n_, [this](int c) { return column(c); }, inverse_pivot_);

  Factorization result;
  result.status = Factorization::Status::general;
  for (int j0 = 0; j0 < n_; j0 += panel_) {
    const int k = std::min(panel_, n_ - j0);  // columns j0 .. j0 + k - 1 form the panel
    const int last_row = last_[j0];           // the last row the panel's L reaches
    // 1. eliminate the panel's columns one after the other, updating only the panel's later columns
    for (int j = j0; j < j0 + k; ++j) {
      double* col_j = column(j);  // col_j[s] = A(s, j)
      const double d = col_j[j];
      if (!accept_pivot(d, inverse_pivot_[j], max_diagonal, singular_tolerance, result))
        return result;
      const double inv = 1.0 / d;
      inverse_pivot_[j] = inv;
      // L(s, j) = A(s, j) / U(j, j)
      for (int s = j + 1; s <= last_[j]; ++s) col_j[s] *= inv;
      // A(s, c) -= L(s, j) U(j, c) for the panel's columns c after j
      for (int c = j + 1; c < j0 + k; ++c) {
        double* col_c = column(c);
        const double u = col_c[j];
        for (int s = j + 1; s <= last_[j]; ++s) col_c[s] -= col_j[s] * u;
      }
    }
    // 2. the columns after the panel that it reaches, c = j0 + k .. last_row: first the panel's
    // rows of
    //    U (a unit-lower triangular solve with the panel's L), then one rank-k update of the rows
    //    below, A(s, c) -= sum_p L(s, p) U(p, c), s = j0 + k .. last_row: each entry loaded and
    //    stored once per panel. Every such column stores rows j0 .. last_row (top(c) <= j0, last(c)
    //    >= last_row); entries outside A's profile are zeros of the envelope (U(p, c) = 0 there).
    const double* l0 = column(j0);
    if (k == kPanel) {
      const double* l1 = column(j0 + 1);
      const double* l2 = column(j0 + 2);
      const double* l3 = column(j0 + 3);
      for (int c = j0 + kPanel; c <= last_row; ++c) {
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
        // zeros of U inside the band (a rod's interleaved DOFs leave many): one axpy per non-zero
        // only
        const double* l[kPanel] = {l0, l1, l2, l3};
        const double u[kPanel] = {u0, u1, u2, u3};
        for (int q = 0; q < kPanel; ++q)
          if (u[q] != 0.0)
            for (int s = j0 + kPanel; s <= last_row; ++s) col_c[s] -= l[q][s] * u[q];
      }
    } else if (k == 1) {  // a single column (narrow bands): one axpy per non-zero U(j0, c) (a rod's
                          // envelope has many zeros: the test makes bench_integrate's
                          // factorization 1.3 times faster at 1601 nodes)
      const int m = last_row - j0;
      const double* l = l0 + j0;  // l[r] = L(j0 + r, j0)
      for (int r = 1; r <= m; ++r) {
        double* col_c = column(j0 + r) + j0;  // col_c[s] = A(j0 + s, j0 + r)
        const double u = col_c[0];
        if (u != 0.0) subtract_scaled(col_c + 1, l + 1, u, m);
      }
    } else {
      for (int c = j0 + k; c <= last_row; ++c) {
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
  double* y = y_.data();
  // forward: L z = y (unit lower)
  forward_substitution_unit_lower(y, n_, last_, [this](int c) { return column(c); });
  // backward: U x = z, from the last column, two columns j, j - 1 at a time: each y[s] they both
  // reach is loaded and stored once, in the one-column order and rounding (top(j - 1) <= top(j))
  int j = n_ - 1;
  for (; j >= 1; j -= 2) {
    const double* u0 = column(j);
    const double* __restrict u1 = column(j - 1);
    const double x0 = y[j] * inverse_pivot_[j];
    y[j] = x0;
    const int both = top_[j];
    if (both <= j - 1) y[j - 1] -= u0[j - 1] * x0;
    const double x1 = y[j - 1] * inverse_pivot_[j - 1];
    y[j - 1] = x1;
    double* __restrict ys = y;
    for (int s = both; s < j - 1; ++s) ys[s] = (ys[s] - u0[s] * x0) - u1[s] * x1;
    const int top1 = top_[j - 1];
    subtract_scaled(y + top1, u1 + top1, x1, std::min(both, j - 1) - top1);
  }
  if (j == 0) y[0] *= inverse_pivot_[0];
  x.resize(n_);
  for (int k = 0; k < n_; ++k) x[order_[k]] = y_[k];
}

}  // namespace tendril
