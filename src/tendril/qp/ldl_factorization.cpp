#include "tendril/qp/ldl_factorization.hpp"

#include <Eigen/OrderingMethods>
#include <algorithm>
#include <cmath>

namespace tendril::qp {

namespace {

/// Representative of i's set in the union-find forest `parent` (path halving).
int find_root(std::vector<int>& parent, int i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

}  // namespace

void LdlFactorization::chain_ordering(const SparseMatrix& lower,
                                      const std::vector<signed char>& pivot_sign) {
  // groups of primal unknowns coupled by the primal block (P), in the order of their first unknown
  std::vector<int> root(n_);
  for (int i = 0; i < n_; ++i) root[i] = i;
  for (int j = 0; j < n_; ++j)
    for (int p = lower.outerIndexPtr()[j]; p < lower.outerIndexPtr()[j + 1]; ++p) {
      const int i = lower.innerIndexPtr()[p];
      if (pivot_sign[i] > 0 && pivot_sign[j] > 0) {
        const int a = find_root(root, i), b = find_root(root, j);
        if (a != b) root[std::max(a, b)] = std::min(a, b);
      }
    }
  // a multiplier row goes right after the last group it touches: every primal unknown it is coupled
  // to (directly or through P) is then eliminated before it, as in the primal-first ordering
  std::vector<int> key(n_, -1);
  for (int j = 0; j < n_; ++j) {
    if (pivot_sign[j] > 0) key[j] = find_root(root, j);
    for (int p = lower.outerIndexPtr()[j]; p < lower.outerIndexPtr()[j + 1]; ++p) {
      const int i = lower.innerIndexPtr()[p];
      if (pivot_sign[i] < 0 && pivot_sign[j] > 0) key[i] = std::max(key[i], find_root(root, j));
    }
  }
  // counting sort by (key, primal before multiplier, index)
  std::vector<int> count(2 * n_ + 3, 0);
  const auto bucket = [&](int i) { return 2 * (key[i] + 1) + (pivot_sign[i] < 0); };
  for (int i = 0; i < n_; ++i) ++count[bucket(i) + 1];
  for (std::size_t b = 1; b < count.size(); ++b) count[b] += count[b - 1];
  perm_.resize(n_);
  for (int i = 0; i < n_; ++i) perm_[count[bucket(i)]++] = i;
}

void LdlFactorization::amd_ordering(const SparseMatrix& lower,
                                    const std::vector<signed char>& pivot_sign) {
  // approximate minimum degree ordering of the symmetric pattern, then the positive pivots first
  // (stable partition): eliminating a tiny negative pivot -delta before its primal neighbours would
  // add entries ~1/delta to the primal block and lose digits
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> ordering;
  Eigen::AMDOrdering<int>()(lower, ordering);
  perm_.assign(ordering.indices().data(), ordering.indices().data() + n_);
  std::stable_partition(perm_.begin(), perm_.end(), [&](int i) { return pivot_sign[i] > 0; });
}

void LdlFactorization::analyse(const SparseMatrix& lower,
                               const std::vector<signed char>& pivot_sign) {
  n_ = static_cast<int>(lower.rows());
  chain_ordering(lower, pivot_sign);
  symbolic(lower, pivot_sign);
  chain_ordered_ = lp_[n_] <= kChainFill * lower.nonZeros();
  if (!chain_ordered_) {
    amd_ordering(lower, pivot_sign);
    symbolic(lower, pivot_sign);
  }
}

void LdlFactorization::symbolic(const SparseMatrix& lower,
                                const std::vector<signed char>& pivot_sign) {
  const int nnz = static_cast<int>(lower.nonZeros());
  std::vector<int> inverse(n_);
  for (int k = 0; k < n_; ++k) inverse[perm_[k]] = k;
  sign_.resize(n_);
  for (int k = 0; k < n_; ++k) sign_[k] = pivot_sign[perm_[k]];

  // permuted upper triangle: entry (i, j) of `lower` goes to column max(i', j'), row min(i', j')
  cp_.assign(n_ + 1, 0);
  for (int j = 0; j < n_; ++j)
    for (int p = lower.outerIndexPtr()[j]; p < lower.outerIndexPtr()[j + 1]; ++p)
      ++cp_[std::max(inverse[lower.innerIndexPtr()[p]], inverse[j]) + 1];
  for (int k = 0; k < n_; ++k) cp_[k + 1] += cp_[k];
  ci_.resize(nnz);
  value_source_.resize(nnz);
  std::vector<int> next(cp_.begin(), cp_.end() - 1);
  for (int j = 0; j < n_; ++j)
    for (int p = lower.outerIndexPtr()[j]; p < lower.outerIndexPtr()[j + 1]; ++p) {
      const int a = inverse[lower.innerIndexPtr()[p]], b = inverse[j];
      const int q = next[std::max(a, b)]++;
      ci_[q] = std::min(a, b);
      value_source_[q] = p;
    }

  // elimination tree and column counts of L
  parent_.assign(n_, -1);
  lnz_.assign(n_, 0);
  std::vector<int> flag(n_, -1);
  for (int k = 0; k < n_; ++k) {
    flag[k] = k;
    for (int p = cp_[k]; p < cp_[k + 1]; ++p) {
      for (int i = ci_[p]; flag[i] != k; i = parent_[i]) {
        if (parent_[i] == -1) parent_[i] = k;
        ++lnz_[i];
        flag[i] = k;
      }
    }
  }
  lp_.assign(n_ + 1, 0);
  for (int k = 0; k < n_; ++k) lp_[k + 1] = lp_[k] + lnz_[k];
  li_.resize(lp_[n_]);
  lx_.resize(lp_[n_]);
  d_inverse_.resize(n_);
  y_.assign(n_, 0.0);
  work_.resize(n_);

  // pattern of every row of L (its reach in the elimination tree, in topological order) and the
  // row indices of every column of L, so that factorize() does only arithmetic
  std::vector<int> stack(n_);
  row_begin_.assign(n_ + 1, 0);
  row_pattern_.resize(lp_[n_]);
  std::fill(flag.begin(), flag.end(), -1);
  lnz_.assign(n_, 0);
  for (int k = 0; k < n_; ++k) {
    int top = n_;
    flag[k] = k;
    for (int p = cp_[k]; p < cp_[k + 1]; ++p) {
      int len = 0;
      for (int i = ci_[p]; flag[i] != k; i = parent_[i]) {
        stack[len++] = i;
        flag[i] = k;
      }
      while (len > 0) stack[--top] = stack[--len];
    }
    row_begin_[k + 1] = row_begin_[k] + (n_ - top);
    std::copy(stack.begin() + top, stack.end(), row_pattern_.begin() + row_begin_[k]);
    for (; top < n_; ++top) li_[lp_[stack[top]] + lnz_[stack[top]]++] = k;
  }
}

int LdlFactorization::factorize(const SparseMatrix& lower, double scale, double relative_threshold,
                                double relative_shift) {
  const double* values = lower.valuePtr();
  int replaced = 0;
  std::fill(lnz_.begin(), lnz_.end(), 0);
  for (int k = 0; k < n_; ++k) {
    // column k of the permuted matrix scattered in y
    for (int p = cp_[k]; p < cp_[k + 1]; ++p) y_[ci_[p]] += values[value_source_[p]];
    // sparse triangular solve for row k of L (pattern from analyse()), and the pivot d_k
    double dk = y_[k];
    double magnitude =
        std::abs(dk);  // sum of |terms| of d_k: its rounding error is ~ u * magnitude
    y_[k] = 0.0;
    for (int r = row_begin_[k]; r < row_begin_[k + 1]; ++r) {
      const int i = row_pattern_[r];
      const double yi = y_[i];
      y_[i] = 0.0;
      const int end = lp_[i] + lnz_[i];
      for (int p = lp_[i]; p < end; ++p) y_[li_[p]] -= lx_[p] * yi;
      const double lki = yi * d_inverse_[i];
      dk -= lki * yi;
      magnitude += std::abs(lki * yi);
      lx_[end] = lki;
      ++lnz_[i];
    }
    // dynamic regularisation: the pivot must have the sign of its block and stand out of its own
    // rounding error; a pivot cancelled down to noise (a row dependent on earlier ones) is replaced
    if (!std::isfinite(dk)) return -1;
    const double reference = std::max(scale, magnitude);
    if (!(sign_[k] * dk > relative_threshold * reference)) {
      dk = sign_[k] * relative_shift * reference;
      ++replaced;
    }
    d_inverse_[k] = 1.0 / dk;
  }
  return replaced;
}

void LdlFactorization::solve_in_place(VecX& b) {
  for (int k = 0; k < n_; ++k) work_[k] = b[perm_[k]];
  // L w = b (column-oriented), then D L^T x = w (row-oriented, D^-1 applied before the dot product)
  for (int j = 0; j < n_; ++j) {
    const double wj = work_[j];
    for (int p = lp_[j]; p < lp_[j + 1]; ++p) work_[li_[p]] -= lx_[p] * wj;
  }
  for (int j = n_ - 1; j >= 0; --j) {
    double xj = work_[j] * d_inverse_[j];
    for (int p = lp_[j]; p < lp_[j + 1]; ++p) xj -= lx_[p] * work_[li_[p]];
    work_[j] = xj;
  }
  for (int k = 0; k < n_; ++k) b[perm_[k]] = work_[k];
}

}  // namespace tendril::qp
