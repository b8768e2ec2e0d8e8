#include "tendril/vine/obstacles.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <Eigen/Geometry>

#include "tendril/core/error.hpp"

namespace tendril::vine {

Obstacle make_circle(const Vec2& centre, double radius) {
  Obstacle o;
  o.vertices = {centre};
  o.corner_radius = radius;
  return o;
}

Obstacle make_half_plane(const Vec2& point, const Vec2& outward_normal) {
  Obstacle o;
  o.kind = ObstacleKind::half_plane;
  o.vertices = {point};
  o.normal = outward_normal.normalized();
  return o;
}

Obstacle make_segment(const Vec2& a, const Vec2& b, double radius) {
  Obstacle o;
  o.vertices = {a, b};
  o.corner_radius = radius;
  return o;
}

Obstacle make_box(const Vec2& centre, const Vec2& size, double angle, double corner_radius) {
  const Vec2 half = 0.5 * size - Vec2::Constant(corner_radius);
  const Eigen::Rotation2Dd rot(angle);
  Obstacle o;
  o.corner_radius = corner_radius;
  for (const Vec2& corner : {Vec2(half.x(), -half.y()), Vec2(half.x(), half.y()),
                             Vec2(-half.x(), half.y()), Vec2(-half.x(), -half.y())})
    o.vertices.push_back(centre + rot * corner);
  return o;
}

Obstacle make_polygon(std::vector<Vec2> vertices, double corner_radius, const std::string& key) {
  const int n = static_cast<int>(vertices.size());
  if (n < 3)
    throw InputError(key, fmt::format("{} vertices", n), "at least 3 vertices of a convex polygon");
  double area = 0.0;
  for (int i = 0; i < n; ++i) {
    const Vec2& a = vertices[i];
    const Vec2& b = vertices[(i + 1) % n];
    area += a.x() * b.y() - b.x() * a.y();
  }
  if (area < 0.0) std::reverse(vertices.begin(), vertices.end());
  for (int i = 0; i < n; ++i) {
    const Vec2 e0 = vertices[(i + 1) % n] - vertices[i];
    const Vec2 e1 = vertices[(i + 2) % n] - vertices[(i + 1) % n];
    if (e0.x() * e1.y() - e0.y() * e1.x() <= 0.0)
      throw InputError(fmt::format("{}[{}]", key, (i + 1) % n), "a reflex or collinear corner",
                       "the vertices of a strictly convex polygon");
  }
  Obstacle o;
  o.vertices = std::move(vertices);
  o.corner_radius = corner_radius;
  return o;
}

}  // namespace tendril::vine
