#include "tendril/contact/distance/segment_triangle_crossing.hpp"

#include <Eigen/Geometry>
#include <array>

namespace tendril::contact {

std::optional<Vec3> segment_triangle_crossing(const Vec3& a0, const Vec3& a1, const Vec3& t0,
                                              const Vec3& t1, const Vec3& t2) {
  const Vec3 normal = (t1 - t0).cross(t2 - t0);
  // signed heights of the ends above the plane (times twice the area)
  const double h0 = normal.dot(a0 - t0), h1 = normal.dot(a1 - t0);
  if (!((h0 > 0.0 && h1 < 0.0) || (h0 < 0.0 && h1 > 0.0))) return std::nullopt;
  const Vec3 p = a0 + h0 / (h0 - h1) * (a1 - a0);
  // strictly inside: on the inner side of each edge
  const std::array<const Vec3*, 3> t = {&t0, &t1, &t2};
  for (int k = 0; k < 3; ++k)
    if (!(normal.dot((*t[(k + 1) % 3] - *t[k]).cross(p - *t[k])) > 0.0)) return std::nullopt;
  return p;
}

}  // namespace tendril::contact
