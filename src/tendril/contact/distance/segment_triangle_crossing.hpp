#pragma once
/// Where a segment passes through a triangle's interior: a rod or shell edge through a sheet whose
/// nodes and edges are all away from it, which neither the point-triangle nor the edge-edge
/// distance sees (both are zero only when a node lies on the triangle or two edges meet).
/// docs/physics/contact.md, "Bodies that intersect at the start".

#include <optional>

#include "tendril/core/types.hpp"

namespace tendril::contact {

/// The point [m] where the segment [a0, a1] crosses the triangle (t0, t1, t2) strictly: its ends
/// on opposite sides of the triangle's plane (neither on it) and the crossing strictly inside the
/// triangle. Empty otherwise (no crossing, a segment in the plane, a degenerate triangle, or a
/// crossing on the triangle's boundary, which is an edge-edge contact).
std::optional<Vec3> segment_triangle_crossing(const Vec3& a0, const Vec3& a1, const Vec3& t0,
                                              const Vec3& t1, const Vec3& t2);

}  // namespace tendril::contact
