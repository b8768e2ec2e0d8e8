#include "tendril/vine/body_contact.hpp"

#include <algorithm>
#include <cmath>

#include "tendril/core/golden_section.hpp"

namespace tendril::vine {

double closest_offset(const Obstacle& o, const Vec2& centre, const Vec2& axis, double half_length,
                      double& distance) {
  Vec2 normal;
  const auto sd = [&](double s) {
    return signed_distance<double>(o, Vec2(centre + s * axis), normal);
  };
  if (o.kind == ObstacleKind::half_plane) {
    // sd is linear in s: the end with the smaller n . e s
    const double slope = o.normal.dot(axis);
    const double s = slope < 0.0 ? half_length : -half_length;
    distance = sd(s);
    return s;
  }
  double best_s = -half_length, best = sd(-half_length);
  const auto consider = [&](double s) {
    const double value = sd(s);
    if (value < best) {
      best = value;
      best_s = s;
    }
  };
  consider(half_length);
  for (const Vec2& vertex : o.vertices)
    consider(std::clamp((vertex - centre).dot(axis), -half_length, half_length));
  if (best <= -o.corner_radius) {
    // the segment reaches the core: minimise the convex sd(p(s)) by golden-section search
    consider(golden_section_minimum(sd, -half_length, half_length, 1e-12 * half_length));
  }
  distance = best;
  return best_s;
}

bool obstacle_bounds(const Obstacle& o, Vec2& lo, Vec2& hi) {
  if (o.kind == ObstacleKind::half_plane) return false;
  lo = hi = o.vertices.front();
  for (const Vec2& v : o.vertices) {
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  lo.array() -= o.corner_radius;
  hi.array() += o.corner_radius;
  return true;
}

}  // namespace tendril::vine
