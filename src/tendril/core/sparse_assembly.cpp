#include "tendril/core/sparse_assembly.hpp"

#include <algorithm>

#include "tendril/core/error.hpp"

namespace tendril {

SparsityBuilder::SparsityBuilder(int num_dofs) : num_dofs_(num_dofs), rows_of_column_(num_dofs) {}

void SparsityBuilder::add_stencil(std::span<const int> dofs) {
  for (int c : dofs) {
    if (c < 0) continue;
    TENDRIL_ASSERT(c < num_dofs_, "stencil DOF out of range");
    for (int r : dofs)
      if (r >= 0) rows_of_column_[c].push_back(r);
  }
}

void SparsityBuilder::add_diagonal() {
  for (int i = 0; i < num_dofs_; ++i) rows_of_column_[i].push_back(i);
}

SparseMatrix SparsityBuilder::build() const {
  SparseMatrix m(num_dofs_, num_dofs_);
  std::vector<int> counts(num_dofs_);
  std::vector<std::vector<int>> unique_rows(num_dofs_);
  for (int c = 0; c < num_dofs_; ++c) {
    auto rows = rows_of_column_[c];
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    counts[c] = static_cast<int>(rows.size());
    unique_rows[c] = std::move(rows);
  }
  m.reserve(counts);
  for (int c = 0; c < num_dofs_; ++c)
    for (int r : unique_rows[c]) m.insert(r, c) = 0.0;
  m.makeCompressed();
  return m;
}

HessianAssembler::HessianAssembler(SparseMatrix pattern) : matrix_(std::move(pattern)) {
  TENDRIL_ASSERT(matrix_.isCompressed(), "assembly pattern must be compressed");
}

void HessianAssembler::set_zero() {
  double* values = matrix_.valuePtr();
  if (!lower_only_) return std::fill(values, values + matrix_.nonZeros(), 0.0);
  const int* end = matrix_.outerIndexPtr() + 1;
  for (std::size_t c = 0; c < lower_begin_.size(); ++c)
    std::fill(values + lower_begin_[c], values + end[c], 0.0);
}

void HessianAssembler::set_lower_only(bool lower_only) {
  lower_only_ = lower_only;
  source_.clear();
  lower_begin_.clear();
  mirror_.clear();
  own_.clear();
  if (!lower_only) return;
  const int* starts = matrix_.outerIndexPtr();
  const int* rows = matrix_.innerIndexPtr();
  source_.resize(static_cast<std::size_t>(matrix_.nonZeros()));
  for (int c = 0; c < matrix_.outerSize(); ++c) {
    lower_begin_.push_back(
        static_cast<int>(std::lower_bound(rows + starts[c], rows + starts[c + 1], c) - rows));
    for (int p = starts[c]; p < starts[c + 1]; ++p) {
      source_[p] = rows[p] < c ? slot(c, rows[p]) : p;
      if (rows[p] < c) mirror_.insert(mirror_.end(), {p, source_[p]});
    }
  }
}

void HessianAssembler::set_own_upper(const SparseMatrix& pattern) {
  TENDRIL_ASSERT(lower_only_, "own upper entries need set_lower_only(true)");
  own_.clear();
  for (int c = 0; c < pattern.outerSize(); ++c)
    for (SparseMatrix::InnerIterator it(pattern, c); it; ++it)
      if (const int r = static_cast<int>(it.row()); r < c) {
        const int k = slot(r, c);
        if (source_[k] != k) own_.insert(own_.end(), {k, source_[k]});
        source_[k] = k;
      }
  std::vector<int> mirror;
  for (std::size_t k = 0; k < mirror_.size(); k += 2)
    if (source_[mirror_[k]] != mirror_[k])
      mirror.insert(mirror.end(), {mirror_[k], mirror_[k + 1]});
  mirror_ = std::move(mirror);
}

void HessianAssembler::copy_lower_to_own() {
  double* values = matrix_.valuePtr();
  for (std::size_t k = 0; k < own_.size(); k += 2) values[own_[k]] = values[own_[k + 1]];
}

int value_index(const SparseMatrix& matrix, int row, int col) {
  if (row < 0 || row >= matrix.rows() || col < 0 || col >= matrix.cols()) return -1;
  const int* inner = matrix.innerIndexPtr();
  const int* begin = inner + matrix.outerIndexPtr()[col];
  const int* end = inner + matrix.outerIndexPtr()[col + 1];
  const int* it = std::lower_bound(begin, end, row);
  return it != end && *it == row ? static_cast<int>(it - inner) : -1;
}

int HessianAssembler::slot(int row, int col) const {
  const int k = value_index(matrix_, row, col);
  if (k < 0) throw SparsityError(row, col);
  return k;
}

void HessianAssembler::add(std::span<const int> dofs, const Eigen::Ref<const MatX>& local,
                           double scale) {
  const int n = static_cast<int>(dofs.size());
  TENDRIL_ASSERT(local.rows() == n && local.cols() == n,
                 "local matrix size does not match stencil");
  double* values = matrix_.valuePtr();
  for (int j = 0; j < n; ++j) {
    if (dofs[j] < 0) continue;
    for (int i = 0; i < n; ++i) {
      if (dofs[i] < 0) continue;
      values[slot(dofs[i], dofs[j])] += scale * local(i, j);
    }
  }
}

void HessianAssembler::add_cached(const void* owner, std::size_t index, std::span<const int> dofs,
                                  const Eigen::Ref<const MatX>& local, double scale) {
  add_cached(owner, index, dofs, dofs, local, scale);
}

const int* HessianAssembler::block_slots(const void* owner, std::size_t index,
                                         std::span<const int> rows, std::span<const int> cols) {
  const std::size_t m = rows.size(), n = cols.size();
  SlotCache& cache = cache_of(owner, m, n);
  const std::size_t stride = m + n + m * n;
  if (cache.entries.size() < (index + 1) * stride) cache.entries.resize((index + 1) * stride, -2);
  int* stored_rows = cache.entries.data() + index * stride;
  int* stored_cols = stored_rows + m;
  int* slots = stored_cols + n;
  const bool square = rows.data() == cols.data() && m == n;  // the same DOFs: checked once
  if (!std::equal(rows.begin(), rows.end(), stored_rows) ||
      (!square && !std::equal(cols.begin(), cols.end(), stored_cols))) {
    std::copy(rows.begin(), rows.end(), stored_rows);
    std::copy(cols.begin(), cols.end(), stored_cols);
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t i = 0; i < m; ++i)
        slots[j * m + i] = rows[i] < 0 || cols[j] < 0 ? -1 : slot(rows[i], cols[j]);
  }
  return slots;
}

