#pragma once
/// Points evenly spaced by arc length along a planar polyline, and their derivative with respect to
/// the polyline's vertices: how a video tracker's "P points evenly spaced along the robot" are
/// compared with a simulated centre line (vine paper eq. 16, the observation p(q_i)).

#include "tendril/core/types.hpp"

namespace tendril::fit {

/// P points at arc lengths s_k = k L / (P - 1), k = 0 .. P-1, along the polyline c_0 .. c_{m-1}
/// (L its length), with d(points)/d(vertices).
struct ResampledPolyline {
  MatX points;    ///< (P x 2) [m]
  MatX jacobian;  ///< d vec(points) / d vec(vertices) (2P x 2m), row 2k + c = component c of point k
};

/// vertices: (m x 2), m >= 2, with no zero-length segment; points >= 2.
ResampledPolyline resample_polyline(const MatX& vertices, int points);

}  // namespace tendril::fit
