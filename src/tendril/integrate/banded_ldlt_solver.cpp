#include "tendril/integrate/banded_ldlt_solver.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <type_traits>
#include <utility>

#include "tendril/integrate/reverse_cuthill_mckee.hpp"

namespace tendril {
namespace {

/// f(std::integral_constant<int, B>{}) for the band width B == b, First <= b <= Last: the kernel
/// of that width.
template <int First, int Last, class F>
decltype(auto) with_fixed_band(int b, F&& f) {
  if constexpr (First < Last)
    if (b != First) return with_fixed_band<First + 1, Last>(b, std::forward<F>(f));
  return f(std::integral_constant<int, First>{});
}

/// The offset o in [0, block) such that every column j of the envelope `last_row` ends at most at
/// row j - (j + o) % block + b (the columns of each block end within its first column's band), or
/// -1 if there is none (or the band is too narrow for a block)
int staircase_offset(const std::vector<int>& last_row, int b, int block) {
  if (b < block) return -1;
  for (int o = 0; o < block; ++o) {
    bool fits = true;
    for (std::size_t j = 0; j < last_row.size() && fits; ++j) {
      const int phase = (static_cast<int>(j) + o) % block;
      fits = last_row[j] <= static_cast<int>(j) - phase + b;
    }
    if (fits) return o;
  }
  return -1;
}

}  // namespace

EnvelopeSize envelope_size(const std::vector<int>& last_row) {
  EnvelopeSize size;
  for (std::size_t j = 0; j < last_row.size(); ++j) {
    const double h = last_row[j] - static_cast<double>(j);
    size.multiply_adds += 0.5 * h * (h + 1.0);
    size.entries += h + 1.0;
  }
  return size;
}

void BandedLdltSolver::analyze(const SparseMatrix& pattern) {
  n_ = static_cast<int>(pattern.rows());
  order_ = reverse_cuthill_mckee(pattern);
  b_ = permuted_bandwidth(pattern, order_);
  std::vector<int> inverse(n_);
  for (int k = 0; k < n_; ++k) inverse[order_[k]] = k;
  // the envelope: the last row of each column's fill (the staircase)
  last_row_ = permuted_envelope(pattern, order_);
  multiply_adds_ = envelope_size(last_row_).multiply_adds;
  // a narrow band is stored whole, b + 1 entries in every column and b zero columns after the last
  // (eliminate_band); else a panel's columns store the rows of its last column
  fixed_band_ = b_ >= 1 && b_ <= kMaxFixedBand;
  stair_offset_ = fixed_band_ ? staircase_offset(last_row_, b_, kBlock) : -1;
  if (fixed_band_)
    for (int j = 0; j < n_; ++j) last_row_[j] = std::min(j + b_, n_ - 1);
  else
    widen_to_panels(last_row_, kPanel);
  offset_.assign(static_cast<std::size_t>(n_) + 1, 0);
  for (int j = 0; j < n_; ++j)
    offset_[j + 1] = offset_[j] + (fixed_band_ ? b_ + 1 : last_row_[j] - j + 1);
  // map each stored entry on or below the permuted diagonal to its slot
  load_ = {};
  for (int c = 0; c < n_; ++c)
    for (int p = pattern.outerIndexPtr()[c]; p < pattern.outerIndexPtr()[c + 1]; ++p) {
      const int i = inverse[pattern.innerIndexPtr()[p]];
      const int j = inverse[c];
      if (i >= j) {
        load_.entry.push_back(p);
        load_.slot.push_back(static_cast<int>(offset_[j] + (i - j)));
      }
    }
  band_.assign(static_cast<std::size_t>(offset_[n_] + (fixed_band_ ? b_ * (b_ + 1) : 0)), 0.0);
  // the envelope's entries outside A's lower pattern, zeroed before each factorization
  load_.find_fill(band_.size());
  // on a staircase no load or elimination writes the entries beyond its blocks' bands: they keep
  // the zeros assigned here
  if (stair_offset_ >= 0)
    std::erase_if(load_.fill, [this](int k) {
      const int j = k / (b_ + 1), s = k % (b_ + 1);
      return s > b_ - (j + stair_offset_) % kBlock;
    });
  work_.assign(static_cast<std::size_t>(kPanel) * std::max(n_, 1), 0.0);
  inverse_pivot_.assign(n_, 0.0);
  y_.setZero(n_ + (fixed_band_ ? b_ : 0));
}

template <int B, int H>
[[gnu::always_inline]] inline bool BandedLdltSolver::eliminate_column(int j,
                                                                      double singular_tolerance,
                                                                      double max_diagonal,
                                                                      Factorization& result) {
  constexpr int kStride = B + 1;  // column j: its diagonal, then rows j + 1 .. j + B (zero past n)
  double* __restrict col = band_.data() + static_cast<std::ptrdiff_t>(j) * kStride;
  if (!accept_pivot(col[0], inverse_pivot_[j], max_diagonal, singular_tolerance, result))
    return false;
  const double inverse = 1.0 / col[0];
  inverse_pivot_[j] = inverse;
  double t[H];  // t[s - 1] = L(j + s, j) d_j
#pragma GCC unroll 16
  for (int s = 0; s < H; ++s) {
    t[s] = col[s + 1];
    col[s + 1] = t[s] * inverse;
  }
  // A(j + r + i, j + r) -= L(j + r, j) d_j L(j + r + i, j), column j + r's rows j + r .. j + H
#pragma GCC unroll 16
  for (int r = 1; r <= H; ++r) {
    double* col_r = col + r * kStride;
    const double l = col[r];
#pragma GCC unroll 16
    for (int i = 0; i <= H - r; ++i) col_r[i] -= l * t[r - 1 + i];
  }
  return true;
}

template <int B>
bool BandedLdltSolver::eliminate_stair(int j, double singular_tolerance, double max_diagonal,
                                       Factorization& result) {
  if constexpr (B >= kBlock) {
    switch ((j + stair_offset_) % kBlock) {
      case 1:
        return eliminate_column<B, B - 1>(j, singular_tolerance, max_diagonal, result);
      case 2:
        return eliminate_column<B, B - 2>(j, singular_tolerance, max_diagonal, result);
      case 3:
        return eliminate_column<B, B - 3>(j, singular_tolerance, max_diagonal, result);
      default:
        break;
    }
  }
  return eliminate_column<B, B>(j, singular_tolerance, max_diagonal, result);
}

template <int B>
Factorization BandedLdltSolver::eliminate_band(double singular_tolerance, double max_diagonal) {
  Factorization result;
  int j = 0;
  if constexpr (B >= kBlock)
    if (stair_offset_ >= 0) {
      // the columns before the first whole block, then block after block
      for (; j < n_ && (j + stair_offset_) % kBlock != 0; ++j)
        if (!eliminate_stair<B>(j, singular_tolerance, max_diagonal, result)) return result;
      for (; j + kBlock <= n_; j += kBlock)
        if (!eliminate_column<B, B>(j, singular_tolerance, max_diagonal, result) ||
            !eliminate_column<B, B - 1>(j + 1, singular_tolerance, max_diagonal, result) ||
            !eliminate_column<B, B - 2>(j + 2, singular_tolerance, max_diagonal, result) ||
            !eliminate_column<B, B - 3>(j + 3, singular_tolerance, max_diagonal, result))
          return result;
      for (; j < n_; ++j)
        if (!eliminate_stair<B>(j, singular_tolerance, max_diagonal, result)) return result;
    }
  for (; j < n_; ++j)
    if (!eliminate_column<B, B>(j, singular_tolerance, max_diagonal, result)) return result;
  if (result.negative_pivots > 0) result.status = Factorization::Status::indefinite;
  return result;
}

Factorization BandedLdltSolver::eliminate(double singular_tolerance) {
  // inverse_pivot_ holds the pivots' own scales until each column is eliminated
  const double max_diagonal = pivot_scales(
      n_, [this](int c) { return column(c); }, inverse_pivot_);
  if (fixed_band_)
    return with_fixed_band<1, kMaxFixedBand>(b_, [&](auto width) {
      return eliminate_band<decltype(width)::value>(singular_tolerance, max_diagonal);
    });

  Factorization result;
  for (int j0 = 0; j0 < n_; j0 += kPanel) {
    const int k = std::min(kPanel, n_ - j0);  // columns j0 .. j0 + k - 1 form the panel
    const int last = last_row_[j0];           // the last row of the panel's columns
    // 1. eliminate the panel's columns one after the other, updating only the panel's later
    // columns;
    //    t_q[s] = L(s, j) d_j is kept for the trailing update
    for (int q = 0; q < k; ++q) {
      const int j = j0 + q;
      double* col_j = column(j);  // col_j[s] = A(s, j)
      const double d = col_j[j];
      if (!accept_pivot(d, inverse_pivot_[j], max_diagonal, singular_tolerance, result))
        return result;
      const double inv = 1.0 / d;
      inverse_pivot_[j] = inv;
      double* t =
          work_.data() + static_cast<std::ptrdiff_t>(q) * n_ - j0;  // t[s], s = j + 1 .. last
      for (int s = j + 1; s <= last; ++s) {
        t[s] = col_j[s];
        col_j[s] *= inv;
      }
      // A(s, r) -= L(r, j) d_j L(s, j) for the panel's columns r after j, r <= s <= last
      for (int r = j + 1; r < j0 + k; ++r) {
        const double l = col_j[r];
        double* col_r = column(r);
        for (int s = r; s <= last; ++s) col_r[s] -= l * t[s];
      }
    }
    // 2. rank-k update of the columns after the panel up to its last row, c = j0 + k .. last:
    //    A(s, c) -= sum_q L(s, j0 + q) t_q[c], s = c .. last (column c stores at least these rows:
    //    the envelope is a staircase). Each entry is loaded and stored once per panel (contiguous
    //    in s: vectorized).
    const double* t0 = work_.data() - j0;
    const double* l0 = column(j0);
    if (k == kPanel) {
      const double* l1 = column(j0 + 1);
      const double* l2 = column(j0 + 2);
      const double* l3 = column(j0 + 3);
      const double* t1 = t0 + n_;
      const double* t2 = t1 + n_;
      const double* t3 = t2 + n_;
      // two columns c, c + 1 at a time share the loads of L(s, j0 .. j0 + 3)
      int c = j0 + kPanel;
      for (; c + 1 <= last; c += 2) {
        const double u0 = t0[c], u1 = t1[c], u2 = t2[c], u3 = t3[c];
        const double v0 = t0[c + 1], v1 = t1[c + 1], v2 = t2[c + 1], v3 = t3[c + 1];
        double* col_c = column(c);
        double* col_d = column(c + 1);
        col_c[c] -= l0[c] * u0 + l1[c] * u1 + l2[c] * u2 + l3[c] * u3;
        for (int s = c + 1; s <= last; ++s) {
          const double a0 = l0[s], a1 = l1[s], a2 = l2[s], a3 = l3[s];
          col_c[s] -= a0 * u0 + a1 * u1 + a2 * u2 + a3 * u3;
          col_d[s] -= a0 * v0 + a1 * v1 + a2 * v2 + a3 * v3;
        }
      }
      if (c == last) {
        double* col_c = column(c);
        col_c[c] -= l0[c] * t0[c] + l1[c] * t1[c] + l2[c] * t2[c] + l3[c] * t3[c];
      }
    } else {
      for (int q = 0; q < k; ++q) {
        const double* lq = column(j0 + q);
        const double* tq = t0 + static_cast<std::ptrdiff_t>(q) * n_;
        for (int c = j0 + k; c <= last; ++c) {
          const double u = tq[c];
          double* col_c = column(c);
          for (int s = c; s <= last; ++s) col_c[s] -= lq[s] * u;
        }
      }
    }
  }
  if (result.negative_pivots > 0) result.status = Factorization::Status::indefinite;
  return result;
}

template <int B, int S>
[[gnu::always_inline]] inline void BandedLdltSolver::forward_row(int j, const VecX& b) {
  // z_j = y_j - sum_s L(j, j - s) z_{j - s}, L(j, j - s) stored in column j - s at offset s; the
  // terms of the rows before j - 1 first, so that only the last multiply-add waits on z_{j - 1}
  constexpr int kStride = B + 1;
  double* __restrict y = y_.data();
  const double* band = band_.data() + static_cast<std::ptrdiff_t>(j) * kStride;
  double sum = 0.0;
#pragma GCC unroll 16
  for (int s = S; s >= 2; --s) sum += band[s - s * kStride] * y[j - s];
  y[j] = b[order_[j]] - sum - band[1 - kStride] * y[j - 1];
}

template <int B, int H>
[[gnu::always_inline]] inline void BandedLdltSolver::backward_column(int j, VecX& x) {
  // x_j = z_j / d_j - sum_s L(j + s, j) x_{j + s}, x_{j + 1} last
  double* __restrict y = y_.data();
  const double* col = band_.data() + static_cast<std::ptrdiff_t>(j) * (B + 1);
  double sum = 0.0;
#pragma GCC unroll 16
  for (int s = H; s >= 2; --s) sum += col[s] * y[j + s];
  y[j] = y[j] * inverse_pivot_[j] - sum - col[1] * y[j + 1];
  x[order_[j]] = y[j];
}

namespace {

/// f(std::integral_constant<int, q>{}) for q = `phase` in [0, 4) (a place in a staircase block)
template <class F>
void with_phase(int phase, F&& f) {
  switch (phase) {
    case 1:
      return f(std::integral_constant<int, 1>{});
    case 2:
      return f(std::integral_constant<int, 2>{});
    case 3:
      return f(std::integral_constant<int, 3>{});
    default:
      return f(std::integral_constant<int, 0>{});
  }
}

/// How far back row j of a staircase band of width b reaches when j is at place q of its block:
/// to the first column of the first block whose band holds row j, b - ((b - q) mod 4) columns
constexpr int row_reach(int b, int q) {
  return b - (b - q) % 4;
}

}  // namespace

template <int B>
void BandedLdltSolver::solve_band(const VecX& b, VecX& x) {
  double* __restrict y = y_.data();
  const double* band = band_.data();
  // L(j, j - s), stored in column j - s at offset s
  const auto lower = [band](int j, int s) {
    return band[static_cast<std::ptrdiff_t>(j - s) * (B + 1) + s];
  };
  // forward, row by row (forward_row); the first rows reach back to row 0 only
  for (int j = 0; j < std::min(B, n_); ++j) {
    double sum = 0.0;
    for (int s = j; s >= 2; --s) sum += lower(j, s) * y[j - s];
    y[j] = b[order_[j]] - sum - (j >= 1 ? lower(j, 1) * y[j - 1] : 0.0);
  }
  x.resize(n_);
  const int o = stair_offset_;
  static_assert(kBlock == 4, "with_phase and row_reach take blocks of four columns");
  if constexpr (B >= kBlock) {
    if (o >= 0) {
      // a staircase: each row and column only as far as its block's band reaches (the terms
      // skipped are products with zeros); the rows before the first whole block, block after
      // block, the rest
      const auto row = [&](int j) {
        with_phase((j + o) % kBlock, [&](auto q) { forward_row<B, row_reach(B, q)>(j, b); });
      };
      const auto column = [&](int j) {
        with_phase((j + o) % kBlock, [&](auto q) { backward_column<B, B - q>(j, x); });
      };
      int j = B;
      for (; j < n_ && (j + o) % kBlock != 0; ++j) row(j);
      for (; j + kBlock <= n_; j += kBlock) {
        forward_row<B, row_reach(B, 0)>(j, b);
        forward_row<B, row_reach(B, 1)>(j + 1, b);
        forward_row<B, row_reach(B, 2)>(j + 2, b);
        forward_row<B, row_reach(B, 3)>(j + 3, b);
      }
      for (; j < n_; ++j) row(j);
      // backward: the columns after the last whole block, block after block, the first ones
      j = n_ - 1;
      for (; j >= 0 && (j + o + 1) % kBlock != 0; --j) column(j);
      for (; j - kBlock + 1 >= 0; j -= kBlock) {
        backward_column<B, B - 3>(j, x);
        backward_column<B, B - 2>(j - 1, x);
        backward_column<B, B - 1>(j - 2, x);
        backward_column<B, B>(j - 3, x);
      }
      for (; j >= 0; --j) column(j);
      return;
    }
  }
  for (int j = B; j < n_; ++j) forward_row<B, B>(j, b);
  for (int j = n_ - 1; j >= 0; --j) backward_column<B, B>(j, x);
}

void BandedLdltSolver::solve(const VecX& b, VecX& x) {
  if (fixed_band_)
    return with_fixed_band<1, kMaxFixedBand>(
        b_, [&](auto width) { solve_band<decltype(width)::value>(b, x); });
  for (int k = 0; k < n_; ++k) y_[k] = b[order_[k]];
  // forward: L z = y (unit lower)
  forward_substitution_unit_lower(y_.data(), n_, last_row_, [this](int c) { return column(c); });
  // diagonal, then backward: L^T x = z, x_j = z_j - sum_s L(s, j) x_s
  for (int j = 0; j < n_; ++j) y_[j] *= inverse_pivot_[j];
  for (int j = n_ - 1; j >= 0; --j) {
    const double* col_j = column(j);
    const int last = last_row_[j];
    const double* y = y_.data();
    int s = j + 1;
    double s0 = 0.0, s1 = 0.0;  // two partial sums halve the dependency chain
    if (last - j >= 16) {
      // long columns (a shell's): eight partial sums, four vectors of two, whose additions do not
      // wait on each other
      std::array<double, 8> sum{};
      for (; s + 7 <= last; s += 8)
        for (int q = 0; q < 8; ++q) sum[q] += col_j[s + q] * y[s + q];
      s0 = (sum[0] + sum[4]) + (sum[2] + sum[6]);
      s1 = (sum[1] + sum[5]) + (sum[3] + sum[7]);
    }
    for (; s + 1 <= last; s += 2) {
      s0 += col_j[s] * y[s];
      s1 += col_j[s + 1] * y[s + 1];
    }
    if (s <= last) s0 += col_j[s] * y[s];
    y_[j] -= s0 + s1;
  }
  x.resize(n_);
  for (int k = 0; k < n_; ++k) x[order_[k]] = y_[k];
}

}  // namespace tendril
