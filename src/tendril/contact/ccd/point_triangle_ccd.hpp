#pragma once
/// Continuous collision check of a point and a triangle moving linearly over a step, by additive
/// conservative advancement (ccd/additive_ccd.hpp; Li, Kaufman and Jiang 2021, Algorithm 1).
/// docs/physics/contact.md, "No tunnelling".

#include "tendril/contact/distance/point_triangle_distance.hpp"

namespace tendril::contact {

/// The largest t in [0, t_max] such that the point-triangle distance stays above `keep` times its
/// starting value on [0, t] (0 < keep < 1), or t_max if it never falls that low before t_max; 0 if
/// the point already lies on the triangle. x = [p, t0, t1, t2] [m], dx = their motion over the step
/// [m] (12 each).
double point_triangle_collision_free_fraction(const Vec12& x, const Vec12& dx, double keep,
                                              double t_max = 1.0);

}  // namespace tendril::contact
