#include "tendril/vine3d/obstacles.hpp"

#include <algorithm>

#include "tendril/core/golden_section.hpp"

namespace tendril::vine3d {

Obstacle3 make_sphere(const Vec3& centre, double radius) {
  Obstacle3 o;
  o.shape = ObstacleShape::sphere;
  o.centre = centre;
  o.radius = radius;
  return o;
}

Obstacle3 make_half_space(const Vec3& point, const Vec3& normal) {
  Obstacle3 o;
  o.shape = ObstacleShape::half_space;
  o.centre = point;
  o.normal = normal.normalized();
  return o;
}

Obstacle3 make_box(const Vec3& centre, const Vec3& half_size, const Quat& orientation) {
  Obstacle3 o;
  o.shape = ObstacleShape::box;
  o.centre = centre;
  o.half_size = half_size;
  o.orientation = orientation.normalized();
  return o;
}

double signed_distance(const Obstacle3& o, const Vec3& x, Vec3& normal) {
  switch (o.shape) {
    case ObstacleShape::sphere: {
      const Vec3 r = x - o.centre;
      const double len = r.norm();
      normal = len > 0.0 ? Vec3(r / len) : Vec3::UnitZ();
      return len - o.radius;
    }
    case ObstacleShape::half_space:
      normal = o.normal;
      return o.normal.dot(x - o.centre);
    case ObstacleShape::box: {
      const Vec3 local = o.orientation.conjugate() * (x - o.centre);
      const Vec3 q = local.cwiseAbs() - o.half_size;
      const Vec3 sign = local.unaryExpr([](double v) { return v < 0.0 ? -1.0 : 1.0; });
      if (q.maxCoeff() > 0.0) {  // outside: distance to the nearest point of the box
        const Vec3 out = q.cwiseMax(0.0).cwiseProduct(sign);
        normal = o.orientation * (out / out.norm());
        return out.norm();
      }
      int k = 0;  // inside: the nearest face
      q.maxCoeff(&k);
      normal = o.orientation * (sign(k) * Vec3::Unit(k));
      return q(k);
    }
  }
  return 0.0;
}

double closest_offset(const Obstacle3& o, const Vec3& centre, const Vec3& axis, double half_length,
                      double& distance) {
  Vec3 normal;
  const auto sd = [&](double s) { return signed_distance(o, Vec3(centre + s * axis), normal); };
  double s = 0.0;
  switch (o.shape) {
    case ObstacleShape::sphere:
      s = std::clamp((o.centre - centre).dot(axis), -half_length, half_length);
      break;
    case ObstacleShape::half_space:  // sd is linear in s: the end with the smaller n . e s
      s = o.normal.dot(axis) < 0.0 ? half_length : -half_length;
      break;
    case ObstacleShape::box: {  // sd(p(s)) is convex
      s = golden_section_minimum(sd, -half_length, half_length, 1e-12 * half_length);
      for (const double end : {-half_length, half_length})
        if (sd(end) < sd(s)) s = end;
      break;
    }
  }
  distance = sd(s);
  return s;
}

}  // namespace tendril::vine3d
