#pragma once
/// Minimum distance between two segments and its derivatives (mat_dismech sec. 4: Delta of a
/// contact pair, "Lumelsky's algorithm"; derivation in docs/physics/contact.md, "Edge-edge
/// distance").
///
/// Segments A(s) = a0 + s (a1 - a0) and B(t) = b0 + t (b1 - b0), s, t in [0, 1]; the stencil is
/// x = [a0, a1, b0, b1] (12). Delta(x) = min_{s,t} |A(s) - B(t)|. The closest parameters decide the
/// regime: both interior (edge-edge), one at an end (point-edge), both at ends (point-point).
/// Derivatives follow from the closest-point conditions by the implicit function theorem, with the
/// parameters at an end held fixed; this one formula covers every regime.

#include "tendril/core/types.hpp"

namespace tendril::contact {

using Vec12 = VecN<12>;
using Mat12 = MatN<12>;

/// Which closest-point parameters lie strictly inside their segment.
enum class DistanceRegime { point_point, point_edge, edge_point, edge_edge };

/// The closest points of two segments.
struct SegmentClosestPoints {
  double s = 0.0;         ///< parameter of the closest point on A [-]
  double t = 0.0;         ///< parameter of the closest point on B [-]
  bool s_free = false;    ///< s strictly inside (0, 1) and A not degenerate
  bool t_free = false;    ///< t strictly inside (0, 1) and B not degenerate
  Vec3 w = Vec3::Zero();  ///< A(s) - B(t) [m]
  double distance = 0.0;  ///< Delta = |w| [m]
  DistanceRegime regime() const;
};

/// Closest points of the segments [a0, a1] and [b0, b1] (positions [m]). Robust for crossing,
/// parallel (sin^2 of the angle below 1e-12: the parameter of A is clamped to an end, so the
/// regime is point-edge or point-point), collinear and zero-length segments.
SegmentClosestPoints segment_closest_points(const Vec3& a0, const Vec3& a1, const Vec3& b0,
                                            const Vec3& b1);

/// Delta and its derivatives with respect to x = [a0, a1, b0, b1].
struct EdgeEdgeDistance {
  SegmentClosestPoints closest;
  Vec12 gradient = Vec12::Zero();     ///< dDelta/dx [-] (12)
  Mat12 hessian = Mat12::Zero();      ///< d2Delta/dx2 [1/m] (12 x 12), filled if requested
  VecN<12> ds_dx = VecN<12>::Zero();  ///< ds/dx [1/m] (zero when s is at an end)
  VecN<12> dt_dx = VecN<12>::Zero();  ///< dt/dx [1/m] (zero when t is at an end)
};

/// Delta, its gradient and (if with_hessian) Hessian. At Delta = 0 (segments touch) the direction
/// is undefined: the gradient and Hessian are returned as zero.
EdgeEdgeDistance edge_edge_distance(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1,
                                    bool with_hessian = true);

}  // namespace tendril::contact
