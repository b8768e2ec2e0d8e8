#pragma once
/// Rigid, fixed obstacles of the 3D vine and the distance of a body's axis segment to them
/// (docs/physics/vine3d.md#contact). Spheres, half-spaces, oriented boxes, finite capped cylinders
/// and triangles (of meshes, obj_mesh.hpp); a body is the segment p + s e, |s| <= d, of its axis,
/// inflated by the contact radius (a capsule).

#include <array>
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

/// Signed distance of point x to the obstacle [m] (< 0 inside) and, in `normal`, its outward unit
/// gradient.
double signed_distance(const Obstacle3& o, const Vec3& x, Vec3& normal);

/// The offset s in [-d, d] of the point of the segment p + s e closest to the obstacle (smallest
/// signed distance, exact for spheres and half-spaces, a golden-section search of the convex
/// distance for boxes, cylinders and triangles to 1e-12 d)
/// and, in `distance`, that signed distance [m].
double closest_offset(const Obstacle3& o, const Vec3& centre, const Vec3& axis, double half_length,
                      double& distance);

}  // namespace tendril::vine3d
