#include "tendril/fit/polyline_resample.hpp"

#include <algorithm>

#include "tendril/core/error.hpp"

namespace tendril::fit {

using RowVecX = Eigen::RowVectorXd;

ResampledPolyline resample_polyline(const MatX& vertices, int points) {
  const int m = static_cast<int>(vertices.rows());
  TENDRIL_ASSERT(m >= 2 && vertices.cols() == 2 && points >= 2, "a polyline of 2D vertices and >= 2 points");
  // segment lengths l_j and unit directions e_j; cumulative lengths a_j = l_0 + .. + l_{j-1}
  std::vector<double> length(m - 1), start(m, 0.0);
  std::vector<Vec2> direction(m - 1);
  for (int j = 0; j + 1 < m; ++j) {
    const Vec2 d = vertices.row(j + 1).transpose() - vertices.row(j).transpose();
    length[j] = d.norm();
    TENDRIL_ASSERT(length[j] > 0.0, "no zero-length segment");
    direction[j] = d / length[j];
    start[j + 1] = start[j] + length[j];
  }
  const double total = start[m - 1];

  ResampledPolyline out;
  out.points.resize(points, 2);
  out.jacobian = MatX::Zero(2 * points, 2 * m);
  // dL/dc: each segment's length changes by -e_j at c_j and +e_j at c_{j+1}
  RowVecX dtotal = RowVecX::Zero(2 * m);
  for (int j = 0; j + 1 < m; ++j) {
    dtotal.segment<2>(2 * j) -= direction[j].transpose();
    dtotal.segment<2>(2 * j + 2) += direction[j].transpose();
  }
  int j = 0;
  for (int k = 0; k < points; ++k) {
    const double f = static_cast<double>(k) / (points - 1);
    const double s = f * total;
    while (j + 2 < m && start[j + 1] < s) ++j;
    // p = c_j + w (c_{j+1} - c_j),  w = (s - a_j) / l_j,  s = f L
    const double w = (s - start[j]) / length[j];
    const Vec2 c0 = vertices.row(j).transpose(), c1 = vertices.row(j + 1).transpose();
    out.points.row(k) = (c0 + w * (c1 - c0)).transpose();
    // dw = (f dL - da_j - w dl_j) / l_j
    RowVecX dw = f * dtotal;
    for (int i = 0; i < j; ++i) {
      dw.segment<2>(2 * i) += direction[i].transpose();
      dw.segment<2>(2 * i + 2) -= direction[i].transpose();
    }
    dw.segment<2>(2 * j) += w * direction[j].transpose();
    dw.segment<2>(2 * j + 2) -= w * direction[j].transpose();
    dw /= length[j];
    const Vec2 chord = c1 - c0;
    for (int c = 0; c < 2; ++c) {
      out.jacobian(2 * k + c, 2 * j + c) += 1.0 - w;
      out.jacobian(2 * k + c, 2 * (j + 1) + c) += w;
      out.jacobian.row(2 * k + c) += chord[c] * dw;
    }
  }
  return out;
}

}  // namespace tendril::fit
