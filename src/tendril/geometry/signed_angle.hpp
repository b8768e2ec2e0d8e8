#pragma once
/// Signed angle between two vectors about an axis (right-hand rule).

#include <cmath>

#include <Eigen/Geometry>

#include "tendril/core/types.hpp"

namespace tendril {

/// Angle [rad] in (-pi, pi] that rotates u onto v about the unit vector `axis`
/// (u, v perpendicular to axis).
inline double signed_angle(const Vec3& u, const Vec3& v, const Vec3& axis) {
  return std::atan2(u.cross(v).dot(axis), u.dot(v));
}

}  // namespace tendril
