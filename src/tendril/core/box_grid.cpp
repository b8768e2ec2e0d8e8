#include "tendril/core/box_grid.hpp"

#include <algorithm>
#include <cmath>

namespace tendril {

template <int Dim>
BoxGrid<Dim>::BoxGrid(int count, const Bounds& bounds, const CellSize& cell_size) {
  lo_.resize(count);
  hi_.resize(count);
  stamp_.assign(count, 0);
  std::vector<int> bounded;
  Point all_lo = Point::Constant(1e300), all_hi = Point::Constant(-1e300);
  for (int o = 0; o < count; ++o) {
    if (!bounds(o, lo_[o], hi_[o])) {
      unbounded_.push_back(o);
      continue;
    }
    bounded.push_back(o);
    all_lo = all_lo.cwiseMin(lo_[o]);
    all_hi = all_hi.cwiseMax(hi_[o]);
  }
  if (bounded.empty()) return;
  const Point extent = (all_hi - all_lo).cwiseMax(1e-9);
  cell_ = cell_size(extent, static_cast<double>(bounded.size()));
  cells_ = (extent / cell_).array().ceil().max(1.0).matrix().template cast<int>();
  origin_ = all_lo;
  cell_start_.assign(static_cast<std::size_t>(cells_.prod()) + 1, 0);
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<int> fill(cell_start_.begin(), cell_start_.end() - 1);
    for (int o : bounded) {
      Cells first, last;
      cell_range(lo_[o], hi_[o], first, last);
      for_each_cell(first, last, [&](int c) {
        if (pass == 0)
          ++cell_start_[c + 1];
        else
          cell_items_[fill[c]++] = o;
      });
    }
    if (pass == 0) {
      for (std::size_t c = 1; c < cell_start_.size(); ++c) cell_start_[c] += cell_start_[c - 1];
      cell_items_.resize(cell_start_.back());
    }
  }
}

template <int Dim>
void BoxGrid<Dim>::cell_range(const Point& lo, const Point& hi, Cells& first, Cells& last) const {
  for (int i = 0; i < Dim; ++i) {
    const auto index = [&](double value) {
      return std::clamp(static_cast<int>(std::floor((value - origin_(i)) / cell_)), 0,
                        cells_(i) - 1);
    };
    first(i) = index(lo(i));
    last(i) = index(hi(i));
  }
}

template <int Dim>
template <class F>
void BoxGrid<Dim>::for_each_cell(const Cells& first, const Cells& last, F&& f) const {
  if constexpr (Dim == 2) {
    for (int y = first.y(); y <= last.y(); ++y)
      for (int x = first.x(); x <= last.x(); ++x) f(y * cells_.x() + x);
  } else {
    for (int z = first.z(); z <= last.z(); ++z)
      for (int y = first.y(); y <= last.y(); ++y)
        for (int x = first.x(); x <= last.x(); ++x) f((z * cells_.y() + y) * cells_.x() + x);
  }
}

template <int Dim>
void BoxGrid<Dim>::query(const Point& lo, const Point& hi, std::vector<int>& out) const {
  out.insert(out.end(), unbounded_.begin(), unbounded_.end());
  const Point grid_hi = origin_ + cell_ * cells_.template cast<double>();
  if (cells_.prod() == 0 || !(hi.array() >= origin_.array()).all() ||
      !(lo.array() <= grid_hi.array()).all())
    return;
  if (++query_count_ == 0) {  // wrapped: forget old stamps
    std::fill(stamp_.begin(), stamp_.end(), 0u);
    query_count_ = 1;
  }
  Cells first, last;
  cell_range(lo, hi, first, last);
  for_each_cell(first, last, [&](int c) {
    for (int k = cell_start_[c]; k < cell_start_[c + 1]; ++k) {
      const int o = cell_items_[k];
      if (stamp_[o] == query_count_) continue;
      stamp_[o] = query_count_;
      if ((lo_[o].array() <= hi.array()).all() && (hi_[o].array() >= lo.array()).all())
        out.push_back(o);
    }
  });
}

template class BoxGrid<2>;
template class BoxGrid<3>;

}  // namespace tendril
