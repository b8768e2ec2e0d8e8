#include "tendril/vine3d/obstacle_grid.hpp"

#include <algorithm>
#include <cmath>

namespace tendril::vine3d {

ObstacleGrid3::ObstacleGrid3(const std::vector<Obstacle3>& obstacles)
    : grid_(
          static_cast<int>(obstacles.size()),
          [&](int o, Vec3& lo, Vec3& hi) { return obstacle_bounds(obstacles[o], lo, hi); },
          // about one cell per obstacle: from the volume of the boxes' hull, grown until the cells
          // number at most 4 per obstacle (a flat or thin layout has a small volume)
          [](const Vec3& extent, double count) {
            double cell = std::max(std::cbrt(extent.prod() / count), extent.maxCoeff() * 1e-6);
            const auto cells_for = [&](double c) {
              return (extent / c).array().ceil().max(1.0).matrix().eval();
            };
            while (cells_for(cell).prod() > 4.0 * count + 64.0) cell *= 1.25;
            return cell;
          }) {}

void ObstacleGrid3::query(const Vec3& lo, const Vec3& hi, std::vector<int>& out) const {
  const std::size_t start = out.size();
  grid_.query(lo, hi, out);
  std::sort(out.begin() + static_cast<std::ptrdiff_t>(start), out.end());
}

}  // namespace tendril::vine3d
