#pragma once
/// Disjoint sets (union-find with path halving) over 0 .. n-1: connected parts of a pattern, nodes
/// merged by joints.

#include <numeric>
#include <vector>

namespace tendril {

class DisjointSets {
 public:
  explicit DisjointSets(int size) : parent_(static_cast<std::size_t>(size)) {
    std::iota(parent_.begin(), parent_.end(), 0);
  }
  /// The representative of i's set.
  int find(int i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }
  /// Joins a's set into b's: b's representative stays the representative.
  void merge_into(int a, int b) { parent_[find(a)] = find(b); }

 private:
  std::vector<int> parent_;
};

}  // namespace tendril
