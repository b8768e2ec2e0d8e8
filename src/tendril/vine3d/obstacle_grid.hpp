#pragma once
/// Broad phase of the 3D vine's contact (docs/physics/vine3d.md#which-pairs-get-rows): the fixed
/// obstacles' axis-aligned boxes binned once into a uniform grid (core/box_grid.hpp) of about one
/// cell per obstacle (as the planar vine/broad_phase.hpp, in 3D), so a query with a box returns the
/// obstacles whose boxes overlap it at a cost set by the obstacles nearby, not by their total
/// number. Half-spaces (unbounded) are returned by every query.

#include <vector>

#include "tendril/core/box_grid.hpp"
#include "tendril/core/types.hpp"
#include "tendril/vine3d/obstacles.hpp"

namespace tendril::vine3d {

class ObstacleGrid3 {
 public:
  ObstacleGrid3() = default;
  explicit ObstacleGrid3(const std::vector<Obstacle3>& obstacles);

  /// Appends to `out` the index of every obstacle whose box overlaps [lo, hi] [m] (and every
  /// half-space), each once, in ascending order.
  void query(const Vec3& lo, const Vec3& hi, std::vector<int>& out) const;

 private:
  BoxGrid<3> grid_;
};

}  // namespace tendril::vine3d
