#pragma once
/// Points evenly spaced by arc length along a planar polyline, and their derivative with respect to
/// the polyline's vertices: how a video tracker's "P points evenly spaced along the robot" are
/// compared with a simulated centre line (vine paper eq. 16, the observation p(q_i)). A template on
/// the scalar, so that forward AutoDiff of the exact Jacobian gives the second derivatives.

#include <vector>

#include "tendril/core/error.hpp"
#include "tendril/core/types.hpp"

namespace tendril::fit {

/// P points at arc lengths s_k = k L / (P - 1), k = 0 .. P-1, along the polyline c_0 .. c_{m-1}
/// (L its length), with d(points)/d(vertices).
template <class S>
struct BasicResampledPolyline {
  using Mat = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;
  Mat points;    ///< (P x 2) [m]
  Mat jacobian;  ///< d vec(points) / d vec(vertices) (2P x 2m), row 2k + c = component c of point k
};
using ResampledPolyline = BasicResampledPolyline<double>;

/// vertices: (m x 2), m >= 2, with no zero-length segment; points >= 2.
template <class S>
BasicResampledPolyline<S> resample_polyline(
    const Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>& vertices, int points) {
  using std::sqrt;
  using V2 = Eigen::Matrix<S, 2, 1>;
  using Row = Eigen::Matrix<S, 1, Eigen::Dynamic>;
  const int m = static_cast<int>(vertices.rows());
  TENDRIL_ASSERT(m >= 2 && vertices.cols() == 2 && points >= 2,
                 "a polyline of 2D vertices and >= 2 points");
  // segment lengths l_j and unit directions e_j; cumulative lengths a_j = l_0 + .. + l_{j-1}
  std::vector<S> length(m - 1), start(m, S(0.0));
  std::vector<V2> direction(m - 1);
  for (int j = 0; j + 1 < m; ++j) {
    const V2 d = vertices.row(j + 1).transpose() - vertices.row(j).transpose();
    length[j] = sqrt(d.squaredNorm());
    TENDRIL_ASSERT(length[j] > 0.0, "no zero-length segment");
    direction[j] = d / length[j];
    start[j + 1] = start[j] + length[j];
  }
  const S total = start[m - 1];

  BasicResampledPolyline<S> out;
  out.points.resize(points, 2);
  out.jacobian = BasicResampledPolyline<S>::Mat::Zero(2 * points, 2 * m);
  // dL/dc: each segment's length changes by -e_j at c_j and +e_j at c_{j+1}
  Row dtotal = Row::Zero(2 * m);
  for (int j = 0; j + 1 < m; ++j) {
    dtotal.template segment<2>(2 * j) -= direction[j].transpose();
    dtotal.template segment<2>(2 * j + 2) += direction[j].transpose();
  }
  int j = 0;
  for (int k = 0; k < points; ++k) {
    const double f = static_cast<double>(k) / (points - 1);
    const S s = f * total;
    while (j + 2 < m && start[j + 1] < s) ++j;
    // p = c_j + w (c_{j+1} - c_j),  w = (s - a_j) / l_j,  s = f L
    const S w = (s - start[j]) / length[j];
    const V2 c0 = vertices.row(j).transpose(), c1 = vertices.row(j + 1).transpose();
    out.points.row(k) = (c0 + w * (c1 - c0)).transpose();
    // dw = (f dL - da_j - w dl_j) / l_j
    Row dw = f * dtotal;
    for (int i = 0; i < j; ++i) {
      dw.template segment<2>(2 * i) += direction[i].transpose();
      dw.template segment<2>(2 * i + 2) -= direction[i].transpose();
    }
    dw.template segment<2>(2 * j) += w * direction[j].transpose();
    dw.template segment<2>(2 * j + 2) -= w * direction[j].transpose();
    dw /= length[j];
    const V2 chord = c1 - c0;
    for (int c = 0; c < 2; ++c) {
      out.jacobian(2 * k + c, 2 * j + c) += 1.0 - w;
      out.jacobian(2 * k + c, 2 * (j + 1) + c) += w;
      out.jacobian.row(2 * k + c) += chord[c] * dw;
    }
  }
  return out;
}

}  // namespace tendril::fit
