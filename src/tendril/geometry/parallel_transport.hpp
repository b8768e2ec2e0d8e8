#pragma once
/// Parallel transport of a vector between two unit tangents (Bergou et al. 2010, sec. 4;
/// mat_dismech 3.2): the rotation about t_from x t_to that maps t_from onto t_to, applied to v.
/// See docs/physics/rods.md#parallel-transport.

#include <Eigen/Geometry>

#include "tendril/core/types.hpp"

namespace tendril {

/// P_{t_from -> t_to} v = v + w x v + w x (w x v) / (1 + c), w = t_from x t_to, c = t_from . t_to
/// (Rodrigues' formula for the minimal rotation). t_from, t_to must be unit vectors. When they are
/// (numerically) opposite the rotation axis is undefined; the component of v normal to t_to is
/// returned so the result stays finite and perpendicular to t_to.
inline Vec3 parallel_transport(const Vec3& v, const Vec3& t_from, const Vec3& t_to) {
  const Vec3 w = t_from.cross(t_to);
  const double c = t_from.dot(t_to);
  if (1.0 + c < 1e-14) return v - v.dot(t_to) * t_to;
  return v + w.cross(v) + w.cross(w.cross(v)) / (1.0 + c);
}

/// The same for v normal to t_from (a director of the edge along t_from), without cross products:
/// with t_from . v = 0, w x v = -(t_to . v) t_from and w x (w x v) = -(t_to . v)(t_to - c t_from),
/// so P v = v - (t_to . v) / (1 + c) (t_from + t_to). A component of v along t_from (round-off) is
/// not carried to t_to, it stays O(|t_from . v|). Same fallback for opposite tangents.
inline Vec3 parallel_transport_normal(const Vec3& v, const Vec3& t_from, const Vec3& t_to) {
  const double c = t_from.dot(t_to);
  if (1.0 + c < 1e-14) return v - v.dot(t_to) * t_to;
  return v - (t_to.dot(v) / (1.0 + c)) * (t_from + t_to);
}

}  // namespace tendril
