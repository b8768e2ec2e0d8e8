#include "tendril/vine3d/obstacle_grid.hpp"

#include <algorithm>
#include <cmath>

namespace tendril::vine3d {

ObstacleGrid3::ObstacleGrid3(const std::vector<Obstacle3>& obstacles) {
  const int no = static_cast<int>(obstacles.size());
  lo_.resize(no);
  hi_.resize(no);
  stamp_.assign(no, 0);
  std::vector<int> bounded;
  Vec3 all_lo = Vec3::Constant(1e300), all_hi = Vec3::Constant(-1e300);
  for (int o = 0; o < no; ++o) {
    if (!obstacle_bounds(obstacles[o], lo_[o], hi_[o])) {
      unbounded_.push_back(o);
      continue;
    }
    bounded.push_back(o);
    all_lo = all_lo.cwiseMin(lo_[o]);
    all_hi = all_hi.cwiseMax(hi_[o]);
  }
  if (bounded.empty()) return;
  // about one cell per obstacle: from the volume of the boxes' hull, grown until the cells number
  // at most 4 per obstacle (a flat or thin layout has a small volume)
  const Vec3 extent = (all_hi - all_lo).cwiseMax(1e-9);
  const double count = static_cast<double>(bounded.size());
  cell_ = std::max(std::cbrt(extent.prod() / count), extent.maxCoeff() * 1e-6);
  const auto cells_for = [&](double cell) {
    return (extent / cell).array().ceil().max(1.0).matrix().eval();
  };
  while (cells_for(cell_).prod() > 4.0 * count + 64.0) cell_ *= 1.25;
  cells_ = cells_for(cell_).cast<int>();
  origin_ = all_lo;
  cell_start_.assign(static_cast<std::size_t>(cells_.prod()) + 1, 0);
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<int> fill(cell_start_.begin(), cell_start_.end() - 1);
    for (int o : bounded) {
      Eigen::Vector3i first, last;
      cell_range(lo_[o], hi_[o], first, last);
      for (int z = first.z(); z <= last.z(); ++z)
        for (int y = first.y(); y <= last.y(); ++y)
          for (int x = first.x(); x <= last.x(); ++x) {
            const int c = cell_index(x, y, z);
            if (pass == 0)
              ++cell_start_[c + 1];
            else
              cell_items_[fill[c]++] = o;
          }
    }
    if (pass == 0) {
      for (std::size_t c = 1; c < cell_start_.size(); ++c) cell_start_[c] += cell_start_[c - 1];
      cell_items_.resize(cell_start_.back());
    }
  }
}

void ObstacleGrid3::cell_range(const Vec3& lo, const Vec3& hi, Eigen::Vector3i& first,
                               Eigen::Vector3i& last) const {
  for (int i = 0; i < 3; ++i) {
    const auto index = [&](double value) {
      return std::clamp(static_cast<int>(std::floor((value - origin_(i)) / cell_)), 0,
                        cells_(i) - 1);
    };
    first(i) = index(lo(i));
    last(i) = index(hi(i));
  }
}

void ObstacleGrid3::query(const Vec3& lo, const Vec3& hi, std::vector<int>& out) const {
  const std::size_t start = out.size();
  out.insert(out.end(), unbounded_.begin(), unbounded_.end());
  const Vec3 grid_hi = origin_ + cell_ * cells_.cast<double>();
  if (cells_.prod() > 0 && (hi.array() >= origin_.array()).all() &&
      (lo.array() <= grid_hi.array()).all()) {
    if (++query_count_ == 0) {  // wrapped: forget old stamps
      std::fill(stamp_.begin(), stamp_.end(), 0u);
      query_count_ = 1;
    }
    Eigen::Vector3i first, last;
    cell_range(lo, hi, first, last);
    for (int z = first.z(); z <= last.z(); ++z)
      for (int y = first.y(); y <= last.y(); ++y)
        for (int x = first.x(); x <= last.x(); ++x) {
          const int c = cell_index(x, y, z);
          for (int k = cell_start_[c]; k < cell_start_[c + 1]; ++k) {
            const int o = cell_items_[k];
            if (stamp_[o] == query_count_) continue;
            stamp_[o] = query_count_;
            if ((lo_[o].array() <= hi.array()).all() && (hi_[o].array() >= lo.array()).all())
              out.push_back(o);
          }
        }
  }
  std::sort(out.begin() + static_cast<std::ptrdiff_t>(start), out.end());
}

}  // namespace tendril::vine3d
