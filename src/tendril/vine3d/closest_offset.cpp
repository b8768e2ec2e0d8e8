// The point of a body's axis segment p + s e, |s| <= d, nearest an obstacle: the minimiser of the
// convex signed distance f(s) = sd(p + s e) (docs/physics/vine3d.md#contact), in closed form where
// one exists and by bisection on the slope's sign where not (a cylinder's rim).
#include <algorithm>
#include <array>
#include <cmath>

#include "tendril/contact/distance/edge_edge_distance.hpp"
#include "tendril/vine3d/obstacles.hpp"

namespace tendril::vine3d {

namespace {

/// A segment in an obstacle's frame: the centre P and the unit direction E.
struct LocalSegment {
  Vec3 p, e;
};

LocalSegment to_frame(const Obstacle3& o, const Vec3& centre, const Vec3& axis) {
  const Quat inverse = o.orientation.conjugate();
  return {inverse * (centre - o.centre), inverse * axis};
}

/// Bisection on the sign of the slope n(p(s)) . e of the convex f to the round-off of s (52
/// halvings; a search on the values would stop near sqrt(machine epsilon) relative, where they no
/// longer differ), then the ends.
double bisect_slope(const Obstacle3& o, const Vec3& centre, const Vec3& axis, double d) {
  Vec3 normal;
  const auto sd = [&](double s) { return signed_distance(o, Vec3(centre + s * axis), normal); };
  double lo = -d, hi = d;
  while (hi - lo > 4e-16 * d) {
    const double mid = 0.5 * (lo + hi);
    sd(mid);
    (normal.dot(axis) > 0.0 ? hi : lo) = mid;
  }
  double s = 0.5 * (lo + hi);
  for (const double end : {-d, d})
    if (sd(end) < sd(s)) s = end;
  return s;
}

/// Cylinder: f >= max(dr(s), dh(s)) with dr = rho - R (rho the distance to the axis) and
/// dh = |z| - H. s_r minimises dr (two lines, clamped) and s_h minimises dh; a candidate where f
/// equals its own lower bound (beside the side, or over a cap) is the minimiser. Only a segment
/// whose nearest point is beyond the rim (f = hypot(dr, dh) there) is left to the bisection.
double cylinder_offset(const Obstacle3& o, const Vec3& centre, const Vec3& axis, double d) {
  const LocalSegment x = to_frame(o, centre, axis);
  const double bb = x.e.head<2>().squaredNorm(), ez = x.e.z();
  // dr flat (along the axis) or dh flat (across it): any s minimises it, the other's minimiser
  const double s_r0 = bb > 0.0 ? std::clamp(-x.p.head<2>().dot(x.e.head<2>()) / bb, -d, d) : 0.0;
  const double s_h = ez != 0.0 ? std::clamp(-x.p.z() / ez, -d, d) : s_r0;
  const double s_r = bb > 0.0 ? s_r0 : s_h;
  const auto gaps = [&](double s, double& dr, double& dh) {
    dr = (x.p.head<2>() + s * x.e.head<2>()).norm() - o.radius;
    dh = std::abs(x.p.z() + s * ez) - o.half_height;
  };
  double dr, dh;
  gaps(s_r, dr, dh);
  if (dr >= dh && !(dr > 0.0 && dh > 0.0)) return s_r;  // f(s_r) = dr(s_r) = min dr
  gaps(s_h, dr, dh);
  if (dh >= dr && !(dr > 0.0 && dh > 0.0)) return s_h;  // f(s_h) = dh(s_h) = min dh
  return bisect_slope(o, centre, axis, d);
}

/// Box, inside: in its frame with l(s) = P + s E, g(s) = max_i (|l_i| - h_i), the largest of six
/// lines, is at most f and equals it where g <= 0. Its minimum is at an end or where a rising (or
/// flat) line meets a falling (or flat) one: returns that s and, in `least`, g there.
double box_inside_offset(const LocalSegment& x, const Vec3& h, double d, double& least) {
  const auto g = [&](double s) { return ((x.p + s * x.e).cwiseAbs() - h).maxCoeff(); };
  double best_s = g(-d) <= g(d) ? -d : d;
  least = g(best_s);
  for (int i = 0; i < 3; ++i) {
    const double si = x.e(i) >= 0.0 ? 1.0 : -1.0;  // si l_i - h_i rises (or is flat)
    for (int j = 0; j < 3; ++j)
      for (const double sj : {-1.0, 1.0}) {
        const double slope = si * x.e(i) - sj * x.e(j);
        if (!(slope > 0.0) || sj * x.e(j) > 0.0) continue;  // sj l_j - h_j must fall (or be flat)
        const double s = (sj * x.p(j) - h(j) - si * x.p(i) + h(i)) / slope;
        const double value = std::abs(s) < d ? g(s) : HUGE_VAL;
        if (value < least) {
          least = value;
          best_s = s;
        }
      }
  }
  return best_s;
}

/// Box, outside: f^2 = sum_i max(|l_i| - h_i, 0)^2 is convex, C^1 and quadratic between the
/// breakpoints l_i = +-h_i; its slope (piecewise linear, nondecreasing) changes sign in one piece,
/// where the piece's linear equation gives s.
double box_outside_offset(const LocalSegment& x, const Vec3& h, double d) {
  const auto half_slope = [&](double s) {  // sum_i E_i (l_i - clamp(l_i, -h_i, h_i))
    const Vec3 l = x.p + s * x.e;
    return x.e.dot(l - l.cwiseMax(-h).cwiseMin(h));
  };
  if (half_slope(-d) >= 0.0) return -d;
  std::array<double, 7> knots;  // -d, the breakpoints inside (-d, d), then d (repeated)
  knots.fill(d);
  knots[0] = -d;
  for (int i = 0; i < 3; ++i)
    for (const double side : {-1.0, 1.0}) {
      const double s = x.e(i) != 0.0 ? (side * h(i) - x.p(i)) / x.e(i) : d;
      if (std::abs(s) < d) knots[1 + 2 * i + (side > 0.0)] = s;
    }
  std::sort(knots.begin(), knots.end());
  for (int k = 1; k < 7; ++k) {
    if (half_slope(knots[k]) < 0.0) continue;
    // the piece (knots[k - 1], knots[k]): the coordinates outside their slab there are fixed
    const Vec3 l = x.p + 0.5 * (knots[k - 1] + knots[k]) * x.e;
    double num = 0.0, den = 0.0;
    for (int i = 0; i < 3; ++i)
      if (std::abs(l(i)) > h(i)) {
        const double side = l(i) > 0.0 ? 1.0 : -1.0;
        num += x.e(i) * (x.p(i) - side * h(i));
        den += x.e(i) * x.e(i);
      }
    return den > 0.0 ? std::clamp(-num / den, knots[k - 1], knots[k]) : knots[k];
  }
  return d;
}

/// Box: if min g <= 0 its minimiser is f's (f >= g everywhere, equal there); else the segment is
/// outside the box.
double box_offset(const Obstacle3& o, const Vec3& centre, const Vec3& axis, double d) {
  const LocalSegment x = to_frame(o, centre, axis);
  double least = 0.0;
  const double s = box_inside_offset(x, o.half_size, d, least);
  return least <= 0.0 ? s : box_outside_offset(x, o.half_size, d);
}

/// Triangle (unsigned distance): where the segment meets the triangle f = 0 (the plane's
/// crossing); otherwise the nearest pair has an end of the segment or a point of an edge
/// (Ericson, Real-Time Collision Detection, 5.1.10): the candidates are the ends, the plane's
/// crossing and the segment's points nearest each edge, the least f of them the minimiser.
double triangle_offset(const Obstacle3& o, const Vec3& centre, const Vec3& axis, double d) {
  const auto& v = o.vertices;
  std::array<double, 6> candidates{-d, d};
  int count = 2;
  const Vec3 normal = (v[1] - v[0]).cross(v[2] - v[0]);
  const double rate = normal.dot(axis);
  if (rate != 0.0) {
    const double s = normal.dot(v[0] - centre) / rate;
    if (std::abs(s) < d) candidates[count++] = s;
  }
  const Vec3 start = centre - d * axis, end = centre + d * axis;
  for (int k = 0; k < 3; ++k)
    candidates[count++] =
        -d + 2.0 * d * contact::segment_closest_points(start, end, v[k], v[(k + 1) % 3]).s;
  Vec3 unused;
  double best_s = 0.0, best = HUGE_VAL;
  for (int k = 0; k < count; ++k) {
    const double f = signed_distance(o, Vec3(centre + candidates[k] * axis), unused);
    if (f < best) {
      best = f;
      best_s = candidates[k];
    }
  }
  return best_s;
}

}  // namespace

double closest_offset(const Obstacle3& o, const Vec3& centre, const Vec3& axis, double half_length,
                      double& distance) {
  double s = 0.0;
  switch (o.shape) {
    case ObstacleShape::sphere:
      s = std::clamp((o.centre - centre).dot(axis), -half_length, half_length);
      break;
    case ObstacleShape::half_space:  // sd is linear in s: the end with the smaller n . e s
      s = o.normal.dot(axis) < 0.0 ? half_length : -half_length;
      break;
    case ObstacleShape::box:
      s = box_offset(o, centre, axis, half_length);
      break;
    case ObstacleShape::cylinder:
      s = cylinder_offset(o, centre, axis, half_length);
      break;
    case ObstacleShape::triangle:
      s = triangle_offset(o, centre, axis, half_length);
      break;
  }
  Vec3 normal;
  distance = signed_distance(o, Vec3(centre + s * axis), normal);
  return s;
}

}  // namespace tendril::vine3d
