#include "tendril/vine/broad_phase.hpp"

#include <algorithm>
#include <cmath>

#include "tendril/vine/body_contact.hpp"

namespace tendril::vine {

ObstacleGrid::ObstacleGrid(const std::vector<Obstacle>& obstacles) {
  const int no = static_cast<int>(obstacles.size());
  lo_.resize(no);
  hi_.resize(no);
  stamp_.assign(no, 0);
  std::vector<int> bounded;
  Vec2 all_lo = Vec2::Constant(1e300), all_hi = Vec2::Constant(-1e300);
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
  // about one cell per obstacle over the bounding box of all of them
  const Vec2 extent = (all_hi - all_lo).cwiseMax(1e-9);
  cell_ = std::sqrt(extent.x() * extent.y() / static_cast<double>(bounded.size()));
  cell_ = std::max({cell_, extent.maxCoeff() / 1024.0, 1e-9});
  origin_ = all_lo;
  nx_ = std::max(1, static_cast<int>(std::ceil(extent.x() / cell_)));
  ny_ = std::max(1, static_cast<int>(std::ceil(extent.y() / cell_)));
  cell_start_.assign(static_cast<std::size_t>(nx_) * ny_ + 1, 0);
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<int> fill(cell_start_.begin(), cell_start_.end() - 1);
    for (int o : bounded) {
      int x0, x1, y0, y1;
      cell_range(lo_[o], hi_[o], x0, x1, y0, y1);
      for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) {
          const int c = y * nx_ + x;
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

void ObstacleGrid::cell_range(const Vec2& lo, const Vec2& hi, int& x0, int& x1, int& y0,
                              int& y1) const {
  const auto index = [&](double value, double origin, int cells) {
    return std::clamp(static_cast<int>(std::floor((value - origin) / cell_)), 0, cells - 1);
  };
  x0 = index(lo.x(), origin_.x(), nx_);
  x1 = index(hi.x(), origin_.x(), nx_);
  y0 = index(lo.y(), origin_.y(), ny_);
  y1 = index(hi.y(), origin_.y(), ny_);
}

void ObstacleGrid::query(const Vec2& lo, const Vec2& hi, std::vector<int>& out) const {
  out.insert(out.end(), unbounded_.begin(), unbounded_.end());
  if (nx_ == 0) return;
  if (hi.x() < origin_.x() || hi.y() < origin_.y() || lo.x() > origin_.x() + nx_ * cell_ ||
      lo.y() > origin_.y() + ny_ * cell_)
    return;
  if (++query_count_ == 0) {  // wrapped: forget old stamps
    std::fill(stamp_.begin(), stamp_.end(), 0u);
    query_count_ = 1;
  }
  int x0, x1, y0, y1;
  cell_range(lo, hi, x0, x1, y0, y1);
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x) {
      const int c = y * nx_ + x;
      for (int k = cell_start_[c]; k < cell_start_[c + 1]; ++k) {
        const int o = cell_items_[k];
        if (stamp_[o] == query_count_) continue;
        stamp_[o] = query_count_;
        if ((lo_[o].array() <= hi.array()).all() && (hi_[o].array() >= lo.array()).all())
          out.push_back(o);
      }
    }
}

}  // namespace tendril::vine
