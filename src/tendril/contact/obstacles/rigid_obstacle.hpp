#pragma once
/// Rigid obstacles (ground plane, sphere, capsule, box) as signed distance functions phi(x, t) [m]
/// (negative inside), fixed or translated along a prescribed path. Contact and friction with them
/// act on nodes and on edges through the obstacle's core (obstacle_contact.hpp,
/// obstacle_friction.hpp); docs/physics/contact.md, "Obstacles".

#include <array>
#include <functional>
#include <limits>
#include <memory>
#include <string_view>
#include <vector>

#include "tendril/core/types.hpp"

namespace tendril::contact {

/// phi at a point and its first two derivatives.
struct SurfaceDistance {
  double distance = 0.0;        ///< phi [m], negative inside the obstacle
  Vec3 normal = Vec3::Zero();   ///< dphi/dx [-], the unit outward normal
  Mat3 hessian = Mat3::Zero();  ///< d2phi/dx2 [1/m]
};

/// The segments an obstacle is the `radius` [m] neighbourhood of (placed, end points [m]), for the
/// distance of an edge: a sphere is one point (a zero-length segment), a capsule its axis; a box is
/// its 12 edges with radius 0 (a segment whose ends are outside a box first reaches it at one of
/// its edges); a half-space has none (a segment first reaches a plane at one of its ends).
struct ObstacleCore {
  std::vector<std::array<Vec3, 2>> segments;
  double radius = 0.0;  ///< [m]
};

/// Displacement d(t) [m] of an obstacle from its placement at time t [s].
using ObstaclePath = std::function<Vec3(double t)>;

class RigidObstacle {
 public:
  virtual ~RigidObstacle() = default;
  /// "plane", "sphere", "capsule" or "box".
  virtual std::string_view shape() const = 0;
  /// phi(x, t) = phi_0(x - d(t)) with phi_0 the distance of the obstacle at its placement.
  SurfaceDistance distance(const Vec3& x, double t) const {
    return placed_distance(x - displacement(t));
  }
  /// d(t) [m]; zero for a fixed obstacle.
  Vec3 displacement(double t) const { return path_ ? path_(t) : Vec3::Zero(); }
  /// dd/dt [m/s]: central difference of the path over +-1e-6 s (exact for the piecewise-linear
  /// paths of scenes except within 1e-6 s of a corner).
  Vec3 velocity(double t) const;
  /// Moves the obstacle along d(t) (translation only).
  void set_path(ObstaclePath path) { path_ = std::move(path); }
  /// The core at the placement (see ObstacleCore); translate by d(t).
  virtual ObstacleCore core() const = 0;
  /// The radius of the largest ball inside the obstacle [m] (infinite for a half-space): a point
  /// deeper than this has passed its middle.
  virtual double inradius() const = 0;
  /// min phi over the segment [a0, a1] [m] at time t [s]: golden-section search of phi along it
  /// (phi of a convex obstacle is convex along a line) to 1e-12 of the segment's length.
  double segment_distance(const Vec3& a0, const Vec3& a1, double t) const;

 protected:
  /// phi_0 and its derivatives at x [m] (obstacle at its placement).
  virtual SurfaceDistance placed_distance(const Vec3& x) const = 0;

 private:
  ObstaclePath path_;
};

/// A half-space below the plane through `point` [m] with outward unit `normal` (normalised here);
/// phi = normal . (x - point). The ground is the plane z = 0 with normal +z.
class HalfSpace final : public RigidObstacle {
 public:
  HalfSpace(const Vec3& point, const Vec3& normal);
  std::string_view shape() const override { return "plane"; }
  ObstacleCore core() const override { return {}; }
  double inradius() const override { return std::numeric_limits<double>::infinity(); }

 private:
  SurfaceDistance placed_distance(const Vec3& x) const override;
  Vec3 point_, normal_;
};

/// A ball of `radius` R [m] about `center` [m]: phi = |x - c| - R.
class Sphere final : public RigidObstacle {
 public:
  Sphere(const Vec3& center, double radius);
  std::string_view shape() const override { return "sphere"; }
  ObstacleCore core() const override { return {{{center_, center_}}, radius_}; }
  double inradius() const override { return radius_; }

 private:
  SurfaceDistance placed_distance(const Vec3& x) const override;
  Vec3 center_;
  double radius_;
};

/// A capsule (a cylinder with hemispherical caps) of `radius` R [m] about the segment [p0, p1] [m]:
/// phi = dist(x, segment) - R. A long capsule is a cylinder away from its caps.
class Capsule final : public RigidObstacle {
 public:
  Capsule(const Vec3& p0, const Vec3& p1, double radius);
  std::string_view shape() const override { return "capsule"; }
  ObstacleCore core() const override { return {{{p0_, p1_}}, radius_}; }
  double inradius() const override { return radius_; }

 private:
  SurfaceDistance placed_distance(const Vec3& x) const override;
  Vec3 p0_, p1_;
  double radius_;
};

/// A box with `half_extents` h [m] along the columns of `rotation` (world axes of the box), centred
/// at `center` [m]. Outside: distance to the nearest face, edge or corner; inside: minus the
/// distance to the nearest face (its Hessian is zero there).
class Box final : public RigidObstacle {
 public:
  Box(const Vec3& center, const Vec3& half_extents, const Mat3& rotation = Mat3::Identity());
  std::string_view shape() const override { return "box"; }
  ObstacleCore core() const override;
  double inradius() const override { return half_extents_.minCoeff(); }

 private:
  SurfaceDistance placed_distance(const Vec3& x) const override;
  Vec3 center_, half_extents_;
  Mat3 rotation_;
};

}  // namespace tendril::contact
