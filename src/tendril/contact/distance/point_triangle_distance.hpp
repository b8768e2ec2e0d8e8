#pragma once
/// Minimum distance between a point and a triangle and its derivatives (the point-triangle pairs of
/// shell contact; Delta of mat_dismech eq. 21 for a node against a triangle; derivation in
/// docs/physics/contact.md, "Point-triangle distance").
///
/// Point p, triangle (t0, t1, t2); the stencil is x = [p, t0, t1, t2] (12). Delta(x) = min over the
/// triangle of |p - T(y)|. The closest point decides the regime: inside the face (two free
/// parameters), on an edge (one) or at a vertex (none). The derivatives come from the closest-point
/// conditions by the implicit function theorem with the same formula for every regime, as for the
/// edge-edge distance (distance/edge_edge_distance.hpp).

#include "tendril/contact/distance/edge_edge_distance.hpp"

namespace tendril::contact {

/// Where the closest point of the triangle lies.
enum class TriangleRegime { face, edge, vertex };

/// The closest point of a triangle to a point.
struct TriangleClosestPoint {
  Vec3 barycentric = Vec3::Zero();  ///< weights (b0, b1, b2) of t0, t1, t2, summing to 1 [-]
  TriangleRegime regime = TriangleRegime::vertex;
  int feature = 0;  ///< edge regime: the edge (feature, feature + 1 mod 3); vertex: the vertex
  Vec3 w = Vec3::Zero();  ///< p - T(closest) [m]
  double distance = 0.0;  ///< Delta = |w| [m]
};

/// Closest point of the triangle (t0, t1, t2) to p (positions [m]). The face regime is the
/// projection strictly inside the triangle; otherwise the nearest of the three edges, its end
/// points being the vertex regime. A degenerate triangle (area below 1e-12 of its squared size)
/// has no face regime.
TriangleClosestPoint point_triangle_closest_point(const Vec3& p, const Vec3& t0, const Vec3& t1,
                                                  const Vec3& t2);

/// Delta and its derivatives with respect to x = [p, t0, t1, t2].
struct PointTriangleDistance {
  TriangleClosestPoint closest;
  Vec12 gradient = Vec12::Zero();  ///< dDelta/dx [-] (12)
  Mat12 hessian = Mat12::Zero();   ///< d2Delta/dx2 [1/m] (12 x 12), filled if requested
  /// d(b0, b1, b2)/dx [1/m] (3 x 12), the motion of the closest point's barycentric weights (zero
  /// in the vertex regime), filled if the Hessian is
  Eigen::Matrix<double, 3, 12> dbarycentric_dx = Eigen::Matrix<double, 3, 12>::Zero();
};

/// Delta, its gradient and (if with_hessian) Hessian. At Delta = 0 (the point lies on the
/// triangle) the gradient and Hessian are returned as zero.
PointTriangleDistance point_triangle_distance(const Vec3& p, const Vec3& t0, const Vec3& t1,
                                              const Vec3& t2, bool with_hessian = true);

}  // namespace tendril::contact
