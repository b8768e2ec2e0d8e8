#pragma once
/// A sparse matrix's entries given one by one in a fixed order: the first pass records the pattern
/// (repeated positions share one entry), later passes add values into that pattern's slots. The
/// transcribed joint estimation (fit/transcribed_problem.hpp) forms its Jacobian and Hessian so, by
/// one function per matrix for both passes. Internal to src/tendril/fit.

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace tendril::fit::detail {

class SparsePattern {
 public:
  void record(int row, int col) {
    const auto [it, inserted] =
        index_.try_emplace((static_cast<std::int64_t>(row) << 32) | static_cast<std::uint32_t>(col),
                           static_cast<int>(rows_.size()));
    if (inserted) {
      rows_.push_back(row);
      cols_.push_back(col);
    }
    slot_.push_back(it->second);
  }
  const std::vector<int>& rows() const { return rows_; }
  const std::vector<int>& cols() const { return cols_; }
  int slot(std::size_t emitted) const { return slot_[emitted]; }

 private:
  std::unordered_map<std::int64_t, int> index_;
  std::vector<int> rows_, cols_, slot_;
};

/// Adds the entries of one pass into `values` (nullptr: records them into `pattern`).
class Emitter {
 public:
  Emitter(SparsePattern& pattern, double* values) : pattern_(pattern), values_(values) {}
  void add(int row, int col, double value) {
    if (values_)
      values_[pattern_.slot(next_++)] += value;
    else
      pattern_.record(row, col);
  }
  /// An entry of a symmetric matrix, stored in the lower triangle.
  void add_lower(int a, int b, double value) { add(std::max(a, b), std::min(a, b), value); }

 private:
  SparsePattern& pattern_;
  double* values_;
  std::size_t next_ = 0;
};

}  // namespace tendril::fit::detail
