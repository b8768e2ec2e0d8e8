#include "tendril/vine3d/obstacles.hpp"

#include <algorithm>
#include <cmath>

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

namespace {

/// The point of triangle (a, b, c) closest to x: the vertex, edge or face region that holds x's
/// projection (barycentric coordinates from the dot products of the edges with x - vertex).
Vec3 closest_point_on_triangle(const Vec3& x, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a, ap = x - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0.0 && d2 <= 0.0) return a;
  const Vec3 bp = x - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0.0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return a + d1 / (d1 - d3) * ab;
  const Vec3 cp = x - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0.0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return a + d2 / (d2 - d6) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0)
    return b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b);
  const double denominator = 1.0 / (va + vb + vc);
  return a + ab * (vb * denominator) + ac * (vc * denominator);
}

/// Capped cylinder in its frame: radial distance r and height |z| against radius R and half
/// height H.
double cylinder_distance(const Obstacle3& o, const Vec3& x, Vec3& normal) {
  const Vec3 local = o.orientation.conjugate() * (x - o.centre);
  const double r = local.head<2>().norm();
  const Vec3 radial = r > 0.0 ? Vec3(local.x() / r, local.y() / r, 0.0) : Vec3::UnitX();
  const Vec3 axial(0.0, 0.0, local.z() < 0.0 ? -1.0 : 1.0);
  const double dr = r - o.radius, dh = std::abs(local.z()) - o.half_height;
  double distance = 0.0;
  Vec3 n;
  if (dr > 0.0 && dh > 0.0) {  // beyond the rim
    distance = std::hypot(dr, dh);
    n = (dr * radial + dh * axial) / distance;
  } else if (dr > dh) {  // nearest to the side
    distance = dr;
    n = radial;
  } else {  // nearest to a cap
    distance = dh;
    n = axial;
  }
  normal = o.orientation * n;
  return distance;
}

}  // namespace

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
    case ObstacleShape::cylinder:
      return cylinder_distance(o, x, normal);
    case ObstacleShape::triangle: {
      const auto& v = o.vertices;
      const Vec3 r = x - closest_point_on_triangle(x, v[0], v[1], v[2]);
      const double len = r.norm();
      // on the triangle: the face normal (either side would do)
      normal = len > 0.0 ? Vec3(r / len) : Vec3((v[1] - v[0]).cross(v[2] - v[0]).normalized());
      return len;
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
    case ObstacleShape::box:  // sd(p(s)) is convex: the distance to a convex set
    case ObstacleShape::cylinder:
    case ObstacleShape::triangle: {
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
