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
  l_.assign(l_row_.size(), 0.0);
  u_.assign(u_row_.size(), 0.0);
  pivot_.assign(n_, 0.0);
  work_.assign(n_, 0.0);
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

Factorization AmdLuSolver::eliminate(const double* values, const std::vector<int>& from,
                                     double singular_tolerance) {
  double max_diagonal = 0.0;
  for (int e : diagonal_)
    if (e >= 0) max_diagonal = std::max(max_diagonal, std::abs(values[from[e]]));
  Factorization result;
  result.status = Factorization::Status::general;
  double* __restrict w = work_.data();
  for (int j = 0; j < n_; ++j) {
    for (int e = a_begin_[j]; e < a_begin_[j + 1]; ++e) w[a_row_[e]] = values[from[e]];
    const double own = std::abs(w[j]);
    // U(k, j), k < j in increasing order, and the updates of column j by L(:, k), a supernode's
    // columns k .. m at a time
    for (int q = u_begin_[j]; q < u_begin_[j + 1];) {
      const int k = u_row_[q];
      const int m = std::min(supernode_end_[k], j - 1);
      update_by_supernode(w, k, m, u_.data() + q);
      q += m - k + 1;
    }
    const double d = w[j];
    w[j] = 0.0;
    const bool accepted = accept_pivot(d, own, max_diagonal, singular_tolerance, result);
    const double inverse = accepted ? 1.0 / d : 0.0;
    pivot_[j] = d;
    for (int p = l_begin_[j]; p < l_begin_[j + 1]; ++p) {
      l_[p] = w[l_row_[p]] * inverse;
      w[l_row_[p]] = 0.0;  // the work vector is zero between columns, also after a refusal
    }
    if (!accepted) return result;
  }
  return result;
}

void AmdLuSolver::update_by_supernode(double* __restrict w, int k, int m, double* u) {
  // the triangle: U(c, j) for c = k .. m, each updating the later ones of the run
  for (int c = k; c <= m; ++c) {
    u[c - k] = w[c];
    w[c] = 0.0;
    const double* l = l_.data() + l_begin_[c];  // l[s] = L(c + 1 + s, c) up to the supernode's end
    for (int s = 0; s < m - c; ++s) w[c + 1 + s] -= l[s] * u[c - k];
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
    const double u0 = u[c - k], u1 = u[c - k + 1], u2 = u[c - k + 2], u3 = u[c - k + 3];
    for (int i = 0; i < count; ++i) w[rows[i]] -= l0[i] * u0 + l1[i] * u1 + l2[i] * u2 + l3[i] * u3;
  }
  for (; c <= m; ++c) {
    const double* l = l_.data() + l_begin_[c] + (m - c);
    const double uc = u[c - k];
    for (int i = 0; i < count; ++i) w[rows[i]] -= l[i] * uc;
  }
}

void AmdLuSolver::solve(const VecX& b, VecX& x) {
  for (int k = 0; k < n_; ++k) y_[k] = b[order_[k]];
  double* __restrict y = y_.data();
  // forward: L z = y (unit lower, by columns)
  for (int k = 0; k < n_; ++k) {
    const double yk = y[k];
    if (yk == 0.0) continue;
    for (int p = l_begin_[k]; p < l_begin_[k + 1]; ++p) y[l_row_[p]] -= l_[p] * yk;
  }
  // backward: U x = z (by columns, from the last)
  for (int j = n_ - 1; j >= 0; --j) {
    const double xj = y[j] / pivot_[j];
    y[j] = xj;
    if (xj == 0.0) continue;
    for (int q = u_begin_[j]; q < u_begin_[j + 1]; ++q) y[u_row_[q]] -= u_[q] * xj;
  }
  x.resize(n_);
  for (int k = 0; k < n_; ++k) x[order_[k]] = y_[k];
}

}  // namespace tendril
