#include "tendril/vine3d/obstacles.hpp"

#include <algorithm>
#include <cmath>

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

Obstacle3 make_cylinder(const Vec3& centre, const Vec3& axis, double radius, double half_height) {
  Obstacle3 o;
  o.shape = ObstacleShape::cylinder;
  o.centre = centre;
  o.orientation = Quat::FromTwoVectors(Vec3::UnitZ(), axis.normalized());
  o.radius = radius;
  o.half_height = half_height;
  return o;
}

Obstacle3 make_triangle(const Vec3& a, const Vec3& b, const Vec3& c) {
  Obstacle3 o;
  o.shape = ObstacleShape::triangle;
  o.vertices = {a, b, c};
  o.centre = (a + b + c) / 3.0;
  return o;
}

bool obstacle_bounds(const Obstacle3& o, Vec3& lo, Vec3& hi) {
  Vec3 half = Vec3::Zero();
  switch (o.shape) {
    case ObstacleShape::half_space:
      return false;
    case ObstacleShape::sphere:
      half.setConstant(o.radius);
      break;
    case ObstacleShape::box:
      half = o.orientation.toRotationMatrix().cwiseAbs() * o.half_size;
      break;
    case ObstacleShape::cylinder: {  // a disc of normal a spans r sqrt(1 - a_i^2) along axis i
      const Vec3 a = o.orientation * Vec3::UnitZ();
      for (int i = 0; i < 3; ++i)
        half(i) =
            o.half_height * std::abs(a(i)) + o.radius * std::sqrt(std::max(0.0, 1.0 - a(i) * a(i)));
      break;
    }
    case ObstacleShape::triangle:
      lo = o.vertices[0].cwiseMin(o.vertices[1]).cwiseMin(o.vertices[2]);
      hi = o.vertices[0].cwiseMax(o.vertices[1]).cwiseMax(o.vertices[2]);
      return true;
  }
  lo = o.centre - half;
  hi = o.centre + half;
  return true;
}

}  // namespace tendril::vine3d
