#pragma once
/// A tracked robot's centre-line in order, base to tip, from the points a video tracker or a
/// skeletonised image gives for one frame (docs/physics/fitting.md, "Tracked video"): the points
/// may come in any order, with side spurs (short branches of a skeleton) and without the segment
/// next to the base (hidden by the base mount). The points are the nodes of a graph whose edges
/// join points closer than a link distance (3 pixels by default); the centre-line is
/// the longest of the shortest paths from the point nearest the base, so a spur, shorter than the
/// robot beyond the point it branches from, is left out, as are points not connected to the base's.

#include <string>
#include <vector>

#include "tendril/core/types.hpp"

namespace tendril::fit {

struct OrderedCenterline {
  std::vector<Vec2> points;  ///< base to tip [m]; the base first when it was added
  int dropped = 0;           ///< points left out (spurs, other pieces, repeated points)
  bool base_added = false;   ///< the base was farther than the link distance from every point
};

/// The centre-line through `points` [m] (any order) from `base` [m]: Dijkstra's shortest paths
/// (edge length the distance) over the graph of points closer than `link_distance` [m] from the
/// point nearest `base`; the path to the farthest point (in path length) is the centre-line. The
/// base is put first when that point is farther than `link_distance` from it (a missing base
/// segment). `points` must not be empty. Throws InputError at `key` if a square of side
/// `link_distance` holds more than kMaxPointsPerLink points (a cloud, not a line: its graph would
/// be dense, its cost quadratic).
OrderedCenterline order_by_longest_path(const std::vector<Vec2>& points, const Vec2& base,
                                        double link_distance, const std::string& key);

/// Most points in a square of side link_distance (a skeleton at 3 pixels holds at most 9).
constexpr int kMaxPointsPerLink = 64;

/// `points` [m] in the order given, with the base put first as above and repeated points (closer
/// than 1e-12 of the link distance to the one before) left out.
OrderedCenterline order_as_given(const std::vector<Vec2>& points, const Vec2& base,
                                 double link_distance);

}  // namespace tendril::fit
