#include "tendril/integrate/amd_lu_solver.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/OrderingMethods>

#include "tendril/core/error.hpp"

namespace tendril {
namespace {

/// The elimination tree of a structurally symmetric pattern whose column j holds the permuted rows
/// rows[begin[j] .. begin[j + 1]): parent[j] (-1 at a root), by Liu's algorithm with path
/// compression (Davis 2006, sec. 4.1).
std::vector<int> elimination_tree(int n, const std::vector<int>& begin,
                                  const std::vector<int>& rows) {
  std::vector<int> parent(n, -1), ancestor(n, -1);
  for (int j = 0; j < n; ++j)
    for (int e = begin[j]; e < begin[j + 1]; ++e)
      for (int r = rows[e]; r != -1 && r < j;) {
        const int next = ancestor[r];
        ancestor[r] = j;
        if (next == -1) parent[r] = j;
        r = next;
      }
  return parent;
}

}  // namespace

void AmdLuSolver::analyze(const SparseMatrix& pattern) {
  n_ = static_cast<int>(pattern.rows());
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> new_to_old;
  const SparseMatrix symmetric = pattern.selfadjointView<Eigen::Lower>();
  Eigen::AMDOrdering<int>()(symmetric, new_to_old);
  order_.assign(new_to_old.indices().data(), new_to_old.indices().data() + n_);
  std::vector<int> inverse(n_);
  for (int k = 0; k < n_; ++k) inverse[order_[k]] = k;
  // A's entries by permuted column
  a_begin_.assign(static_cast<std::size_t>(n_) + 1, 0);
  for (int c = 0; c < n_; ++c)
    a_begin_[inverse[c] + 1] = pattern.outerIndexPtr()[c + 1] - pattern.outerIndexPtr()[c];
  for (int j = 0; j < n_; ++j) a_begin_[j + 1] += a_begin_[j];
  a_row_.resize(static_cast<std::size_t>(a_begin_[n_]));
  entry_.resize(a_row_.size());
  diagonal_.assign(n_, -1);
  for (int c = 0; c < n_; ++c) {
    int e = a_begin_[inverse[c]];
    for (int p = pattern.outerIndexPtr()[c]; p < pattern.outerIndexPtr()[c + 1]; ++p, ++e) {
      a_row_[e] = inverse[pattern.innerIndexPtr()[p]];
      entry_[e] = p;
      if (a_row_[e] == inverse[c]) diagonal_[inverse[c]] = e;
    }
  }
  through_.clear();
  // U(:, j)'s rows: the reach of A(0 .. j - 1, j) in the elimination tree (the pattern of row j of
  // L), sorted; L(:, k)'s rows: the columns j whose U has row k, in increasing j
  const std::vector<int> parent = elimination_tree(n_, a_begin_, a_row_);
  std::vector<int> mark(n_, -1), l_count(n_, 0);
  u_begin_.assign(static_cast<std::size_t>(n_) + 1, 0);
  u_row_.clear();
  for (int j = 0; j < n_; ++j) {
    mark[j] = j;
    const auto first = static_cast<std::ptrdiff_t>(u_row_.size());
    for (int e = a_begin_[j]; e < a_begin_[j + 1]; ++e)
      for (int k = a_row_[e]; k < j && mark[k] != j; k = parent[k]) {
        mark[k] = j;
        u_row_.push_back(k);
        ++l_count[k];
      }
    std::sort(u_row_.begin() + first, u_row_.end());
    u_begin_[j + 1] = static_cast<int>(u_row_.size());
  }
  l_begin_.assign(static_cast<std::size_t>(n_) + 1, 0);
  multiply_adds_ = 0.0;
  for (int k = 0; k < n_; ++k) {
    l_begin_[k + 1] = l_begin_[k] + l_count[k];
    multiply_adds_ += static_cast<double>(l_count[k]) * (l_count[k] + 1.0);
  }
  l_row_.resize(u_row_.size());
  std::vector<int> next(l_begin_.begin(), l_begin_.end() - 1);
  for (int j = 0; j < n_; ++j)
    for (int q = u_begin_[j]; q < u_begin_[j + 1]; ++q) l_row_[next[u_row_[q]]++] = j;
  // supernodes: column k continues into k + 1 when L(:, k) holds row k + 1 and then exactly
  // L(:, k + 1)'s rows (k + 1 its parent in the tree, one entry more; Davis sec. 4.4): a rod's
  // node, three positions and a twist, is one
  supernode_end_.assign(n_, n_ - 1);
  for (int k = n_ - 2; k >= 0; --k)
    supernode_end_[k] =
        parent[k] == k + 1 && l_count[k] == l_count[k + 1] + 1 ? supernode_end_[k + 1] : k;
  find_panels();
  lay_out_panels();
  l_.assign(l_row_.size(), 0.0);
  inverse_pivot_.assign(n_, 0.0);
  work_.assign(n_, LanePack(0.0));
  y_.resize(n_);
}

bool AmdLuSolver::read_through(std::span<const int> map) {
  through_.resize(entry_.size());
  for (std::size_t e = 0; e < entry_.size(); ++e)
    through_[e] = map[static_cast<std::size_t>(entry_[e])];
  return true;
}

Factorization AmdLuSolver::factorize(const SparseMatrix& A, double singular_tolerance) {
  TENDRIL_ASSERT(A.rows() == n_, "factorize needs the analyzed pattern");
  return eliminate(A.valuePtr(), entry_, singular_tolerance);
}

Factorization AmdLuSolver::factorize_through(const double* values, double singular_tolerance) {
  return eliminate(values, through_, singular_tolerance);
}

void AmdLuSolver::find_panels() {
  panel_start_.clear();
  run_begin_.assign(1, 0);
  run_first_.clear();
  std::vector<int> mark(n_, -1), rows;
  for (int j0 = 0; j0 < n_;) {
    const int end = std::min(supernode_end_[j0], j0 + LanePack::kLanes - 1);
    panel_start_.push_back(j0);
    // the earlier columns the panel's U holds, then one run per supernode among them (U(:, j)
    // reaches a supernode's columns from some c to its end: the rows of L hold subtrees)
    rows.clear();
    for (int j = j0; j <= end; ++j)
      for (int q = u_begin_[j]; q < u_begin_[j + 1]; ++q)
        if (const int k = u_row_[q]; k < j0 && mark[k] != j0) {
          mark[k] = j0;
          rows.push_back(k);
        }
    std::sort(rows.begin(), rows.end());
    for (std::size_t r = 0; r < rows.size();) {
      const int k = rows[r];
      run_first_.push_back(k);
      const int m = std::min(supernode_end_[k], j0 - 1);
      while (r < rows.size() && rows[r] <= m) ++r;
    }
    run_begin_.push_back(static_cast<int>(run_first_.size()));
    j0 = end + 1;
  }
  panel_start_.push_back(n_);
}

void AmdLuSolver::lay_out_panels() {
  a_work_.resize(a_row_.size());
  u_block_begin_.assign(1, 0);
  for (std::size_t p = 0; p + 1 < panel_start_.size(); ++p) {
    const int first = panel_start_[p], end = panel_start_[p + 1];
    for (int j = first; j < end; ++j)
      for (int e = a_begin_[j]; e < a_begin_[j + 1]; ++e)
        a_work_[e] = LanePack::kLanes * a_row_[e] + (j - first);
    int kept = end - first;
    for (int r = run_begin_[p]; r < run_begin_[p + 1]; ++r)
      kept += run_last(r, first) - run_first_[r] + 1;
    u_block_begin_.push_back(u_block_begin_.back() + kept);
  }
  u_blocks_.assign(static_cast<std::size_t>(u_block_begin_.back()), LanePack(0.0));
}

Factorization AmdLuSolver::eliminate(const double* values, const std::vector<int>& from,
                                     double singular_tolerance) {
  double max_diagonal = 0.0;
  for (int e : diagonal_)
    if (e >= 0) max_diagonal = std::max(max_diagonal, std::abs(values[from[e]]));
  Factorization result;
  result.status = Factorization::Status::general;
  double* w = reinterpret_cast<double*>(work_.data());  // w[4 r + t]: row r, lane t
  for (std::size_t p = 0; p + 1 < panel_start_.size(); ++p) {
    const int j0 = panel_start_[p], width = panel_start_[p + 1] - j0;
#pragma GCC unroll 4
    for (int e = a_begin_[j0]; e < a_begin_[j0 + width]; ++e) w[a_work_[e]] = values[from[e]];
    double own[LanePack::kLanes];
    for (int t = 0; t < width; ++t) own[t] = std::abs(w[LanePack::kLanes * (j0 + t) + t]);
    for (int r = run_begin_[p]; r < run_begin_[p + 1]; ++r)
      update_by_run(run_first_[r], run_last(r, j0));
    const bool accepted = eliminate_panel(j0, width, own, max_diagonal, singular_tolerance, result);
    keep_panel(p, j0, j0 + width - 1);  // also after a refusal
    if (!accepted) return result;
  }
  return result;
}

void AmdLuSolver::update_by_run(int k, int m) {
  LanePack* __restrict w = work_.data();
  // the triangle: U(c, panel) for c = k .. m, each updating the later rows of the run (a whole
  // rod node, four columns, unrolled)
  if (m - k == 3) {
    const double* l0 = l_.data() + l_begin_[k];
    const double* l1 = l_.data() + l_begin_[k + 1];
    const double* l2 = l_.data() + l_begin_[k + 2];
    w[k + 1] -= LanePack(l0[0]) * w[k];
    w[k + 2] -= LanePack(l0[1]) * w[k];
    w[k + 3] -= LanePack(l0[2]) * w[k];
    w[k + 2] -= LanePack(l1[0]) * w[k + 1];
    w[k + 3] -= LanePack(l1[1]) * w[k + 1];
    w[k + 3] -= LanePack(l2[0]) * w[k + 2];
  } else {
    for (int c = k; c < m; ++c) {
      const LanePack u = w[c];
      const double* l = l_.data() + l_begin_[c];  // l[s] = L(c + 1 + s, c) to the supernode's end
      for (int s = 0; s < m - c; ++s) w[c + 1 + s] -= LanePack(l[s]) * u;
    }
  }
  // the rows after m, the same in every column of the run (column m's list): four columns at once
  const int* rows = l_row_.data() + l_begin_[m];
  const int count = l_begin_[m + 1] - l_begin_[m];
  int c = k;
  for (; c + 3 <= m; c += 4) {
    const double* l0 = l_.data() + l_begin_[c] + (m - c);
    const double* l1 = l_.data() + l_begin_[c + 1] + (m - c - 1);
    const double* l2 = l_.data() + l_begin_[c + 2] + (m - c - 2);
    const double* l3 = l_.data() + l_begin_[c + 3] + (m - c - 3);
    const LanePack u0 = w[c], u1 = w[c + 1], u2 = w[c + 2], u3 = w[c + 3];
    for (int i = 0; i < count; ++i)
      w[rows[i]] -=
          LanePack(l0[i]) * u0 + LanePack(l1[i]) * u1 + LanePack(l2[i]) * u2 + LanePack(l3[i]) * u3;
  }
  for (; c <= m; ++c) {
    const double* l = l_.data() + l_begin_[c] + (m - c);
    const LanePack u = w[c];
    for (int i = 0; i < count; ++i) w[rows[i]] -= LanePack(l[i]) * u;
  }
}

namespace {

/// The rows of L below a panel of W columns whose own block is factorised: each row's work
/// entries (work[4 r + t], lane t column j0 + t) become its entries of L, column after column
/// (l[t][i] = L(rows[i], j0 + t); `block`: the panel's rows, U(j0 + s, j0 + t) at block[4 s + t]),
/// and the row is zeroed
template <int W>
void eliminate_rows_below(double* work, const int* rows, int count, double* const* l,
                          const double* inverse, const double* block) {
  for (int i = 0; i < count; ++i) {
    double* row = work + LanePack::kLanes * rows[i];
    double v[W];
#pragma GCC unroll 4
    for (int t = 0; t < W; ++t) v[t] = row[t];
#pragma GCC unroll 4
    for (int s = 0; s < W; ++s) {
      v[s] *= inverse[s];
      l[s][i] = v[s];
#pragma GCC unroll 4
      for (int t = s + 1; t < W; ++t) v[t] -= v[s] * block[LanePack::kLanes * s + t];
    }
    LanePack(0.0).store(row);
  }
}

/// The panel's own W x W block (block[4 s + t], row j0 + s, column j0 + t) after the earlier
/// columns' updates: its pivots (accept(s, pivot) tests them; false at the first refused), their
/// inverses, its entries of L (l[s][r - s - 1] = L(j0 + r, j0 + s)) and U (left in block, above the
/// diagonal), column after column
template <int W, typename Accept>
bool factor_own_block(double* block, double* const* l, double* inverse, Accept&& accept) {
  double a[W][W];
#pragma GCC unroll 4
  for (int r = 0; r < W; ++r)
#pragma GCC unroll 4
    for (int t = 0; t < W; ++t) a[r][t] = block[LanePack::kLanes * r + t];
#pragma GCC unroll 4
  for (int s = 0; s < W; ++s) {
    if (!accept(s, a[s][s])) return false;
    inverse[s] = 1.0 / a[s][s];
#pragma GCC unroll 4
    for (int r = s + 1; r < W; ++r) {
      const double factor = a[r][s] * inverse[s];
      l[s][r - s - 1] = factor;
#pragma GCC unroll 4
      for (int t = s + 1; t < W; ++t) a[r][t] -= factor * a[s][t];
    }
  }
#pragma GCC unroll 4
  for (int r = 0; r < W; ++r)
#pragma GCC unroll 4
    for (int t = r + 1; t < W; ++t) block[LanePack::kLanes * r + t] = a[r][t];
  return true;
}

/// Calls kernel.template operator()<W>() for the panel width w = W (1 .. 4).
template <typename Kernel>
void with_width(int w, Kernel&& kernel) {
  switch (w) {
    case 4:
      return kernel.template operator()<4>();
    case 3:
      return kernel.template operator()<3>();
    case 2:
      return kernel.template operator()<2>();
    default:
      return kernel.template operator()<1>();
  }
}

}  // namespace

bool AmdLuSolver::eliminate_panel(int j0, int w, const double* own, double max_diagonal,
                                  double singular_tolerance, Factorization& result) {
  double* work = reinterpret_cast<double*>(work_.data());
  double* block = work + LanePack::kLanes * j0;  // the panel's rows, block[4 s + t]
  // the rows below the panel: those of L(:, e) (the panel's columns share them after its own)
  const int e = j0 + w - 1;
  const int* rows = l_row_.data() + l_begin_[e];
  const int count = l_begin_[e + 1] - l_begin_[e];
  double* l[LanePack::kLanes];
  for (int t = 0; t < w; ++t) l[t] = l_.data() + l_begin_[j0 + t];
  double inverse[LanePack::kLanes];
  bool accepted = false;
  with_width(w, [&]<int W>() {
    accepted = factor_own_block<W>(block, l, inverse, [&](int s, double d) {
      return accept_pivot(d, own[s], max_diagonal, singular_tolerance, result);
    });
    if (!accepted) return;
    for (int t = 0; t < W; ++t) l[t] += e - j0 - t;  // past the panel's own rows
    eliminate_rows_below<W>(work, rows, count, l, inverse, block);
  });
  if (!accepted) {
    for (int i = 0; i < count; ++i) work_[rows[i]] = LanePack(0.0);  // as after a success
    return false;
  }
  std::copy(inverse, inverse + w, inverse_pivot_.begin() + j0);
  return true;
}

void AmdLuSolver::keep_panel(std::size_t panel, int j0, int end) {
  LanePack* block = u_blocks_.data() + u_block_begin_[panel];
  const auto keep = [&](int c) {
    *block++ = work_[c];
    work_[c] = LanePack(0.0);
  };
  for (int c = j0; c <= end; ++c) keep(c);
  for (int r = run_begin_[panel]; r < run_begin_[panel + 1]; ++r)
    for (int c = run_first_[r]; c <= run_last(r, j0); ++c) keep(c);
}

namespace {

/// The forward substitution's updates by a panel of W columns j0 .. e = j0 + W - 1 of L (column
/// j0 + t's entries from l[t]: rows j0 + t + 1 .. e, then the rows below the panel, the same
/// `count` rows for every column): its own triangle, then y[rows[i]] -= L(rows[i], j0 + t) z_t for
/// t = 0 .. W - 1 in this order
template <int W>
void forward_panel(double* __restrict y, int j0, const double* const* l, const int* rows,
                   int count) {
  double z[W];
#pragma GCC unroll 4
  for (int t = 0; t < W; ++t) {
    z[t] = y[j0 + t];
#pragma GCC unroll 4
    for (int s = t + 1; s < W; ++s) y[j0 + s] -= l[t][s - t - 1] * z[t];
  }
  const double* below[W];
#pragma GCC unroll 4
  for (int t = 0; t < W; ++t) below[t] = l[t] + (W - 1 - t);
  for (int i = 0; i < count; ++i) {
    double v = y[rows[i]];
#pragma GCC unroll 4
    for (int t = 0; t < W; ++t) v -= below[t][i] * z[t];
    y[rows[i]] = v;
  }
}

/// The backward substitution's own triangle of a panel of W columns from j0 (U(j0 + s, j0 + t) at
/// block[4 s + t], 1 / U(j, j) at inverse[j - j0]): x_t into y and x, from the last column
template <int W>
void backward_triangle(double* __restrict y, int j0, const double* block, const double* inverse,
                       double* x) {
#pragma GCC unroll 4
  for (int t = W - 1; t >= 0; --t) {
    x[t] = y[j0 + t] * inverse[t];
    y[j0 + t] = x[t];
#pragma GCC unroll 4
    for (int s = 0; s < t; ++s) y[j0 + s] -= block[LanePack::kLanes * s + t] * x[t];
  }
}

}  // namespace

void AmdLuSolver::forward_substitution() {
  // L z = y (unit lower), panel by panel
  double* __restrict y = y_.data();
  for (std::size_t p = 0; p + 1 < panel_start_.size(); ++p) {
    const int j0 = panel_start_[p], width = panel_start_[p + 1] - j0, e = j0 + width - 1;
    const double* l[LanePack::kLanes];
    for (int t = 0; t < width; ++t) l[t] = l_.data() + l_begin_[j0 + t];
    const int* rows = l_row_.data() + l_begin_[e];
    const int count = l_begin_[e + 1] - l_begin_[e];
    with_width(width, [&]<int W>() { forward_panel<W>(y, j0, l, rows, count); });
  }
}

void AmdLuSolver::backward_substitution() {
  // U x = z, panel by panel from the last: the panel's own triangle, then the rows of its runs
  // (lanes past the panel's width hold zeros, and x there is zero)
  double* __restrict y = y_.data();
  for (std::size_t p = panel_start_.size() - 1; p-- > 0;) {
    const int j0 = panel_start_[p], width = panel_start_[p + 1] - j0;
    const double* block = reinterpret_cast<const double*>(u_blocks_.data() + u_block_begin_[p]);
    double x[LanePack::kLanes] = {};
    with_width(width,
               [&]<int W>() { backward_triangle<W>(y, j0, block, inverse_pivot_.data() + j0, x); });
    block += LanePack::kLanes * width;
    for (int r = run_begin_[p]; r < run_begin_[p + 1]; ++r)
      for (int c = run_first_[r]; c <= run_last(r, j0); ++c, block += LanePack::kLanes)
        y[c] = (((y[c] - block[3] * x[3]) - block[2] * x[2]) - block[1] * x[1]) - block[0] * x[0];
  }
}

void AmdLuSolver::solve(const VecX& b, VecX& x) {
  for (int k = 0; k < n_; ++k) y_[k] = b[order_[k]];
  forward_substitution();
  backward_substitution();
  x.resize(n_);
  for (int k = 0; k < n_; ++k) x[order_[k]] = y_[k];
}

}  // namespace tendril
