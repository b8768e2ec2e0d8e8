#include "tendril/contact/obstacles/rigid_obstacle.hpp"

#include <algorithm>

#include <Eigen/LU>
#include <cmath>

#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"

namespace tendril::contact {
namespace {

/// phi = |d| - radius with d the offset from the nearest point of a point or line; `axis` is the
/// unit direction of the line (zero for a point): d2|d|/dx2 = (I - a a^T - n n^T) / |d|.
SurfaceDistance distance_from_core(const Vec3& d, const Vec3& axis, double radius) {
  SurfaceDistance out;
  const double length = d.norm();
  out.distance = length - radius;
  if (length <= 0.0) return out;  // on the core: direction undefined (deep inside)
  out.normal = d / length;
  out.hessian =
      (Mat3::Identity() - axis * axis.transpose() - out.normal * out.normal.transpose()) / length;
  return out;
}

}  // namespace

Vec3 RigidObstacle::velocity(double t) const {
  if (!path_) return Vec3::Zero();
  constexpr double tau = 1e-6;
  return (path_(t + tau) - path_(t - tau)) / (2.0 * tau);
}

double RigidObstacle::segment_distance(const Vec3& a0, const Vec3& a1, double t) const {
  const auto phi = [&](double s) { return distance(a0 + s * (a1 - a0), t).distance; };
  const double ratio = 0.5 * (std::sqrt(5.0) - 1.0);
  double lo = 0.0, hi = 1.0;
  double s1 = hi - ratio * (hi - lo), s2 = lo + ratio * (hi - lo);
  double f1 = phi(s1), f2 = phi(s2);
  while (hi - lo > 1e-12) {
    if (f1 <= f2) {
      hi = s2, s2 = s1, f2 = f1;
      s1 = hi - ratio * (hi - lo), f1 = phi(s1);
    } else {
      lo = s1, s1 = s2, f1 = f2;
      s2 = lo + ratio * (hi - lo), f2 = phi(s2);
    }
  }
  return std::min({f1, f2, phi(0.0), phi(1.0)});
}

HalfSpace::HalfSpace(const Vec3& point, const Vec3& normal) : point_(point), normal_(normal) {
  if (!point.allFinite()) throw InputError("point", "non-finite", "a finite point [m]");
  if (!normal.allFinite() || normal.norm() == 0.0)
    throw InputError("normal", "zero or non-finite", "a non-zero finite direction");
  normal_.normalize();
}

SurfaceDistance HalfSpace::placed_distance(const Vec3& x) const {
  return {normal_.dot(x - point_), normal_, Mat3::Zero()};
}

Sphere::Sphere(const Vec3& center, double radius) : center_(center), radius_(radius) {
  if (!center.allFinite()) throw InputError("center", "non-finite", "a finite point [m]");
  if (!(radius > 0.0) || !std::isfinite(radius))
    throw InputError("radius", std::to_string(radius), "a finite radius > 0 [m]");
}

SurfaceDistance Sphere::placed_distance(const Vec3& x) const {
  return distance_from_core(x - center_, Vec3::Zero(), radius_);
}

Capsule::Capsule(const Vec3& p0, const Vec3& p1, double radius)
    : p0_(p0), p1_(p1), radius_(radius) {
  if (!p0.allFinite() || !p1.allFinite())
    throw InputError("p0/p1", "non-finite", "finite end points [m]");
  if (!(radius > 0.0) || !std::isfinite(radius))
    throw InputError("radius", std::to_string(radius), "a finite radius > 0 [m]");
}

SurfaceDistance Capsule::placed_distance(const Vec3& x) const {
  const Vec3 axis = p1_ - p0_;
  const double length2 = axis.squaredNorm();
  const double s = length2 > 0.0 ? (x - p0_).dot(axis) / length2 : 0.0;
  // nearest point on the core segment: an end cap (point) or the side (line)
  if (s <= 0.0) return distance_from_core(x - p0_, Vec3::Zero(), radius_);
  if (s >= 1.0) return distance_from_core(x - p1_, Vec3::Zero(), radius_);
  return distance_from_core(x - (p0_ + s * axis), axis / std::sqrt(length2), radius_);
}

Box::Box(const Vec3& center, const Vec3& half_extents, const Mat3& rotation)
    : center_(center), half_extents_(half_extents), rotation_(rotation) {
  if (!center.allFinite()) throw InputError("center", "non-finite", "a finite point [m]");
  if (!half_extents.allFinite() || !(half_extents.minCoeff() > 0.0))
    throw InputError("half_extents", "min " + number_text(half_extents.minCoeff()),
                     "finite half extents > 0 [m]");
  if (!rotation.allFinite() || !(rotation.transpose() * rotation).isIdentity(1e-9) ||
      rotation.determinant() < 0.0)
    throw InputError("rotation", "not a rotation", "a proper rotation");
}

ObstacleCore Box::core() const {
  ObstacleCore out;
  for (int axis = 0; axis < 3; ++axis) {
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    for (double su : {-1.0, 1.0})
      for (double sv : {-1.0, 1.0}) {
        Vec3 end = Vec3::Zero();
        end[u] = su * half_extents_[u];
        end[v] = sv * half_extents_[v];
        end[axis] = half_extents_[axis];
        const Vec3 start = end - 2.0 * half_extents_[axis] * Vec3::Unit(axis);
        out.segments.push_back({center_ + rotation_ * start, center_ + rotation_ * end});
      }
  }
  return out;
}

SurfaceDistance Box::placed_distance(const Vec3& x) const {
  // in box coordinates: p = R^T (x - c), q = |p| - h per axis
  const Vec3 p = rotation_.transpose() * (x - center_);
  const Vec3 q = p.cwiseAbs() - half_extents_;
  SurfaceDistance local;
  if (q.maxCoeff() > 0.0) {
    // outside: distance to the nearest face / edge / corner, o = max(q, 0)
    const Vec3 o = q.cwiseMax(0.0);
    const double length = o.norm();
    Vec3 n;
    Mat3 axes = Mat3::Identity();  // projector onto the axes where the point is outside
    for (int i = 0; i < 3; ++i) {
      n[i] = (p[i] >= 0.0 ? 1.0 : -1.0) * o[i] / length;
      if (q[i] <= 0.0) axes(i, i) = 0.0;
    }
    local = {length, n, (axes - n * n.transpose()) / length};
  } else {
    // inside: the nearest face
    int i = 0;
    q.maxCoeff(&i);
    Vec3 n = Vec3::Zero();
    n[i] = p[i] >= 0.0 ? 1.0 : -1.0;
    local = {q[i], n, Mat3::Zero()};
  }
  return {local.distance, rotation_ * local.normal,
          rotation_ * local.hessian * rotation_.transpose()};
}

}  // namespace tendril::contact
