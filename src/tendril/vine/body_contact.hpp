#pragma once
/// Contact along a whole body (docs/physics/vine.md#contact-along-the-body): body i is the segment
/// p(s) = p_i + s e_i, s in [-d_i, d_i], e_i = (cos theta_i, sin theta_i), swept by a disc of the
/// contact radius (a capsule). Its distance to an obstacle is Phi = min_s sd(p(s)) - r_c. The
/// obstacles are convex, so sd(p(s)) is convex in s and the minimiser s* is where the contact row
/// of that step acts: by the envelope theorem dPhi/dq is the point row at the fixed offset s*.

#include "tendril/core/types.hpp"
#include "tendril/vine/obstacles.hpp"

namespace tendril::vine {

/// The offset s* in [-half_length, half_length] [m] of the point of the segment centre + s axis
/// (unit axis) closest to (or deepest in) obstacle `o`, and its signed distance sd(p(s*)) [m]
/// (without the contact radius) in `distance`. Exact when the segment does not cross the obstacle's
/// core (the closest pair of two convex sets has a vertex of one of them); otherwise refined by a
/// golden-section search of the convex sd(p(s)) to 1e-12 of the body length.
double closest_offset(const Obstacle& o, const Vec2& centre, const Vec2& axis, double half_length,
                      double& distance);

/// Axis-aligned box [lo, hi] of an obstacle (half-planes: unbounded, reported by the return value
/// false).
bool obstacle_bounds(const Obstacle& o, Vec2& lo, Vec2& hi);

}  // namespace tendril::vine
