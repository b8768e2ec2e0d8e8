#pragma once
/// Rigid, fixed obstacles of the 3D vine and the distance of a body's axis segment to them
/// (docs/physics/vine3d.md#contact). Spheres, half-spaces, oriented boxes, finite capped cylinders
/// and triangles (of meshes, obj_mesh.hpp); a body is the segment p + s e, |s| <= d, of its axis,
/// inflated by the contact radius (a capsule).

#include <array>
#include <cmath>
#include <string>

#include "tendril/core/types.hpp"
#include "tendril/vine3d/rotation.hpp"

namespace tendril::vine3d {

enum class ObstacleShape { sphere, half_space, box, cylinder, triangle };

struct Obstacle3 {
  ObstacleShape shape = ObstacleShape::sphere;
  Vec3 centre = Vec3::Zero();     ///< sphere and box centre; a point on the half-space's plane [m]
  Vec3 normal = Vec3::UnitZ();    ///< half-space: outward unit normal (solid where n . (x - c) < 0)
  double radius = 0.0;            ///< sphere and cylinder radius [m]
  Vec3 half_size = Vec3::Zero();  ///< box half extents along its axes [m]
  double half_height = 0.0;       ///< cylinder: half its length along its axis [m]
  /// box axes (box to world); a cylinder's axis is orientation * e_z
  Quat orientation = Quat::Identity();
  /// triangle corners [m] (a triangle has no inside: its distance is unsigned)
  std::array<Vec3, 3> vertices{Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};
  std::string name;  ///< key path in the scene, for messages
};

/// A sphere of radius r [m] centred at c [m].
Obstacle3 make_sphere(const Vec3& centre, double radius);
/// The half-space below the plane through `point` with outward normal `normal` (normalised).
Obstacle3 make_half_space(const Vec3& point, const Vec3& normal);
/// A box of half extents `half_size` [m] centred at `centre`, its axes rotated by `orientation`.
Obstacle3 make_box(const Vec3& centre, const Vec3& half_size, const Quat& orientation);

/// A solid cylinder with flat caps: radius r [m], axis through `centre` along `axis` (normalised),
/// half length `half_height` [m] along it.
Obstacle3 make_cylinder(const Vec3& centre, const Vec3& axis, double radius, double half_height);
/// The triangle a, b, c [m].
Obstacle3 make_triangle(const Vec3& a, const Vec3& b, const Vec3& c);

/// The axis-aligned box [lo, hi] [m] holding the obstacle; false for a half-space (unbounded).
bool obstacle_bounds(const Obstacle3& o, Vec3& lo, Vec3& hi);

/// The point of triangle (a, b, c) closest to x: the vertex, edge or face region that holds x's
/// projection (barycentric coordinates from the dot products of the edges with x - vertex).
template <class S>
Vec3T<S> closest_point_on_triangle(const Vec3T<S>& x, const Vec3& a_in, const Vec3& b_in,
                                   const Vec3& c_in) {
  const Vec3T<S> a = a_in.cast<S>(), b = b_in.cast<S>(), c = c_in.cast<S>();
  const Vec3T<S> ab = b - a, ac = c - a, ap = x - a;
  const S d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0.0 && d2 <= 0.0) return a;
  const Vec3T<S> bp = x - b;
  const S d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0.0 && d4 <= d3) return b;
  const S vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return a + d1 / (d1 - d3) * ab;
  const Vec3T<S> cp = x - c;
  const S d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0.0 && d5 <= d6) return c;
  const S vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return a + d2 / (d2 - d6) * ac;
  const S va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0)
    return b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b);
  const S denominator = 1.0 / (va + vb + vc);
  return a + ab * (vb * denominator) + ac * (vc * denominator);
}

