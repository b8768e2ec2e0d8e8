#pragma once
/// Discrete curvature binormal at a node (mat_dismech eq. 11; Bergou et al. 2008, eq. 1).

#include <Eigen/Geometry>

#include "tendril/core/types.hpp"

namespace tendril {

/// (kappa b) = 2 t_a x t_b / (1 + t_a . t_b) [-] for unit tangents of the edge entering (t_a) and
/// leaving (t_b) the node; |kappa b| = 2 tan(phi / 2) with phi the turning angle.
/// Any scalar type with Eigen's traits (the bend-twist kernel's packs of lanes,
/// core/lane_pack.hpp).
template <class Scalar>
Eigen::Matrix<Scalar, 3, 1> curvature_binormal(const Eigen::Matrix<Scalar, 3, 1>& t_a,
                                               const Eigen::Matrix<Scalar, 3, 1>& t_b) {
  return 2.0 * t_a.cross(t_b) / (1.0 + t_a.dot(t_b));
}
inline Vec3 curvature_binormal(const Vec3& t_a, const Vec3& t_b) {
  return curvature_binormal<double>(t_a, t_b);
}

}  // namespace tendril
