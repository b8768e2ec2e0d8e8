#pragma once
/// Mutable simulation state: time, DOFs, velocities and the DER reference frames.

#include <vector>

#include "tendril/core/types.hpp"

namespace tendril {

/// Reference frames of the rod edges (and of the mid-edge shell edges) at the last accepted
/// configuration. They are time-dependent (time-parallel transported each step), so they live in
/// State, not Model.
struct RodFrames {
  // per framed edge: rod edges, then rod-shell joint edges (core/model.hpp framed_edge_count)
  std::vector<Vec3> tangent;             ///< t^e unit edge tangent (#edges)
  std::vector<Vec3> reference_director;  ///< a_1^e first reference director, a_1 . t = 0 (#edges)
  std::vector<double>
      reference_twist;  ///< m_ref^k accumulated reference twist [rad] (#bend-twist springs)
  /// tau^{k,0} = n_avg x e_hat of each shell edge with a mid-edge DOF xi at the last accepted step,
  /// e_hat along the shell edge (n_0 -> n_1), n_avg the normalised mean of its triangles' unit
  /// normals (mat_dismech 3.3.2) (Z)
  std::vector<Vec3> shell_edge_tau;
};

struct State {
  double time = 0.0;  ///< t [s]
  VecX q;             ///< DOFs (see DofMap): positions [m] and twists [rad]
  VecX u;             ///< dq/dt: velocities [m/s] and twist rates [rad/s]
  RodFrames frames;   ///< reference frames at q
};

}  // namespace tendril
