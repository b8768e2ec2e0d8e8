#pragma once
/// Exact distances computed from the shapes, independent of the contact code, for the tunnelling
/// validations: point-segment in closed form, and the minimum of a distance along a segment (a
/// convex function of the segment's parameter: the distance of a moving point from a convex set)
/// by ternary search to round-off.

#include <algorithm>
#include <cmath>

#include "tendril/core/types.hpp"

namespace tendril::testing {

/// The distance of x from the segment [a, b] [m].
inline double point_segment_distance(const Vec3& x, const Vec3& a, const Vec3& b) {
  const double s = std::clamp((x - a).dot(b - a) / (b - a).squaredNorm(), 0.0, 1.0);
  return (x - (a + s * (b - a))).norm();
}

/// min over s in [0, 1] of f(s), f convex: ternary search (200 thirds: to round-off).
template <class F>
double convex_minimum(F f) {
  double lo = 0.0, hi = 1.0;
  for (int k = 0; k < 200; ++k) {
    const double m1 = lo + (hi - lo) / 3.0, m2 = hi - (hi - lo) / 3.0;
    (f(m1) <= f(m2) ? hi : lo) = f(m1) <= f(m2) ? m2 : m1;
  }
  return std::min({f(0.5 * (lo + hi)), f(0.0), f(1.0)});
}

/// The distance between the segments [a0, a1] and [b0, b1] [m].
inline double segment_segment_distance(const Vec3& a0, const Vec3& a1, const Vec3& b0,
                                       const Vec3& b1) {
  return convex_minimum(
      [&](double s) { return point_segment_distance(a0 + s * (a1 - a0), b0, b1); });
}

/// Coordinate `out` (0 x, 1 y, 2 z) of a polyline's point (the rod's first `nodes` nodes in q)
/// where it crosses the plane {coordinate `across` = value}; NaN if it does not.
inline double crossing_coordinate(const VecX& q, int first, int nodes, int across, double value,
                                  int out) {
  for (int i = first; i + 1 < first + nodes; ++i) {
    const Vec3 a = q.segment<3>(3 * i), b = q.segment<3>(3 * i + 3);
    if ((a[across] <= value) != (b[across] <= value))
      return a[out] + (b[out] - a[out]) * (value - a[across]) / (b[across] - a[across]);
  }
  return std::nan("");
}

}  // namespace tendril::testing
