#pragma once
/// Broad phase of the vine's contact (docs/physics/vine.md#broad-phase): the fixed obstacles'
/// bounding boxes binned once into a uniform grid (core/box_grid.hpp) of about one cell per
/// obstacle, so a query with a box returns the obstacles whose boxes overlap it at a cost set by
/// the obstacles nearby, not by their total number. Half-planes (unbounded) are returned by every
/// query.

#include <vector>

#include "tendril/core/box_grid.hpp"
#include "tendril/core/types.hpp"
#include "tendril/vine/obstacles.hpp"

namespace tendril::vine {

class ObstacleGrid {
 public:
  ObstacleGrid() = default;
  explicit ObstacleGrid(const std::vector<Obstacle>& obstacles);

  /// Appends to `out` the index of every obstacle whose box overlaps [lo, hi] [m] (and every
  /// half-plane), each once; the order is ascending only within a cell.
  void query(const Vec2& lo, const Vec2& hi, std::vector<int>& out) const {
    grid_.query(lo, hi, out);
  }

 private:
  BoxGrid<2> grid_;
};

}  // namespace tendril::vine
