#include "tendril/contact/distance/edge_edge_distance.hpp"

#include <algorithm>

#include <Eigen/LU>

namespace tendril::contact {
namespace {

double clamp01(double v) {
  return std::clamp(v, 0.0, 1.0);
}

}  // namespace

DistanceRegime SegmentClosestPoints::regime() const {
  if (s_free && t_free) return DistanceRegime::edge_edge;
  if (s_free) return DistanceRegime::edge_point;
  if (t_free) return DistanceRegime::point_edge;
  return DistanceRegime::point_point;
}

SegmentClosestPoints segment_closest_points(const Vec3& a0, const Vec3& a1, const Vec3& b0,
                                            const Vec3& b1) {
  const Vec3 d1 = a1 - a0, d2 = b1 - b0, r = a0 - b0;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), b = d1.dot(d2), c = d1.dot(r),
               f = d2.dot(r);
  // a segment shorter than 1e-10 of the stencil's size is a point
  const double tiny = 1e-20 * (a + e + r.squaredNorm());
  const bool point_a = a <= tiny, point_b = e <= tiny;
  SegmentClosestPoints out;
  double s = 0.0, t = 0.0;
  if (point_a && point_b) {
    s = t = 0.0;
  } else if (point_a) {
    t = clamp01(f / e);  // dF/dt = -(f - t e) = 0
  } else if (point_b) {
    s = clamp01(-c / a);  // dF/ds = c + s a = 0
  } else {
    // stationary point of F = |w|^2 / 2 over both parameters, s clamped first; parallel
    // segments (a e - b^2 <= 1e-12 a e) take s = 0
    const double denom = a * e - b * b;
    s = denom > 1e-12 * a * e ? clamp01((b * f - c * e) / denom) : 0.0;
    t = (b * s + f) / e;
    // t outside [0, 1]: clamp it and minimise over s again
    if (t < 0.0) {
      t = 0.0;
      s = clamp01(-c / a);
    } else if (t > 1.0) {
      t = 1.0;
      s = clamp01((b - c) / a);
    }
  }
  out.s = s;
  out.t = t;
  out.s_free = !point_a && s > 0.0 && s < 1.0;
  out.t_free = !point_b && t > 0.0 && t < 1.0;
  out.w = r + s * d1 - t * d2;
  out.distance = out.w.norm();
  return out;
}

EdgeEdgeDistance edge_edge_distance(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1,
                                    bool with_hessian) {
  EdgeEdgeDistance out;
  out.closest = segment_closest_points(a0, a1, b0, b1);
  const SegmentClosestPoints& cp = out.closest;
  if (cp.distance <= 0.0) return out;

  // w = J x with J = [(1-s) I, s I, -(1-t) I, -t I]; F = |w|^2 / 2 and, by the closest-point
  // conditions (dF/dz = 0 for each free parameter z), dF/dx = J^T w at fixed s, t
  const double weight[4] = {1.0 - cp.s, cp.s, -(1.0 - cp.t), -cp.t};
  const Vec3 d1 = a1 - a0, d2 = b1 - b0;
  const Vec3& w = cp.w;
  Vec12 grad_f;
  for (int k = 0; k < 4; ++k) grad_f.segment<3>(3 * k) = weight[k] * w;
  out.gradient = grad_f / cp.distance;

  // mixed derivatives d2F/dx dz of the free parameters: s: J^T d1 + [-w, w, 0, 0], t: -J^T d2 + [0,
  // 0, w, -w]
  const int num_free = static_cast<int>(cp.s_free) + static_cast<int>(cp.t_free);
  Eigen::Matrix<double, 12, 2> f_xz = Eigen::Matrix<double, 12, 2>::Zero();
  Eigen::Matrix2d f_zz = Eigen::Matrix2d::Zero();
  int col = 0, s_col = -1, t_col = -1;
  if (cp.s_free) {
    for (int k = 0; k < 4; ++k) f_xz.block<3, 1>(3 * k, col) = weight[k] * d1;
    f_xz.block<3, 1>(0, col) -= w;
    f_xz.block<3, 1>(3, col) += w;
    f_zz(col, col) = d1.squaredNorm();
    s_col = col++;
  }
  if (cp.t_free) {
    for (int k = 0; k < 4; ++k) f_xz.block<3, 1>(3 * k, col) = -weight[k] * d2;
    f_xz.block<3, 1>(6, col) += w;
    f_xz.block<3, 1>(9, col) -= w;
    f_zz(col, col) = d2.squaredNorm();
    t_col = col++;
  }
  if (s_col >= 0 && t_col >= 0) f_zz(s_col, t_col) = f_zz(t_col, s_col) = -d1.dot(d2);

  // implicit function theorem: dz/dx = -f_zz^{-1} f_zx
  Eigen::Matrix<double, 2, 12> dz_dx = Eigen::Matrix<double, 2, 12>::Zero();
  if (num_free == 1) {
    dz_dx.row(0) = -f_xz.col(0).transpose() / f_zz(0, 0);
  } else if (num_free == 2) {
    dz_dx = -f_zz.inverse() * f_xz.transpose();
  }
  if (s_col >= 0) out.ds_dx = dz_dx.row(s_col).transpose();
  if (t_col >= 0) out.dt_dx = dz_dx.row(t_col).transpose();
  if (!with_hessian) return out;

  // d2F/dx2 = J^T J + f_xz dz/dx, then Delta = sqrt(2 F): d2Delta = (d2F - dDelta dDelta^T) / Delta
  Mat12 hess_f;
  for (int k = 0; k < 4; ++k)
    for (int l = 0; l < 4; ++l)
      hess_f.block<3, 3>(3 * k, 3 * l) = weight[k] * weight[l] * Mat3::Identity();
  if (num_free > 0) hess_f += f_xz.leftCols(num_free) * dz_dx.topRows(num_free);
  out.hessian = (hess_f - out.gradient * out.gradient.transpose()) / cp.distance;
  // the product above is symmetric in exact arithmetic; keep it so to round-off
  out.hessian = 0.5 * (out.hessian + out.hessian.transpose()).eval();
  return out;
}

}  // namespace tendril::contact
