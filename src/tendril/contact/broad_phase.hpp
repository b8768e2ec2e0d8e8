#pragma once
/// Broad phase for self-contact: the pairs of edges whose bounding boxes, each inflated by its own
/// margin, overlap. A uniform grid (cell size = the largest inflated box side) is sorted by cell;
/// each pair is tested in the cells both boxes cover and reported once, from the cell holding the
/// lower corner of the boxes' intersection. Cost ~ (#edges log #edges + #pairs sharing a cell),
/// not #edges^2 (bench/contact/bench_broad_phase.cpp). docs/physics/contact.md, "Broad phase".

#include <array>
#include <cstdint>
#include <vector>

#include "tendril/core/types.hpp"

namespace tendril::contact {

/// Two edges (a < b) that may be in contact.
struct EdgePair {
  int a = -1;
  int b = -1;
  friend bool operator==(const EdgePair&, const EdgePair&) = default;
  friend auto operator<=>(const EdgePair&, const EdgePair&) = default;
};

class BroadPhase {
 public:
  /// Appends to `pairs` (cleared first) every pair of edges without a shared node whose boxes
  /// overlap: box of edge e = bounding box of its two nodes grown by margin[e] [m] on every side.
  /// positions: node positions [m] (3N); edges (#edges); margin (#edges). Pairs are sorted.
  /// Reuses its buffers: no allocation once they have grown.
  void find_pairs(const Eigen::Ref<const VecX>& positions, const std::vector<std::array<int, 2>>& edges,
                  const std::vector<double>& margin, std::vector<EdgePair>& pairs);

 private:
  struct Entry {
    std::uint64_t cell;
    int edge;
    friend bool operator<(const Entry& x, const Entry& y) { return x.cell < y.cell || (x.cell == y.cell && x.edge < y.edge); }
  };
  std::vector<Vec3> lower_, upper_;  ///< inflated boxes (#edges)
  std::vector<Entry> entries_;       ///< (cell, edge) for every cell a box covers
};

}  // namespace tendril::contact
