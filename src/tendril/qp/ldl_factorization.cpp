#include "tendril/qp/ldl_factorization.hpp"

#include <Eigen/OrderingMethods>
#include <algorithm>
#include <cmath>

namespace tendril::qp {

namespace {

/// a . b over `length` entries, in four partial sums (short envelope rows: no call, no peeling).
[[gnu::always_inline]] inline double dot(const double* a, const double* b, int length) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  int i = 0;
  for (; i + 4 <= length; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  for (; i < length; ++i) s0 += a[i] * b[i];
  return (s0 + s1) + (s2 + s3);
}

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
  envelope(lower, pivot_sign);
  chain_ordered_ = env_begin_[n_] <= kChainFill * lower.nonZeros();
  envelope_kernel_ = chain_ordered_ && env_begin_[n_] >= kEnvelopeRow * n_;
  if (!chain_ordered_) amd_ordering(lower, pivot_sign);
  if (!envelope_kernel_) symbolic(lower, pivot_sign);
  d_inverse_.resize(n_);
  work_.resize(n_);
}

void LdlFactorization::envelope(const SparseMatrix& lower,
                                const std::vector<signed char>& pivot_sign) {
  std::vector<int> inverse(n_);
  for (int k = 0; k < n_; ++k) inverse[perm_[k]] = k;
  sign_.resize(n_);
  for (int k = 0; k < n_; ++k) sign_[k] = pivot_sign[perm_[k]];
  // row k of L lies in columns first_[k] .. k - 1 (the fill of LDL^T stays in the envelope)
  first_.resize(n_);
  for (int k = 0; k < n_; ++k) first_[k] = k;
  const int* outer = lower.outerIndexPtr();
  const int* inner = lower.innerIndexPtr();
  for (int j = 0; j < n_; ++j)
    for (int p = outer[j]; p < outer[j + 1]; ++p) {
      const int a = inverse[inner[p]], b = inverse[j];
      first_[std::max(a, b)] = std::min(first_[std::max(a, b)], std::min(a, b));
    }
  env_begin_.resize(n_ + 1);
  env_begin_[0] = 0;
  for (int k = 0; k < n_; ++k) env_begin_[k + 1] = env_begin_[k] + k - first_[k];
  env_.resize(env_begin_[n_]);
  // where each entry of `lower` goes: the envelope (off the diagonal) or the diagonal (-1 - k)
  value_source_.resize(lower.nonZeros());
  for (int j = 0; j < n_; ++j)
    for (int p = outer[j]; p < outer[j + 1]; ++p) {
      const int a = std::max(inverse[inner[p]], inverse[j]);
      const int b = std::min(inverse[inner[p]], inverse[j]);
      value_source_[p] = a == b ? -1 - a : env_begin_[a] + b - first_[a];
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
  y_.assign(n_, 0.0);

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

[[gnu::always_inline]] inline bool LdlFactorization::set_pivot(int k, double dk, double magnitude,
                                                               double scale,
                                                               double relative_threshold,
                                                               double relative_shift) {
  // dynamic regularisation: the pivot must have the sign of its block and stand out of its own
  // rounding error; a pivot cancelled down to noise (a row dependent on earlier ones) is replaced
  const double reference = std::max(scale, magnitude);
  const bool replace = !(sign_[k] * dk > relative_threshold * reference);
  d_inverse_[k] = 1.0 / (replace ? sign_[k] * relative_shift * reference : dk);
  return replace;
}

int LdlFactorization::factorize(const SparseMatrix& lower, double scale, double relative_threshold,
                                double relative_shift) {
  return envelope_kernel_ ? factorize_envelope(lower, scale, relative_threshold, relative_shift)
                          : factorize_sparse(lower, scale, relative_threshold, relative_shift);
}

int LdlFactorization::factorize_envelope(const SparseMatrix& lower, double scale,
                                         double relative_threshold, double relative_shift) {
  const double* values = lower.valuePtr();
  std::fill(env_.begin(), env_.end(), 0.0);
  for (std::size_t p = 0; p < value_source_.size(); ++p)
    if (value_source_[p] >= 0)
      env_[value_source_[p]] = values[p];
    else
      work_[-1 - value_source_[p]] = values[p];
  int replaced = 0;
  for (int k = 0; k < n_; ++k) {
    // row k of L, stored from column first_[k]: first w_kj = l_kj d_j (row-oriented, dot products
    // over the overlap of two envelopes), then l_kj and the pivot d_k
    const int fk = first_[k];
    double* row = env_.data() + env_begin_[k] - fk;
    for (int j = fk; j < k; ++j) {
      const int lo = std::max(fk, first_[j]);
      const double* lj = env_.data() + env_begin_[j] - first_[j];
      row[j] -= dot(row + lo, lj + lo, j - lo);
    }
    double dk = work_[k];
    double magnitude = std::abs(dk);  // sum of |terms| of d_k: its rounding error is ~ u magnitude
    for (int j = fk; j < k; ++j) {
      const double lkj = row[j] * d_inverse_[j];
      dk -= lkj * row[j];
      magnitude += std::abs(lkj * row[j]);
      row[j] = lkj;
    }
    if (!std::isfinite(dk)) return -1;
    replaced += set_pivot(k, dk, magnitude, scale, relative_threshold, relative_shift);
  }
  return replaced;
}

int LdlFactorization::factorize_sparse(const SparseMatrix& lower, double scale,
                                       double relative_threshold, double relative_shift) {
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
    if (!std::isfinite(dk)) return -1;
    replaced += set_pivot(k, dk, magnitude, scale, relative_threshold, relative_shift);
  }
  return replaced;
}

void LdlFactorization::solve_in_place(VecX& b) {
  for (int k = 0; k < n_; ++k) work_[k] = b[perm_[k]];
  if (envelope_kernel_) {
    // L w = b (row-oriented dot products), then D L^T x = w (column-oriented updates)
    for (int k = 0; k < n_; ++k)
      work_[k] -= dot(env_.data() + env_begin_[k], work_.data() + first_[k], k - first_[k]);
    for (int k = 0; k < n_; ++k) work_[k] *= d_inverse_[k];
    for (int k = n_ - 1; k >= 0; --k) {
      const double xk = work_[k];
      const double* row = env_.data() + env_begin_[k] - first_[k];
      for (int j = first_[k]; j < k; ++j) work_[j] -= row[j] * xk;
    }
    for (int k = 0; k < n_; ++k) b[perm_[k]] = work_[k];
    return;
  }
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
