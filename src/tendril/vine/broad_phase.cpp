#include "tendril/vine/broad_phase.hpp"

#include <algorithm>
#include <cmath>

#include "tendril/vine/body_contact.hpp"

namespace tendril::vine {

ObstacleGrid::ObstacleGrid(const std::vector<Obstacle>& obstacles)
    : grid_(
          static_cast<int>(obstacles.size()),
          [&](int o, Vec2& lo, Vec2& hi) { return obstacle_bounds(obstacles[o], lo, hi); },
          // about one cell per obstacle over the bounding box of all of them
          [](const Vec2& extent, double count) {
            return std::max(
                {std::sqrt(extent.x() * extent.y() / count), extent.maxCoeff() / 1024.0, 1e-9});
          }) {}

}  // namespace tendril::vine
