#pragma once
/// Fixed planar obstacles and their signed distance Phi and outward normal n (vine paper, II-D;
/// docs/physics/vine.md#obstacles). Every obstacle is either a half-plane or a convex polygon
/// "core" inflated by a corner radius rho (rho >= 0): a circle is a one-vertex core, a wall segment
/// (capsule) a two-vertex core, a box or convex polygon three or more vertices. The distance
/// functions are templates so the step derivatives can differentiate them (Eigen AutoDiff).

#include <cmath>
#include <string>
#include <vector>

#include "tendril/core/types.hpp"

namespace tendril::vine {

enum class ObstacleKind {
  half_plane,       ///< {p : n . (p - a) <= 0}: an infinite wall
  rounded_polygon,  ///< points within rho of a convex polygon core
};

struct Obstacle {
  ObstacleKind kind = ObstacleKind::rounded_polygon;
  std::string name;  ///< for messages ("obstacles[2]")
  std::vector<Vec2>
      vertices;  ///< core polygon, counter-clockwise [m] (#vertices >= 1); half-plane: {a}
  Vec2 normal = Vec2::UnitY();  ///< half-plane outward unit normal n
  double corner_radius = 0.0;   ///< rho [m]
};

/// A circle of radius r [m] centred at c [m].
Obstacle make_circle(const Vec2& centre, double radius);
/// A half-plane wall through `point` whose free side is along the unit `outward_normal`.
Obstacle make_half_plane(const Vec2& point, const Vec2& outward_normal);
/// A wall segment a-b with half thickness `radius` [m] (a capsule).
Obstacle make_segment(const Vec2& a, const Vec2& b, double radius);
/// A box of outer size `size` (width, height) [m] centred at `centre`, rotated by `angle` [rad],
/// whose corners are rounded with `corner_radius` [m] (the outer size is kept).
Obstacle make_box(const Vec2& centre, const Vec2& size, double angle, double corner_radius);
/// A convex polygon (vertices in either orientation) inflated by `corner_radius` [m].
/// Throws InputError at `key` if the polygon is not convex.
Obstacle make_polygon(std::vector<Vec2> vertices, double corner_radius, const std::string& key);

/// Signed distance Phi(p) [m] from point p to the obstacle surface (negative inside) and the
/// outward unit normal n = dPhi/dp at p.
template <class S>
S signed_distance(const Obstacle& o, const Eigen::Matrix<S, 2, 1>& p, Eigen::Matrix<S, 2, 1>& n) {
  using std::sqrt;
  using V2 = Eigen::Matrix<S, 2, 1>;
  if (o.kind == ObstacleKind::half_plane) {
    n = o.normal.cast<S>();
    return n.dot(p - o.vertices[0].cast<S>());
  }
  const int nv = static_cast<int>(o.vertices.size());
  const S rho(o.corner_radius);
  if (nv == 1) {
    const V2 d = p - o.vertices[0].cast<S>();
    const S r = sqrt(d.squaredNorm());
    n = r > 0.0 ? V2(d / r) : V2(Vec2::UnitY().cast<S>());  // any unit normal at the centre
    return r - rho;
  }
  // outside the core: distance to the closest boundary point; inside: the least-negative edge
  // distance
  bool inside = nv >= 3;
  S best_face = S(-1e300);
  V2 best_face_normal = V2::Zero();
  for (int e = 0; e < nv && nv >= 3; ++e) {
    const Vec2 a = o.vertices[e], b = o.vertices[(e + 1) % nv];
    const Vec2 t = (b - a).normalized();
    const V2 ne = Vec2(t.y(), -t.x()).cast<S>();
    const S h = ne.dot(p - a.cast<S>());
    if (h > 0.0) inside = false;
    if (h > best_face) {
      best_face = h;
      best_face_normal = ne;
    }
  }
  if (inside) {
    n = best_face_normal;
    return best_face - rho;
  }
  S best = S(1e300);
  V2 best_d = V2::Zero();
  const int num_edges = nv == 2 ? 1 : nv;
  for (int e = 0; e < num_edges; ++e) {
    const V2 a = o.vertices[e].cast<S>(), b = o.vertices[(e + 1) % nv].cast<S>();
    const V2 ab = b - a;
    S s = (p - a).dot(ab) / ab.squaredNorm();
    if (s < 0.0) s = S(0.0);
    if (s > 1.0) s = S(1.0);
    const V2 d = p - (a + s * ab);
    const S dist2 = d.squaredNorm();
    if (dist2 < best) {
      best = dist2;
      best_d = d;
    }
  }
  const S r = sqrt(best);
  n = r > 0.0 ? V2(best_d / r)
              : V2(Vec2::UnitY().cast<S>());  // any unit normal on a degenerate core
  return r - rho;
}

}  // namespace tendril::vine
