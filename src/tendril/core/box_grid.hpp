#pragma once
/// A uniform grid over axis-aligned boxes in 2D or 3D, built once, so that a query with a box
/// returns the boxes that overlap it at a cost set by the boxes nearby, not by their total number
/// (the broad phase of both vines' contact: vine/broad_phase.hpp, vine3d/obstacle_grid.hpp).
/// Unbounded items (half-planes, half-spaces) are returned by every query.

#include <functional>
#include <vector>

#include <Eigen/Core>

namespace tendril {

template <int Dim>
class BoxGrid {
 public:
  using Point = Eigen::Matrix<double, Dim, 1>;
  using Cells = Eigen::Matrix<int, Dim, 1>;
  /// Item i's box [lo, hi] [m]; false for an unbounded item.
  using Bounds = std::function<bool(int i, Point& lo, Point& hi)>;
  /// The cell size [m] for boxes whose hull has side lengths `extent` [m], `count` bounded boxes.
  using CellSize = std::function<double(const Point& extent, double count)>;

  BoxGrid() = default;
  /// Bins the boxes of items 0 .. count-1.
  BoxGrid(int count, const Bounds& bounds, const CellSize& cell_size);

  /// Appends to `out` every item whose box overlaps [lo, hi] [m] (and every unbounded item), each
  /// once: the unbounded ones first, then the cells' items in the order of the cells (the first
  /// axis fastest), ascending within a cell.
  void query(const Point& lo, const Point& hi, std::vector<int>& out) const;

 private:
  /// The cell index range per axis covering [lo, hi], clamped to the grid.
  void cell_range(const Point& lo, const Point& hi, Cells& first, Cells& last) const;
  /// Calls f(cell) for every cell from `first` to `last` (inclusive per axis), the first axis
  /// fastest.
  template <class F>
  void for_each_cell(const Cells& first, const Cells& last, F&& f) const;

  std::vector<Point> lo_, hi_;    // item boxes (#items)
  std::vector<int> unbounded_;    // items without a box
  Point origin_ = Point::Zero();  // lower corner of the grid [m]
  double cell_ = 1.0;             // cell size [m]
  Cells cells_ = Cells::Zero();   // cells per axis
  std::vector<int> cell_start_;   // CSR offsets into cell_items_ (#cells + 1)
  std::vector<int> cell_items_;   // item indices per cell
  // per item: the query that last returned it (queries are not thread-safe)
  mutable std::vector<unsigned> stamp_;
  mutable unsigned query_count_ = 0;
};

extern template class BoxGrid<2>;
extern template class BoxGrid<3>;

}  // namespace tendril
