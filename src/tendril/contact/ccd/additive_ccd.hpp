#pragma once
/// Additive conservative advancement (ACCD; Li, Kaufman and Jiang 2021, "Codimensional Incremental
/// Potential Contact", Algorithm 1) of two primitives moving linearly over a step, shared by the
/// edge-edge and point-triangle checks. docs/physics/contact.md, "No tunnelling".
///
/// The stencil holds four points x = [x0, x1, x2, x3] [m] (12): the first `split` belong to one
/// primitive (1: a point against a triangle, 2: an edge against an edge), the rest to the other;
/// over the step they move by p (12) [m] (positions x + t p, t in [0, 1]). The distance can shrink
/// at most at the rate l_p = max |relative motion| of the first primitive's points plus that of the
/// second's, so advancing by 0.9 Delta / l_p never steps over the first touch.

#include <algorithm>

#include "tendril/core/types.hpp"

namespace tendril::contact {

/// Conservative advancement along t in [0, t_max] of a distance d(t) that shrinks at most at `rate`
/// [m per unit t] from d(0) = d0 > 0: the largest t such that d stays above keep d0 on [0, t]
/// (0 < keep < 1), or t_max if it never falls that low before t_max. distance_at(t): d(t) [m].
template <class DistanceAt>
double advance_conservatively(double d0, double rate, double keep, double t_max,
                              DistanceAt distance_at) {
  // the first increment cannot reach keep d0: nothing moves fast enough to matter
  if (rate * t_max <= (1.0 - keep) * d0) return t_max;
  // advance by increments that cannot overshoot the first touch, until the distance falls below
  // keep * d0 (then the last safe t is returned) or t passes t_max; each increment is at least
  // 0.9 keep d0 / rate, so this ends; past kMaxIncrements the safe t so far is returned
  constexpr int kMaxIncrements = 10000;
  const double floor = keep * d0;
  double t = 0.0;
  double increment = (1.0 - keep) * d0 / rate;
  for (int k = 0; k < kMaxIncrements; ++k) {
    const double d = distance_at(t + increment);
    if (t > 0.0 && d < floor) return t;
    t += increment;
    if (t >= t_max) return t_max;
    increment = 0.9 * d / rate;
  }
  return t;
}

/// The largest t in [0, t_max] such that distance(x + s p) stays above keep distance(x) for
/// s in [0, t] (0 < keep < 1), or t_max if it never falls that low before t_max; 0 if the
/// primitives already touch. distance: the primitives' minimum distance at a 12-vector stencil [m].
template <class Distance>
double additive_collision_free_fraction(const VecN<12>& x, const VecN<12>& p, int split,
                                        double keep, double t_max, Distance distance) {
  // relative motion: a common translation changes no distance
  VecN<12> relative = p;
  const Vec3 mean = 0.25 * (p.segment<3>(0) + p.segment<3>(3) + p.segment<3>(6) + p.segment<3>(9));
  for (int k = 0; k < 4; ++k) relative.segment<3>(3 * k) -= mean;
  // the distance shrinks at most at this rate [m per unit t]
  double fastest[2] = {0.0, 0.0};
  for (int k = 0; k < 4; ++k) {
    double& group = fastest[k < split ? 0 : 1];
    group = std::max(group, relative.segment<3>(3 * k).norm());
  }
  const double rate = fastest[0] + fastest[1];
  const double d0 = distance(x);
  if (rate == 0.0) return t_max;
  if (d0 == 0.0) return 0.0;
  return advance_conservatively(d0, rate, keep, t_max,
                                [&](double t) { return distance(VecN<12>(x + t * relative)); });
}

}  // namespace tendril::contact
