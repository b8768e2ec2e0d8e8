#pragma once
/// Continuous collision check of two segments moving linearly over a step, by additive conservative
/// advancement (ACCD; Li, Kaufman and Jiang 2021, "Codimensional Incremental Potential Contact",
/// Algorithm 1). docs/physics/contact.md, "No tunnelling".
///
/// Segment A runs from a0 to a1 and B from b0 to b1 [m]; over the step their end points move by
/// pa0, pa1, pb0, pb1 [m] (positions x + t p, t in [0, 1]). Conservative advancement moves the
/// segments in increments no larger than the distance left divided by a bound on how fast the
/// distance can shrink (|relative motion| of A's fastest end plus B's fastest end), so it never
/// steps over the first touch, however fast or thin the segments are.

#include "tendril/contact/distance/edge_edge_distance.hpp"

namespace tendril::contact {

/// The largest t in [0, t_max] such that the segments' distance stays above
/// `keep` times the starting distance Delta(0) on [0, t] (0 < keep < 1), or t_max if it never falls
/// that low before t_max. Returns 0 if the segments already touch (Delta(0) = 0).
/// x = [a0, a1, b0, b1], p = [pa0, pa1, pb0, pb1] (12 each).
double edge_edge_collision_free_fraction(const Vec12& x, const Vec12& p, double keep,
                                         double t_max = 1.0);

}  // namespace tendril::contact
