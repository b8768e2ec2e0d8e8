#pragma once
/// Rotation-aware Newton updates of near-rigid rod parts (docs/physics/time_integration.md, "Stiff parts
/// that rotate"). A Newton step d is linear in the positions, so a stiff segment that has to turn by an
/// angle theta is stretched by about l theta^2 / 2 at y + d, and with EA f times the rest of the rod the
/// line search rejects the step. Here each stiff segment's part of d is split into the infinitesimal
/// rigid motion that fits it best (translation t, rotation vector w about the centroid c) and the rest
/// delta, and the trial point moves the segment along the curve
///   x_i(a) = c + a t + R(a w) (x_i - c + a delta_i),
/// which has the same tangent d at a = 0 (so Armijo's test and quadratic convergence are unchanged) but
/// turns the segment, and the non-rigid rest of its step with it, instead of stretching it. A segment
/// includes the soft edges that meet its stiff edges at a spring with stiff bending: their direction
/// turns with the segment and their stretch (in delta) turns with it. Twist DOFs and the other nodes
/// move on the straight line.

#include <vector>

#include "tendril/core/model.hpp"
#include "tendril/core/types.hpp"

namespace tendril {

class StiffSegments {
 public:
  StiffSegments() = default;
  /// The connected groups of rod edges whose stretch stiffness EA is at least `ratio` times the median
  /// EA of all rod edges (ratio 0: none), each with the edges that meet one of its edges at a spring
  /// whose bending stiffness min(EI_1, EI_2) is at least `ratio` times the median over all springs.
  /// Groups with a fixed DOF on a stiff edge are left out: they are held by their clamp, and moving them
  /// would move fixed DOFs; a fixed node of one of the soft edges is left out of its group (it stays).
  StiffSegments(const Model& model, double ratio);

  bool empty() const { return groups_.empty(); }
  /// Node indices of each group.
  const std::vector<std::vector<int>>& groups() const { return groups_; }

  /// Fits the rigid motion (t, w) of every group to the step `d` at the configuration `y` (#dofs).
  void fit(const VecX& y, const VecX& d);
  /// trial = y + a d plus, on every group's nodes, R(a w) (r_i + a delta_i) - r_i - a w x r_i - a delta_i
  /// (r_i = x_i - c, delta_i = d_i - t - w x r_i).
  void trial(const VecX& y, const VecX& d, double a, VecX& trial) const;

 private:
  struct Motion {
    Vec3 centroid = Vec3::Zero();     ///< c [m]
    Vec3 translation = Vec3::Zero();  ///< t [m]
    Vec3 rotation = Vec3::Zero();     ///< w [rad]
  };
  std::vector<std::vector<int>> groups_;
  std::vector<Motion> motions_;  ///< of the last fit (#groups)
};

}  // namespace tendril
