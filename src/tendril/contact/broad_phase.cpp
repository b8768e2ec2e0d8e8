#include "tendril/contact/broad_phase.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tendril::contact {
namespace {

constexpr int kBits = 21;  // cell coordinates per axis in [0, 2^21)
constexpr std::int64_t kRange = std::int64_t{1} << kBits;

std::uint64_t pack(std::int64_t x, std::int64_t y, std::int64_t z) {
  return (static_cast<std::uint64_t>(x) << (2 * kBits)) | (static_cast<std::uint64_t>(y) << kBits) |
         static_cast<std::uint64_t>(z);
}

}  // namespace

void BroadPhase::find_pairs(const Eigen::Ref<const VecX>& positions,
                            const std::vector<std::array<int, 2>>& edges,
                            const std::vector<double>& margin, std::vector<EdgePair>& pairs) {
  pairs.clear();
  const std::size_t num_edges = edges.size();
  if (num_edges < 2) return;
  lower_.resize(num_edges);
  upper_.resize(num_edges);
  for (std::size_t e = 0; e < num_edges; ++e) {
    const Vec3 p0 = positions.segment<3>(3 * edges[e][0]),
               p1 = positions.segment<3>(3 * edges[e][1]);
    lower_[e] = p0.cwiseMin(p1).array() - margin[e];
    upper_[e] = p0.cwiseMax(p1).array() + margin[e];
  }
  overlapping_boxes(num_edges, pairs, [&](int a, int b) {
    return edges[a][0] == edges[b][0] || edges[a][0] == edges[b][1] || edges[a][1] == edges[b][0] ||
           edges[a][1] == edges[b][1];
  });
}

void BroadPhase::find_point_triangle_pairs(const Eigen::Ref<const VecX>& positions,
                                           const std::vector<int>& points,
                                           const std::vector<double>& point_margin,
                                           const std::vector<std::array<int, 3>>& triangles,
                                           const std::vector<double>& triangle_margin,
                                           std::vector<EdgePair>& pairs) {
  pairs.clear();
  const std::size_t num_points = points.size();
  if (num_points == 0 || triangles.empty()) return;
  lower_.resize(num_points + triangles.size());
  upper_.resize(num_points + triangles.size());
  for (std::size_t i = 0; i < num_points; ++i) {
    const Vec3 p = positions.segment<3>(3 * points[i]);
    lower_[i] = p.array() - point_margin[i];
    upper_[i] = p.array() + point_margin[i];
  }
  set_triangle_boxes(positions, triangles, triangle_margin, num_points);
  // no point with a triangle it is a vertex of
  pairs_with_triangles(num_points, triangles, pairs, [&](int point, const std::array<int, 3>& t) {
    return points[point] == t[0] || points[point] == t[1] || points[point] == t[2];
  });
}

void BroadPhase::find_edge_triangle_pairs(const Eigen::Ref<const VecX>& positions,
                                          const std::vector<std::array<int, 2>>& edges,
                                          const std::vector<std::array<int, 3>>& triangles,
                                          std::vector<EdgePair>& pairs) {
  pairs.clear();
  if (edges.empty() || triangles.empty()) return;
  lower_.resize(edges.size() + triangles.size());
  upper_.resize(edges.size() + triangles.size());
  for (std::size_t e = 0; e < edges.size(); ++e) {
    const Vec3 p0 = positions.segment<3>(3 * edges[e][0]),
               p1 = positions.segment<3>(3 * edges[e][1]);
    lower_[e] = p0.cwiseMin(p1);
    upper_[e] = p0.cwiseMax(p1);
  }
  set_triangle_boxes(positions, triangles, {}, edges.size());
  // no edge with a triangle it shares a node with
  pairs_with_triangles(edges.size(), triangles, pairs, [&](int edge, const std::array<int, 3>& t) {
    return std::find(t.begin(), t.end(), edges[edge][0]) != t.end() ||
           std::find(t.begin(), t.end(), edges[edge][1]) != t.end();
  });
}

