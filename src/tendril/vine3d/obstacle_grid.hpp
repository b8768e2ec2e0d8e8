#pragma once
/// Broad phase of the 3D vine's contact (docs/physics/vine3d.md#which-pairs-get-rows): the fixed
/// obstacles' axis-aligned boxes binned once into a uniform grid of about one cell per obstacle
/// (as the planar vine/broad_phase.hpp, in 3D), so a query with a box returns the obstacles whose
/// boxes overlap it at a cost set by the obstacles nearby, not by their total number. Half-spaces
/// (unbounded) are returned by every query.

#include <vector>

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
  /// The cell index range per axis covering [lo, hi], clamped to the grid.
  void cell_range(const Vec3& lo, const Vec3& hi, Eigen::Vector3i& first,
                  Eigen::Vector3i& last) const;
  int cell_index(int x, int y, int z) const { return (z * cells_.y() + y) * cells_.x() + x; }

  std::vector<Vec3> lo_, hi_;                        // obstacle boxes (#obstacles)
  std::vector<int> unbounded_;                       // half-spaces
  Vec3 origin_ = Vec3::Zero();                       // lower corner of the grid [m]
  double cell_ = 1.0;                                // cell size [m]
  Eigen::Vector3i cells_ = Eigen::Vector3i::Zero();  // cells per axis
  std::vector<int> cell_start_;                      // CSR offsets into cell_items_
  std::vector<int> cell_items_;                      // obstacle indices per cell
  // per obstacle: the query that last returned it (queries are not thread-safe)
  mutable std::vector<unsigned> stamp_;
  mutable unsigned query_count_ = 0;
};

}  // namespace tendril::vine3d