namespace {

bool all_present(std::span<const int> dofs) {
  return std::all_of(dofs.begin(), dofs.end(), [](int d) { return d >= 0; });
}

/// values[slots[k]] += local[stride k], k < count, skipping the slots -1 unless `present` (every
/// DOF present: one pass without tests)
void add_slots(double* values, const int* slots, std::size_t count, const double* local,
               std::size_t stride, bool present) {
  if (present) {
#pragma GCC unroll 4
    for (std::size_t k = 0; k < count; ++k) values[slots[k]] += local[k * stride];
    return;
  }
  for (std::size_t k = 0; k < count; ++k)
    if (slots[k] >= 0) values[slots[k]] += local[k * stride];
}

}  // namespace

void HessianAssembler::add_cached(const void* owner, std::size_t index, std::span<const int> rows,
                                  std::span<const int> cols, const Eigen::Ref<const MatX>& local,
                                  double scale) {
  const std::size_t m = rows.size(), n = cols.size();
  TENDRIL_ASSERT(
      static_cast<std::size_t>(local.rows()) == m && static_cast<std::size_t>(local.cols()) == n,
      "local matrix size does not match stencil");
  const int* slots = block_slots(owner, index, rows, cols);
  double* values = matrix_.valuePtr();
  const double* l = local.data();
  const Eigen::Index outer = local.outerStride();
  // the common case, a contiguous block and no scale
  if (scale == 1.0 && outer == static_cast<Eigen::Index>(m))
    return add_slots(
        values, slots, m * n, l, 1,
        all_present(rows) && ((rows.data() == cols.data() && m == n) || all_present(cols)));
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t i = 0; i < m; ++i) {
      const int k = slots[j * m + i];
      if (k >= 0)
        values[k] += scale * l[static_cast<Eigen::Index>(j) * outer + static_cast<Eigen::Index>(i)];
    }
}

HessianAssembler::SlotCache& HessianAssembler::cache_of(const void* owner, std::size_t rows,
                                                        std::size_t cols) {
  for (SlotCache& c : slot_caches_)
    if (c.owner == owner && c.rows == rows && c.cols == cols) return c;
  return slot_caches_.emplace_back(SlotCache{owner, rows, cols, {}});
}

const int* HessianAssembler::lower_slots(const void* owner, std::size_t index,
                                         std::span<const int> dofs) {
  const std::size_t m = dofs.size();
  SlotCache& cache = cache_of(owner, m, 0);
  const std::size_t pairs = m * (m + 1) / 2;
  const std::size_t stride = m + 1 + 2 * pairs;
  if (cache.entries.size() < (index + 1) * stride) cache.entries.resize((index + 1) * stride, -2);
  int* stored = cache.entries.data() + index * stride;
  int* count = stored + m;
  int* slots = count + 1;
  int* offsets = slots + pairs;
  if (!std::equal(dofs.begin(), dofs.end(), stored)) {
    std::copy(dofs.begin(), dofs.end(), stored);
    *count = 0;
    for (std::size_t j = 0; j < m && *count >= 0; ++j)
      for (std::size_t i = j; i < m; ++i) {
        const int r = dofs[i], c = dofs[j];
        if (r < 0 || c < 0) continue;
        if (i != j && r == c) {
          *count = -1;
          break;
        }
        slots[*count] = slot(std::max(r, c), std::min(r, c));
        offsets[(*count)++] = static_cast<int>(j * m + i);
      }
  }
  return count;
}