void BroadPhase::set_triangle_boxes(const Eigen::Ref<const VecX>& positions,
                                    const std::vector<std::array<int, 3>>& triangles,
                                    const std::vector<double>& margin, std::size_t first) {
  for (std::size_t f = 0; f < triangles.size(); ++f) {
    const Vec3 p0 = positions.segment<3>(3 * triangles[f][0]),
               p1 = positions.segment<3>(3 * triangles[f][1]),
               p2 = positions.segment<3>(3 * triangles[f][2]);
    const double grow = margin.empty() ? 0.0 : margin[f];
    lower_[first + f] = p0.cwiseMin(p1).cwiseMin(p2).array() - grow;
    upper_[first + f] = p0.cwiseMax(p1).cwiseMax(p2).array() + grow;
  }
}

template <class Shares>
void BroadPhase::pairs_with_triangles(std::size_t split,
                                      const std::vector<std::array<int, 3>>& triangles,
                                      std::vector<EdgePair>& pairs, Shares shares) {
  const int first = static_cast<int>(split);
  // only pairs of a box before `split` with a triangle
  overlapping_boxes(split + triangles.size(), pairs, [&](int a, int b) {
    if ((a < first) == (b < first)) return true;
    return shares(std::min(a, b), triangles[std::max(a, b) - first]);
  });
  for (EdgePair& p : pairs) p.b -= first;
}

template <class Skip>
void BroadPhase::overlapping_boxes(std::size_t num_boxes, std::vector<EdgePair>& pairs, Skip skip) {
  // the grid's origin and cell size
  Vec3 origin = Vec3::Constant(std::numeric_limits<double>::infinity());
  double cell = 0.0;  // [m]
  for (std::size_t e = 0; e < num_boxes; ++e) {
    origin = origin.cwiseMin(lower_[e]);
    cell = std::max(cell, (upper_[e] - lower_[e]).maxCoeff());
  }
  if (!(cell > 0.0)) cell = 1.0;  // every box is a point: any cell size works
  // a box spans at most two cells per axis; coordinates beyond the grid's range share the last cell
  const auto coordinate = [&](double v) {
    return std::min<std::int64_t>(static_cast<std::int64_t>(std::floor(v / cell)), kRange - 1);
  };
  entries_.clear();
  for (std::size_t e = 0; e < num_boxes; ++e) {
    const Vec3 lo = (lower_[e] - origin), hi = (upper_[e] - origin);
    for (std::int64_t x = coordinate(lo.x()); x <= coordinate(hi.x()); ++x)
      for (std::int64_t y = coordinate(lo.y()); y <= coordinate(hi.y()); ++y)
        for (std::int64_t z = coordinate(lo.z()); z <= coordinate(hi.z()); ++z)
          entries_.push_back({pack(x, y, z), static_cast<int>(e)});
  }
  std::sort(entries_.begin(), entries_.end());
  // pairs within each cell; a pair is reported by the cell of its intersection's lower corner
  for (std::size_t begin = 0; begin < entries_.size();) {
    std::size_t end = begin + 1;
    while (end < entries_.size() && entries_[end].cell == entries_[begin].cell) ++end;
    for (std::size_t i = begin; i < end; ++i)
      for (std::size_t j = i + 1; j < end; ++j) {
        const int a = entries_[i].box, b = entries_[j].box;
        if (skip(a, b)) continue;
        if ((lower_[a].array() > upper_[b].array()).any() ||
            (lower_[b].array() > upper_[a].array()).any())
          continue;
        const Vec3 corner = lower_[a].cwiseMax(lower_[b]) - origin;
        if (pack(coordinate(corner.x()), coordinate(corner.y()), coordinate(corner.z())) !=
            entries_[begin].cell)
          continue;
        pairs.push_back({std::min(a, b), std::max(a, b)});
      }
    begin = end;
  }
  std::sort(pairs.begin(), pairs.end());
}

}  // namespace tendril::contact
