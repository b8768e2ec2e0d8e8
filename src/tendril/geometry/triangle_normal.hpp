#pragma once
/// Triangle normals and their derivatives (docs/physics/shells.md#geometry). A triangle (x_0, x_1,
/// x_2) has the area vector n = (x_1 - x_0) x (x_2 - x_0), |n| = 2 A; the order of its nodes
/// orients it. Stencil DOFs: (x_0, x_1, x_2), 9 entries.

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "tendril/core/types.hpp"

namespace tendril {

using Mat39 = Eigen::Matrix<double, 3, 9>;

/// n = (x_1 - x_0) x (x_2 - x_0) [m^2].
inline Vec3 triangle_normal(const Vec3& x0, const Vec3& x1, const Vec3& x2) {
  return (x1 - x0).cross(x2 - x0);
}

/// The skew matrix [v]_x with [v]_x w = v x w.
inline Mat3 cross_matrix(const Vec3& v) {
  Mat3 m;
  m << 0.0, -v.z(), v.y(), v.z(), 0.0, -v.x(), -v.y(), v.x(), 0.0;
  return m;
}

/// dn/d(x_0, x_1, x_2) [m] (3 x 9).
Mat39 triangle_normal_jacobian(const Vec3& x0, const Vec3& x1, const Vec3& x2);

}  // namespace tendril
