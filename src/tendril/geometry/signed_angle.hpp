#pragma once
/// Signed angle between two vectors about an axis (right-hand rule).

#include <cmath>

#include <Eigen/Geometry>

#include "tendril/core/types.hpp"

namespace tendril {

/// atan2(y, x) [rad], through the Taylor series of atan(y / x) when |y| <= x / 8 (angles within
/// about 7.1 degrees of zero: a rod's reference twists between neighbouring edges), else
/// std::atan2. The series atan z = z - z^3/3 + z^5/5 - ... is cut after z^17 / 17: the remainder is
/// below |z| z^18 / 19 <= |z| 2^-54 / 19, far under an ulp, and the roundings of y / x and of the
/// sum leave the result within one ulp of std::atan2's (tests/unit/geometry/test_signed_angle.cpp).
/// About a fifth of glibc's atan2's instructions (callgrind, docs/performance.md).
inline double small_angle_atan2(double y, double x) {
  if (!(8.0 * std::abs(y) <= x)) return std::atan2(y, x);
  const double z = y / x, z2 = z * z;
  double p = 1.0 / 17.0;
  p = 1.0 / 15.0 - z2 * p;
  p = 1.0 / 13.0 - z2 * p;
  p = 1.0 / 11.0 - z2 * p;
  p = 1.0 / 9.0 - z2 * p;
  p = 1.0 / 7.0 - z2 * p;
  p = 1.0 / 5.0 - z2 * p;
  p = 1.0 / 3.0 - z2 * p;
  return z - z * z2 * p;
}

/// Angle [rad] in (-pi, pi] that rotates u onto v about the unit vector `axis`
/// (u, v perpendicular to axis).
inline double signed_angle(const Vec3& u, const Vec3& v, const Vec3& axis) {
  return small_angle_atan2(u.cross(v).dot(axis), u.dot(v));
}

}  // namespace tendril
