#pragma once
/// Broad phase for self-contact: the pairs of edges, of points and triangles, or of edges and
/// triangles (the start's intersections) whose bounding boxes, each inflated by its own margin,
/// overlap. A uniform grid (cell size = the largest inflated box side) is sorted by cell; each pair
/// is tested in the cells both boxes cover and reported once, from the cell holding the lower
/// corner of the boxes' intersection. Cost ~ (#edges log #edges + #pairs sharing a cell), not
/// #edges^2 (bench/contact/bench_broad_phase.cpp). docs/physics/contact.md, "Broad phase".

#include <array>
#include <cstdint>
#include <vector>

#include "tendril/core/types.hpp"

namespace tendril::contact {

/// Two primitives that may be in contact: two edges (a < b), or a point a and a triangle b.
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
  void find_pairs(const Eigen::Ref<const VecX>& positions,
                  const std::vector<std::array<int, 2>>& edges, const std::vector<double>& margin,
                  std::vector<EdgePair>& pairs);
  /// Appends to `pairs` (cleared first) every (point a, triangle b) whose boxes overlap, skipping a
  /// point that is a vertex of the triangle: box of a point = the point grown by point_margin[a],
  /// of a triangle = the bounding box of its nodes grown by triangle_margin[b] [m]. points: node
  /// index of each point (#points); triangles (#triangles). Pairs are sorted.
  void find_point_triangle_pairs(const Eigen::Ref<const VecX>& positions,
                                 const std::vector<int>& points,
                                 const std::vector<double>& point_margin,
                                 const std::vector<std::array<int, 3>>& triangles,
                                 const std::vector<double>& triangle_margin,
                                 std::vector<EdgePair>& pairs);
  /// Appends to `pairs` (cleared first) every (edge a, triangle b) whose bounding boxes overlap
  /// (not grown), skipping an edge that shares a node with the triangle. Pairs are sorted.
  void find_edge_triangle_pairs(const Eigen::Ref<const VecX>& positions,
                                const std::vector<std::array<int, 2>>& edges,
                                const std::vector<std::array<int, 3>>& triangles,
                                std::vector<EdgePair>& pairs);

 private:
  struct Entry {
    std::uint64_t cell;
    int box;
    friend bool operator<(const Entry& x, const Entry& y) {
      return x.cell < y.cell || (x.cell == y.cell && x.box < y.box);
    }
  };
  /// The overlapping pairs (a < b) among the first num_boxes boxes of lower_, upper_ for which
  /// skip(a, b) is false (sorted).
  template <class Skip>
  void overlapping_boxes(std::size_t num_boxes, std::vector<EdgePair>& pairs, Skip skip);
  /// Boxes first.. of the triangles' nodes, grown by margin[f] [m] (none if margin is empty).
  void set_triangle_boxes(const Eigen::Ref<const VecX>& positions,
                          const std::vector<std::array<int, 3>>& triangles,
                          const std::vector<double>& margin, std::size_t first);
  /// The overlapping pairs (a box before `split`, a triangle: EdgePair{a, triangle index}) of the
  /// boxes set so far, skipping those for which shares(a, triangle's nodes) is true (sorted).
  template <class Shares>
  void pairs_with_triangles(std::size_t split, const std::vector<std::array<int, 3>>& triangles,
                            std::vector<EdgePair>& pairs, Shares shares);

  std::vector<Vec3> lower_, upper_;  ///< inflated boxes (#edges, or #points + #triangles)
  std::vector<Entry> entries_;       ///< (cell, edge) for every cell a box covers
};

}  // namespace tendril::contact