namespace {

/// values[slots[k]] += local(i, j) for the pairs i >= j of an m x m column-major `local` (entry (i,
/// j) at local[S (j M + i)]), column by column (unrolled for a fixed m: the local offsets are
/// constants)
template <std::size_t M, std::size_t S>
void add_lower_triangle(double* values, const int* slots, const double* local) {
#pragma GCC unroll 12
  for (std::size_t j = 0; j < M; ++j)
#pragma GCC unroll 12
    for (std::size_t i = j; i < M; ++i) values[*slots++] += local[S * (j * M + i)];
}

/// add_lower_triangle for the stencil sizes that have one (false for the others)
template <std::size_t S>
bool add_lower_triangle(std::size_t m, double* values, const int* slots, const double* local) {
  switch (m) {
    case 6:
      add_lower_triangle<6, S>(values, slots, local);  // a rod edge's stretching
      return true;
    case 9:
      add_lower_triangle<9, S>(values, slots, local);  // a CST triangle
      return true;
    case 11:
      add_lower_triangle<11, S>(values, slots, local);  // a rod's bend-twist spring
      return true;
    case 12:
      add_lower_triangle<12, S>(values, slots, local);  // a hinge
      return true;
    default:
      return false;
  }
}

}  // namespace

void HessianAssembler::add_cached_symmetric(const void* owner, std::size_t index,
                                            std::span<const int> dofs,
                                            const Eigen::Ref<const MatX>& local) {
  const std::size_t m = dofs.size();
  TENDRIL_ASSERT(
      static_cast<std::size_t>(local.rows()) == m && static_cast<std::size_t>(local.cols()) == m,
      "local matrix size does not match stencil");
  const Eigen::Index outer = local.outerStride();
  if (outer == static_cast<Eigen::Index>(m))
    return add_cached_symmetric(owner, index, dofs, local.data(), 1);
  if (!lower_only_) return add_cached(owner, index, dofs, local);
  const int* count = lower_slots(owner, index, dofs);
  // a repeated DOF gets both (i, j) and (j, i) in one entry: the full block adds them
  if (*count < 0) return add_cached(owner, index, dofs, local);
  const int* slots = count + 1;
  const int* offsets = slots + m * (m + 1) / 2;
  double* values = matrix_.valuePtr();
  for (int k = 0; k < *count; ++k) {
    const auto j = static_cast<Eigen::Index>(offsets[k]) / static_cast<Eigen::Index>(m);
    values[slots[k]] += local.data()[j * outer + offsets[k] % static_cast<Eigen::Index>(m)];
  }
}

void HessianAssembler::add_cached_symmetric(const void* owner, std::size_t index,
                                            std::span<const int> dofs, const double* local,
                                            std::size_t stride) {
  const std::size_t m = dofs.size();
  double* values = matrix_.valuePtr();
  const int* count = lower_only_ ? lower_slots(owner, index, dofs) : nullptr;
  // the full block: both triangles asked, or a repeated DOF (both (i, j) and (j, i) in one entry)
  if (!count || *count < 0)
    return add_slots(values, block_slots(owner, index, dofs, dofs), m * m, local, stride,
                     all_present(dofs));
  const int* slots = count + 1;
  const int* offsets = slots + m * (m + 1) / 2;
  // every DOF present: the slots follow the local lower triangle column by column (offsets not
  // read)
  if (static_cast<std::size_t>(*count) == m * (m + 1) / 2 &&
      (stride == 1   ? add_lower_triangle<1>(m, values, slots, local)
       : stride == 4 ? add_lower_triangle<4>(m, values, slots, local)
                     : false))
    return;
#pragma GCC unroll 4
  for (int k = 0; k < *count; ++k)
    values[slots[k]] += local[stride * static_cast<std::size_t>(offsets[k])];
}

void HessianAssembler::mirror_lower() {
  TENDRIL_ASSERT(lower_only_, "mirror_lower needs set_lower_only(true)");
  double* values = matrix_.valuePtr();
  for (std::size_t k = 0; k < mirror_.size(); k += 2) values[mirror_[k]] = values[mirror_[k + 1]];
}

void HessianAssembler::add_entry(int row, int col, double value) {
  matrix_.valuePtr()[slot(row, col)] += value;
}

}  // namespace tendril
