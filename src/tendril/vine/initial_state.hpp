#pragma once
/// Starting states from measurements (docs/physics/vine.md#starting-states-from-measurements):
/// a given state is projected onto the joint constraints c(q) = 0 (eq. 2, 3) and the contact
/// constraints Phi(q) >= 0 (eq. 5), and a measured centre-line (points in order, as a video tracker
/// gives them) is turned into a state for a given model.

#include <string>
#include <vector>

#include "tendril/core/types.hpp"
#include "tendril/vine/vine_model.hpp"

namespace tendril::vine {

struct ProjectionReport {
  double max_move =
      0.0;  ///< largest displacement of any point of any body, |dx_i| + d_i |dtheta_i| [m]
  int moved_body = -1;        ///< the body that moved most (-1: none moved)
  double joint_error = 0.0;   ///< |c(q)|_inf after the projection [m]
  double min_distance = 0.0;  ///< min Phi(q) after the projection [m] (+inf without obstacles)
  int iterations = 0;         ///< Gauss-Newton iterations (one QP each)
};

/// Moves `state` to the nearest state (in the metric |dx|^2 + d_i^2 dtheta^2 per body) with
/// |c(q)|_inf <= e and Phi(q) >= -e for every contact element and obstacle, by Gauss-Newton steps
/// (each a QP: min |dq|^2 s.t. c + J dq = 0, Phi + L dq >= 0), and removes the velocity's component
/// that breaks the joints (min |dv|^2 s.t. J v = 0) unless |J v|_inf <= 1e-10 max(1, |v|_inf).
/// e = 1e-10 m max(1, largest coordinate / 1 m) is the QP solver's tolerance: a state within it is
/// returned unchanged (bit for bit), and round-off violations are never refused. Throws InputError
/// at `key` if a point of a body would move by more than `tolerance` [m] or the iteration fails.
ProjectionReport project_state(const VineModel& model, VineState& state, double tolerance,
                               const std::string& key);

/// A state at rest along the centre-line `points` [m] (base first, >= 2 points): every body a chord
/// of length 2 d_i of the polyline, the prismatic joints sharing equally the length beyond the
/// bodies' 2 sum d_i; then project_state. Throws InputError at `key` if the polyline is shorter
/// than the bodies or the projection moves farther than `tolerance` [m].
VineState state_from_centerline(const VineModel& model, const std::vector<Vec2>& points,
                                double tolerance, const std::string& key,
                                ProjectionReport* report = nullptr);

}  // namespace tendril::vine
