#include "tendril/fit/centerline_order.hpp"

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "tendril/core/error.hpp"

namespace tendril::fit {

namespace {

/// The neighbours of every point (closer than `link`), found through a grid of cells `link` wide;
/// InputError at `key` for a cell with more than kMaxPointsPerLink points.
std::vector<std::vector<int>> neighbours(const std::vector<Vec2>& p, double link,
                                         const std::string& key) {
  const auto cell = [link](const Vec2& x) {
    return std::pair<std::int64_t, std::int64_t>(
        static_cast<std::int64_t>(std::floor(x.x() / link)),
        static_cast<std::int64_t>(std::floor(x.y() / link)));
  };
  const auto hash = [](std::int64_t i, std::int64_t j) {
    return static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ULL ^ static_cast<std::uint64_t>(j);
  };
  std::unordered_map<std::uint64_t, std::vector<int>> grid;
  for (int k = 0; k < static_cast<int>(p.size()); ++k) {
    const auto [i, j] = cell(p[k]);
    std::vector<int>& in_cell = grid[hash(i, j)];
    in_cell.push_back(k);
    if (in_cell.size() > kMaxPointsPerLink)
      throw InputError(key,
                       fmt::format("more than {} points within a square of side link_distance "
                                   "around ({:.6g}, {:.6g}) m",
                                   kMaxPointsPerLink, p[k].x(), p[k].y()),
                       "a centre-line's points (a skeleton, a tracked line), not a cloud of them");
  }
  std::vector<std::vector<int>> out(p.size());
  for (int k = 0; k < static_cast<int>(p.size()); ++k) {
    const auto [i, j] = cell(p[k]);
    for (std::int64_t di = -1; di <= 1; ++di)
      for (std::int64_t dj = -1; dj <= 1; ++dj) {
        const auto it = grid.find(hash(i + di, j + dj));
        if (it == grid.end()) continue;
        for (int m : it->second)
          if (m != k && (p[m] - p[k]).norm() < link) out[k].push_back(m);
      }
  }
  return out;
}

/// The base first if `first` is farther than `link` from it.
void start_at_base(OrderedCenterline& c, const Vec2& base, const Vec2& first, double link) {
  c.base_added = (first - base).norm() > link;
  if (c.base_added) c.points.push_back(base);
}

/// Appends `p` unless it repeats the last point (closer than 1e-12 `link`; counted as dropped).
void append(OrderedCenterline& c, const Vec2& p, double link) {
  if (!c.points.empty() && (p - c.points.back()).norm() <= 1e-12 * link)
    ++c.dropped;
  else
    c.points.push_back(p);
}

}  // namespace

OrderedCenterline order_by_longest_path(const std::vector<Vec2>& points, const Vec2& base,
                                        double link_distance, const std::string& key) {
  TENDRIL_ASSERT(!points.empty() && link_distance > 0.0, "points and a link distance > 0");
  const int n = static_cast<int>(points.size());
  int start = 0;
  for (int k = 1; k < n; ++k)
    if ((points[k] - base).norm() < (points[start] - base).norm()) start = k;
  const std::vector<std::vector<int>> next = neighbours(points, link_distance, key);
  // Dijkstra from the point nearest the base
  std::vector<double> distance(n, std::numeric_limits<double>::infinity());
  std::vector<int> previous(n, -1);
  using Entry = std::pair<double, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  distance[start] = 0.0;
  queue.emplace(0.0, start);
  while (!queue.empty()) {
    const auto [d, k] = queue.top();
    queue.pop();
    if (d > distance[k]) continue;
    for (int m : next[k]) {
      const double via = d + (points[m] - points[k]).norm();
      if (via < distance[m]) {
        distance[m] = via;
        previous[m] = k;
        queue.emplace(via, m);
      }
    }
  }
  int tip = start;
  for (int k = 0; k < n; ++k)
    if (std::isfinite(distance[k]) && distance[k] > distance[tip]) tip = k;
  std::vector<int> path;
  for (int k = tip; k != -1; k = previous[k]) path.push_back(k);
  OrderedCenterline c;
  start_at_base(c, base, points[start], link_distance);
  c.dropped = n - static_cast<int>(path.size());
  for (auto it = path.rbegin(); it != path.rend(); ++it) append(c, points[*it], link_distance);
  return c;
}

OrderedCenterline order_as_given(const std::vector<Vec2>& points, const Vec2& base,
                                 double link_distance) {
  TENDRIL_ASSERT(!points.empty() && link_distance > 0.0, "points and a link distance > 0");
  OrderedCenterline c;
  start_at_base(c, base, points.front(), link_distance);
  for (const Vec2& p : points) append(c, p, link_distance);
  return c;
}

}  // namespace tendril::fit
