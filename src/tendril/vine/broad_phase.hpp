#pragma once
/// Broad phase of the vine's contact (docs/physics/vine.md#broad-phase): the fixed obstacles'
/// bounding boxes binned once into a uniform grid of about one cell per obstacle, so a query with
/// a box returns the obstacles whose boxes overlap it at a cost set by the obstacles nearby, not by
/// their total number. Half-planes (unbounded) are returned by every query.

#include <vector>

#include "tendril/core/types.hpp"
#include "tendril/vine/obstacles.hpp"

namespace tendril::vine {

class ObstacleGrid {
 public:
  ObstacleGrid() = default;
  explicit ObstacleGrid(const std::vector<Obstacle>& obstacles);

  /// Appends to `out` the index of every obstacle whose box overlaps [lo, hi] [m] (and every
  /// half-plane), each once; the order is ascending only within a cell.
  void query(const Vec2& lo, const Vec2& hi, std::vector<int>& out) const;

 private:
  /// Cells [x0, x1] x [y0, y1] covering the box [lo, hi], clamped to the grid.
  void cell_range(const Vec2& lo, const Vec2& hi, int& x0, int& x1, int& y0, int& y1) const;

  std::vector<Vec2> lo_, hi_;    // obstacle boxes (#obstacles)
  std::vector<int> unbounded_;   // half-planes
  Vec2 origin_ = Vec2::Zero();   // lower corner of the grid [m]
  double cell_ = 1.0;            // cell size [m]
  int nx_ = 0, ny_ = 0;          // cells per axis
  std::vector<int> cell_start_;  // CSR offsets into cell_items_ (nx ny + 1)
  std::vector<int> cell_items_;  // obstacle indices per cell
  mutable std::vector<unsigned>
      stamp_;  // per obstacle: query number that last returned it (queries are not thread-safe)
  mutable unsigned query_count_ = 0;
};

}  // namespace tendril::vine
