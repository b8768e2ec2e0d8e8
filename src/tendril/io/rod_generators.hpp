#pragma once
/// Rod geometry generators used by scene files: straight rods, helices, circles (open or closed).
/// Each returns node positions and edges (0-based, edge e points from edges[e][0] to edges[e][1]).
/// Arguments are checked by the scene reader; these functions assume valid input.

#include <array>
#include <vector>

#include "tendril/core/types.hpp"

namespace tendril::io {

struct Polyline {
  std::vector<Vec3> nodes;                ///< x_i [m] (#nodes)
  std::vector<std::array<int, 2>> edges;  ///< (n_0, n_1) (#edges)
};

/// Edges (i, i+1) for i = 0 .. num_nodes - 2, and (num_nodes - 1, 0) when closed.
std::vector<std::array<int, 2>> chain_edges(int num_nodes, bool closed);

/// A straight rod of `num_edges` equal edges from `start` along the unit vector `direction`.
/// clamp_offset = false: the rod spans [start, start + length d], edge length length / num_edges.
/// clamp_offset = true (clamp convention, docs/conventions.md): the first edge straddles `start`
/// (its midpoint is `start`) and `length` is measured from `start` to the free end, so the edge
/// length is length / (num_edges - 1/2) and node 0 sits half an edge behind `start`.
Polyline straight_rod(const Vec3& start, const Vec3& direction, double length, int num_edges,
                      bool clamp_offset);

/// A circular helix about the axis through `center` with unit direction `axis`: radius R [m],
/// pitch p [m] (rise per turn along the axis), `turns` turns, `num_nodes` nodes equally spaced in
/// the helix parameter. Node 0 is at center + R u, with u a unit vector perpendicular to axis;
/// x(s) = center + R (cos(2 pi s) u + sin(2 pi s) (axis x u)) + p s axis, s in [0, turns].
Polyline helix(const Vec3& center, const Vec3& axis, double radius, double pitch, double turns,
               int num_nodes);

/// A circle of radius R [m] about `center` in the plane with unit normal `normal`, `num_nodes`
/// nodes equally spaced. closed: num_nodes edges (the last joins node N-1 to node 0); open: the
/// nodes of the closed ring are kept but the closing edge is left out (an almost closed arc).
Polyline circle(const Vec3& center, const Vec3& normal, double radius, int num_nodes, bool closed);

/// The unit vector perpendicular to `axis` used by helix and circle as their first radial
/// direction.
Vec3 radial_direction(const Vec3& axis);

}  // namespace tendril::io
