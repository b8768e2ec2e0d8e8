#include "tendril/qp/ldl_factorization.hpp"

#include <Eigen/Core>
#include <Eigen/OrderingMethods>
#include <algorithm>
#include <cmath>
#include <type_traits>
#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif

namespace tendril::qp {

namespace {

/// A column of a panel of the envelope kernel (`Lanes` rows of a run), and one in place.
template <int Lanes>
using PanelColumn = Eigen::Array<double, Lanes, 1>;
template <int Lanes>
using PanelMap = Eigen::Map<const PanelColumn<Lanes>>;

#if defined(__AVX2__) && defined(__FMA__)
/// work[0 .. 3] -= (PanelMap<Lanes>(l + c * Lanes) * x).sum() for the columns c = 0 .. 3 of a
/// panel: the same products and sums in the same order ((p0 + p2) + (p1 + p3) per column, an
/// 8-lane column's halves first added by a multiply-add), the four horizontal sums side by side.
template <int Lanes>
void subtract_dots4(const double* l, const PanelColumn<Lanes>& x, double* work) {
  __m256d m[4];
  for (int c = 0; c < 4; ++c) {
    m[c] = _mm256_mul_pd(_mm256_loadu_pd(l + c * Lanes), _mm256_loadu_pd(x.data()));
    if constexpr (Lanes == 8)
      m[c] =
          _mm256_fmadd_pd(_mm256_loadu_pd(l + c * Lanes + 4), _mm256_loadu_pd(x.data() + 4), m[c]);
  }
  // (m_c[0] + m_c[2], m_c[1] + m_c[3]) for two columns per register, then their pairs added
  const __m256d s01 = _mm256_add_pd(_mm256_permute2f128_pd(m[0], m[1], 0x20),
                                    _mm256_permute2f128_pd(m[0], m[1], 0x31));
  const __m256d s23 = _mm256_add_pd(_mm256_permute2f128_pd(m[2], m[3], 0x20),
                                    _mm256_permute2f128_pd(m[2], m[3], 0x31));
  const __m256d sums = _mm256_permute4x64_pd(_mm256_hadd_pd(s01, s23), 0xD8);  // columns 0 .. 3
  _mm256_storeu_pd(work, _mm256_sub_pd(_mm256_loadu_pd(work), sums));
}
#endif

/// kBelow[q][p] = 1 if lane p lies below lane q, else 0
constexpr double kBelow[8][8] = {{0, 1, 1, 1, 1, 1, 1, 1}, {0, 0, 1, 1, 1, 1, 1, 1},
                                 {0, 0, 0, 1, 1, 1, 1, 1}, {0, 0, 0, 0, 1, 1, 1, 1},
                                 {0, 0, 0, 0, 0, 1, 1, 1}, {0, 0, 0, 0, 0, 0, 1, 1},
                                 {0, 0, 0, 0, 0, 0, 0, 1}, {0, 0, 0, 0, 0, 0, 0, 0}};

/// Representative of i's set in the union-find forest `parent` (path halving).
int find_root(std::vector<int>& parent, int i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

}  // namespace

void LdlFactorization::chain_ordering(const SparseMatrix& lower,
                                      const std::vector<signed char>& pivot_sign) {
  // groups of primal unknowns coupled by the primal block (P), in the order of their first unknown:
  // a union-find forest whose links all point to a smaller index (each union links the larger
  // root to the smaller), so one pass in index order leaves every unknown linked to its root
  const int* outer = lower.outerIndexPtr();
  const int* inner = lower.innerIndexPtr();
  std::vector<int>& root = scratch_;
  root.resize(n_);
  for (int i = 0; i < n_; ++i) root[i] = i;
  for (int j = 0; j < n_; ++j) {
    if (pivot_sign[j] < 0) continue;
    for (int p = outer[j]; p < outer[j + 1]; ++p)
      if (pivot_sign[inner[p]] > 0) {
        const int a = find_root(root, inner[p]), b = find_root(root, j);
        if (a != b) root[std::max(a, b)] = std::min(a, b);
      }
  }
  for (int i = 0; i < n_; ++i) root[i] = root[root[i]];
  // a multiplier row goes right after the last group it touches: every primal unknown it is coupled
  // to (directly or through P) is then eliminated before it, as in the primal-first ordering
  std::vector<int>& key = perm_;  // the key of each row until the sort below
  key.assign(n_, -1);
  for (int j = 0; j < n_; ++j) {
    if (pivot_sign[j] < 0) continue;
    key[j] = root[j];
    for (int p = outer[j]; p < outer[j + 1]; ++p)
      if (pivot_sign[inner[p]] < 0) key[inner[p]] = std::max(key[inner[p]], root[j]);
  }
  // counting sort by (key, primal before multiplier, index)
  std::vector<int>& count = root;
  count.assign(2 * n_ + 3, 0);
  const auto bucket = [&](int i) { return 2 * (key[i] + 1) + (pivot_sign[i] < 0); };
  for (int i = 0; i < n_; ++i) ++count[bucket(i) + 1];
  for (std::size_t b = 1; b < count.size(); ++b) count[b] += count[b - 1];
  order_.resize(n_);
  for (int i = 0; i < n_; ++i) order_[count[bucket(i)]++] = i;
  perm_.swap(order_);
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
  if (envelope_kernel_)  // panel_k_ back to zeros: factorize() wrote only the matrix's entries
    for (const Scatter& entry : panel_entries_) panel_k_[entry.place] = 0.0;
  n_ = static_cast<int>(lower.rows());
  chain_ordering(lower, pivot_sign);
  envelope(lower, pivot_sign);
  chain_ordered_ = envelope_size_ <= kChainFill * lower.nonZeros();
  envelope_kernel_ = chain_ordered_ && envelope_size_ >= kEnvelopeRow * n_;
  if (!chain_ordered_) amd_ordering(lower, pivot_sign);
  if (envelope_kernel_)
    panels(lower);
  else
    symbolic(lower, pivot_sign);
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
  envelope_size_ = 0;
  for (int k = 0; k < n_; ++k) envelope_size_ += k - first_[k];
}

void LdlFactorization::panels(const SparseMatrix& lower) {
  // runs: stretches of up to kRunRows rows with the same first column (their envelopes are one
  // dense block, no padding), each a panel of 4 or 8 lanes; a row alone without entries left of
  // its diagonal needs no run
  runs_.clear();
  diagonal_rows_.clear();
  row_place_.resize(n_);
  int size = 0, widest = 0;
  for (int k0 = 0; k0 < n_;) {
    int k1 = k0 + 1;
    while (k1 < n_ && k1 - k0 < kRunRows && first_[k1] == first_[k0]) ++k1;
    const Run run{k0, k1 - k0, first_[k0], k1 - k0 <= 4 ? 4 : 8, size};
    for (int k = k0; k < k1; ++k)
      row_place_[k] = {run.first, size + (k - k0) - run.first * run.lanes, run.lanes};
    if (k1 == k0 + 1 && run.first == k0) {
      diagonal_rows_.push_back(k0);
    } else {
      runs_.push_back(run);
      size += run.lanes * (k1 - 1 - run.first);
      widest = std::max(widest, k1 - 1 - run.first);
    }
    k0 = k1;
  }
  panel_k_.resize(size, 0.0);  // all zeros (see analyse())
  // L: factorize() writes every lane of every column (0 in the unused lanes and the triangle's
  // upper part)
  panel_l_.resize(size);
  panel_w_.assign(kRunRows * widest, 0.0);
  // where each entry of `lower` goes: its panel (off the diagonal) or its row (the diagonal)
  std::vector<int> inverse(n_);
  for (int k = 0; k < n_; ++k) inverse[perm_[k]] = k;
  const int* outer = lower.outerIndexPtr();
  const int* inner = lower.innerIndexPtr();
  panel_entries_.resize(lower.nonZeros());
  diagonal_entries_.resize(n_);
  int off_diagonal = 0, on_diagonal = 0;
  for (int j = 0; j < n_; ++j)
    for (int p = outer[j]; p < outer[j + 1]; ++p) {
      const int a = std::max(inverse[inner[p]], inverse[j]);
      const int b = std::min(inverse[inner[p]], inverse[j]);
      if (a == b)
        diagonal_entries_[on_diagonal++] = {p, a};
      else
        panel_entries_[off_diagonal++] = {p, row_place_[a].offset + b * row_place_[a].lanes};
    }
  panel_entries_.resize(off_diagonal);
  diagonal_entries_.resize(on_diagonal);
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
  // the matrix's entries into their panels (the other entries of panel_k_ stay 0), the diagonal
  // into work_
  const double* values = lower.valuePtr();
  double* panel_k = panel_k_.data();
  for (const Scatter& entry : panel_entries_) panel_k[entry.place] = values[entry.source];
  double* diagonal = work_.data();
  for (const Scatter& entry : diagonal_entries_) diagonal[entry.place] = values[entry.source];
  int replaced = 0;
  for (const int k : diagonal_rows_) {  // d_k = a_kk (first: later runs divide by it)
    if (!std::isfinite(work_[k])) return -1;
    replaced +=
        set_pivot(k, work_[k], std::abs(work_[k]), scale, relative_threshold, relative_shift);
  }
  for (const Run& run : runs_) {
    const bool finite =
        run.lanes == 4 ? factorize_run<4>(run, scale, relative_threshold, relative_shift, replaced)
                       : factorize_run<8>(run, scale, relative_threshold, relative_shift, replaced);
    if (!finite) return -1;
  }
  return replaced;
}

template <int Lanes>
bool LdlFactorization::factorize_run(const Run& run, double scale, double relative_threshold,
                                     double relative_shift, int& replaced) {
  // left-looking on the panel's columns: entry (k, j) of L D is a_kj - sum_i (L D)_ki l_ji over
  // the columns i of row j's envelope, for all the run's rows k at once (a vector multiply-add per
  // i with l_ji broadcast); the rows are kept as L D in panel_w_ and as L in panel_l_. The pivot
  // d_k = a_kk - sum_j l_kj (L D)_kj and the magnitude of its terms add up lane by lane.
  using Column = PanelColumn<Lanes>;
  using Map = Eigen::Map<Column>;
  const int k0 = run.begin, rows = run.rows, f = run.first;
  const double* a = panel_k_.data() + run.base - f * Lanes;  // column j at a + j * Lanes
  double* l = panel_l_.data() + run.base - f * Lanes;
  double* w = panel_w_.data() - f * Lanes;
  Column sum = Column::Zero(), magnitude = Column::Zero();
  // column j of L D: a_kj - sum_i (L D)_ki l_ji for i in lo .. j - 1 (l_ji at lj[i * stride]), in
  // two partial sums (half the loop overhead, two independent chains of multiply-adds)
  const auto column = [&](int j, int lo, const double* lj, auto stride) {
    Column wj = PanelMap<Lanes>(a + j * Lanes), odd = Column::Zero();
    int i = lo;
    for (; i + 1 < j; i += 2) {
      wj -= Map(w + i * Lanes) * lj[i * stride];
      odd -= Map(w + (i + 1) * Lanes) * lj[(i + 1) * stride];
    }
    if (i < j) wj -= Map(w + i * Lanes) * lj[i * stride];
    return Column(wj + odd);
  };
  // the members' data in locals: the stores into the panels would make the compiler reload them
  const RowPlace* row_place = row_place_.data();
  const double* panel_l = panel_l_.data();
  const double* d_inverse = d_inverse_.data();
  for (int j = f; j < k0; ++j) {  // the columns left of the run (rows of earlier runs)
    const RowPlace row = row_place[j];
    const double* row_j = panel_l + row.offset;
    const int lo = std::max(f, row.first);
    const Column wj = row.lanes == 4 ? column(j, lo, row_j, std::integral_constant<int, 4>())
                                     : column(j, lo, row_j, std::integral_constant<int, 8>());
    const Column lj = wj * d_inverse[j];
    Map(w + j * Lanes) = wj;  // the unused lanes stay 0
    Map(l + j * Lanes) = lj;
    sum += lj * wj;
    magnitude += (lj * wj).abs();
  }
  for (int q = 0; q < rows; ++q) {  // the run's triangle: pivot k, then column k below it
    const int k = k0 + q;
    const double dk = work_[k] - sum[q];
    if (!std::isfinite(dk)) return false;
    replaced += set_pivot(k, dk, std::abs(work_[k]) + magnitude[q], scale, relative_threshold,
                          relative_shift);
    if (q + 1 == rows) break;
    // column k in all lanes at once, the lanes of the rows above and at k (lanes <= q: the
    // triangle's upper part, not entries of L) set to 0 in L D and L
    const Column wk =
        column(k, f, l + q, std::integral_constant<int, Lanes>()) * PanelMap<Lanes>(kBelow[q]);
    const Column lk = wk * d_inverse[k];
    Map(w + k * Lanes) = wk;
    Map(l + k * Lanes) = lk;
    sum += lk * wk;
    magnitude += (lk * wk).abs();
  }
  return true;
}

template <int Lanes>
void LdlFactorization::forward_run(const Run& run) {
  // L w = b on the run's rows: the columns left of the run as vector multiply-adds (in two
  // partial sums: two independent chains), then its triangle (its upper part and unused lanes
  // are 0)
  const int k0 = run.begin, rows = run.rows;
  const double* l = panel_l_.data() + run.base - run.first * Lanes;
  PanelColumn<Lanes> b = PanelColumn<Lanes>::Zero(), odd = PanelColumn<Lanes>::Zero();
  for (int q = 0; q < rows; ++q) b[q] = work_[k0 + q];
  int j = run.first;
  for (; j + 1 < k0; j += 2) {
    b -= PanelMap<Lanes>(l + j * Lanes) * work_[j];
    odd -= PanelMap<Lanes>(l + (j + 1) * Lanes) * work_[j + 1];
  }
  if (j < k0) b -= PanelMap<Lanes>(l + j * Lanes) * work_[j];
  b += odd;
  for (int q = 0; q + 1 < rows; ++q) b -= PanelMap<Lanes>(l + (k0 + q) * Lanes) * b[q];
  for (int q = 0; q < rows; ++q) work_[k0 + q] = b[q];
}

template <int Lanes>
void LdlFactorization::backward_run(const Run& run) {
  // L^T x = y: the run's triangle from its last row up, column-oriented (x_q is final once the
  // rows below it are done; it then updates the rows above it, l_qp in lane q of column k0 + p:
  // one multiply-add between two x's instead of a horizontal sum), then each column left of the
  // run less its dot product with the run's x (unused lanes 0)
  const int k0 = run.begin, rows = run.rows;
  const double* l = panel_l_.data() + run.base - run.first * Lanes;
  PanelColumn<Lanes> x = PanelColumn<Lanes>::Zero();
  for (int q = rows - 1; q >= 0; --q) {
    x[q] = work_[k0 + q];
    for (int p = 0; p < q; ++p) work_[k0 + p] -= l[(k0 + p) * Lanes + q] * x[q];
  }
  int j = run.first;
#if defined(__AVX2__) && defined(__FMA__)
  for (; j + 4 <= k0; j += 4) subtract_dots4<Lanes>(l + j * Lanes, x, work_.data() + j);
#endif
  for (; j < k0; ++j) work_[j] -= (PanelMap<Lanes>(l + j * Lanes) * x).sum();
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
    // L w = b run by run, then D L^T x = w from the last run back
    for (const Run& run : runs_)
      if (run.lanes == 4)
        forward_run<4>(run);
      else
        forward_run<8>(run);
    for (int k = 0; k < n_; ++k) work_[k] *= d_inverse_[k];
    for (auto run = runs_.rbegin(); run != runs_.rend(); ++run)
      if (run->lanes == 4)
        backward_run<4>(*run);
      else
        backward_run<8>(*run);
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
