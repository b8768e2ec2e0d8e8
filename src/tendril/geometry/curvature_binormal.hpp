#pragma once
/// Discrete curvature binormal at a node (mat_dismech eq. 11; Bergou et al. 2008, eq. 1).

#include <Eigen/Geometry>

#include "tendril/core/types.hpp"

namespace tendril {

/// (kappa b) = 2 t_a x t_b / (1 + t_a . t_b) [-] for unit tangents of the edge entering (t_a) and
/// leaving (t_b) the node; |kappa b| = 2 tan(phi / 2) with phi the turning angle.
inline Vec3 curvature_binormal(const Vec3& t_a, const Vec3& t_b) {
  return 2.0 * t_a.cross(t_b) / (1.0 + t_a.dot(t_b));
}

}  // namespace tendril
