#include "tendril/contact/ccd/edge_edge_ccd.hpp"

#include <algorithm>

namespace tendril::contact {

namespace {

double distance(const Vec12& x) {
  return segment_closest_points(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9)).distance;
}

}  // namespace

double edge_edge_collision_free_fraction(const Vec12& x, const Vec12& p, double keep, double t_max) {
  // relative motion: a common translation changes no distance
  Vec12 relative = p;
  const Vec3 mean = 0.25 * (p.segment<3>(0) + p.segment<3>(3) + p.segment<3>(6) + p.segment<3>(9));
  for (int k = 0; k < 4; ++k) relative.segment<3>(3 * k) -= mean;
  // the distance shrinks at most at this rate [m per unit t]
  const double rate = std::max(relative.segment<3>(0).norm(), relative.segment<3>(3).norm()) +
                      std::max(relative.segment<3>(6).norm(), relative.segment<3>(9).norm());
  const double d0 = distance(x);
  if (rate == 0.0) return t_max;
  if (d0 == 0.0) return 0.0;

  // advance by increments that cannot overshoot the first touch, until the distance falls below
  // keep * d0 (then the last safe t is returned) or t passes t_max; each increment is at least
  // 0.9 keep d0 / rate, so this ends; past kMaxIncrements the safe t so far is returned
  constexpr int kMaxIncrements = 10000;
  const double floor = keep * d0;
  Vec12 y = x;
  double t = 0.0, d = d0;
  double increment = (1.0 - keep) * d0 / rate;
  for (int k = 0; k < kMaxIncrements; ++k) {
    y += increment * relative;
    d = distance(y);
    if (t > 0.0 && d < floor) return t;
    t += increment;
    if (t >= t_max) return t_max;
    increment = 0.9 * d / rate;
  }
  return t;
}

}  // namespace tendril::contact