/// Capped cylinder in its frame: radial distance r and height |z| against radius R and half
/// height H.
template <class S>
S cylinder_distance(const Obstacle3& o, const Vec3T<S>& x, Vec3T<S>& normal) {
  using std::abs;
  using std::sqrt;
  const QuatT<S> frame = o.orientation.cast<S>();
  const Vec3T<S> local = frame.conjugate() * (x - o.centre.cast<S>());
  const S r2 = local.template head<2>().squaredNorm();
  const S r = r2 > 0.0 ? S(sqrt(r2)) : S(0.0);
  const Vec3T<S> radial =
      r > 0.0 ? Vec3T<S>(local.x() / r, local.y() / r, S(0.0)) : Vec3T<S>(Vec3::UnitX().cast<S>());
  const Vec3T<S> axial(S(0.0), S(0.0), S(local.z() < 0.0 ? -1.0 : 1.0));
  const S dr = r - o.radius, dh = abs(local.z()) - o.half_height;
  S distance;
  Vec3T<S> n;
  if (dr > 0.0 && dh > 0.0) {  // beyond the rim
    distance = sqrt(dr * dr + dh * dh);
    n = (dr * radial + dh * axial) / distance;
  } else if (dr > dh) {  // nearest to the side
    distance = dr;
    n = radial;
  } else {  // nearest to a cap
    distance = dh;
    n = axial;
  }
  normal = frame * n;
  return distance;
}

/// Signed distance of point x to the obstacle [m] (< 0 inside) and, in `normal`, its outward unit
/// gradient; on a scalar S (double, or AutoDiff for the step derivatives).
template <class S>
S signed_distance(const Obstacle3& o, const Vec3T<S>& x, Vec3T<S>& normal) {
  using std::sqrt;
  switch (o.shape) {
    case ObstacleShape::sphere: {
      const Vec3T<S> r = x - o.centre.cast<S>();
      const S len2 = r.squaredNorm();
      if (!(len2 > 0.0)) {
        normal = Vec3::UnitZ().cast<S>();
        return S(-o.radius);
      }
      const S len = sqrt(len2);
      normal = r / len;
      return len - o.radius;
    }
    case ObstacleShape::half_space:
      normal = o.normal.cast<S>();
      return normal.dot(x - o.centre.cast<S>());
    case ObstacleShape::box: {
      const QuatT<S> frame = o.orientation.cast<S>();
      const Vec3T<S> local = frame.conjugate() * (x - o.centre.cast<S>());
      Vec3T<S> q, out;
      int k = 0;  // the nearest face from inside
      for (int i = 0; i < 3; ++i) {
        const S sign(local(i) < 0.0 ? -1.0 : 1.0);
        q(i) = sign * local(i) - o.half_size(i);
        out(i) = q(i) > 0.0 ? S(q(i) * sign) : S(0.0);
        if (q(i) > q(k)) k = i;
      }
      if (q(k) > 0.0) {  // outside: distance to the nearest point of the box
        const S len = sqrt(out.squaredNorm());
        normal = frame * Vec3T<S>(out / len);
        return len;
      }
      normal = frame * Vec3T<S>(Vec3::Unit(k).cast<S>() * S(local(k) < 0.0 ? -1.0 : 1.0));
      return q(k);
    }
    case ObstacleShape::cylinder:
      return cylinder_distance(o, x, normal);
    case ObstacleShape::triangle: {
      const auto& v = o.vertices;
      const Vec3T<S> r = x - closest_point_on_triangle(x, v[0], v[1], v[2]);
      const S len2 = r.squaredNorm();
      // on the triangle: the face normal (either side would do)
      if (!(len2 > 0.0)) {
        normal = (v[1] - v[0]).cross(v[2] - v[0]).normalized().cast<S>();
        return S(0.0);
      }
      const S len = sqrt(len2);
      normal = r / len;
      return len;
    }
  }
  return S(0.0);
}
inline double signed_distance(const Obstacle3& o, const Vec3& x, Vec3& normal) {
  return signed_distance<double>(o, x, normal);
}

/// The offset s in [-d, d] of the point of the segment p + s e closest to the obstacle (smallest
/// signed distance, to round-off: closed forms for spheres, half-spaces, boxes and triangles and
/// for cylinders beside their side or over a cap, a bisection on the sign of the convex distance's
/// slope n . e, to 4e-16 d, across a cylinder's rim; closest_offset.cpp)
/// and, in `distance`, that signed distance [m].
double closest_offset(const Obstacle3& o, const Vec3& centre, const Vec3& axis, double half_length,
                      double& distance);

}  // namespace tendril::vine3d
