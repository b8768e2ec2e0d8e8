#include "tendril/contact/distance/point_triangle_distance.hpp"

#include <algorithm>

#include <Eigen/LU>

namespace tendril::contact {

TriangleClosestPoint point_triangle_closest_point(const Vec3& p, const Vec3& t0, const Vec3& t1,
                                                  const Vec3& t2) {
  TriangleClosestPoint out;
  const Vec3 e1 = t1 - t0, e2 = t2 - t0, r = p - t0;
  // projection onto the plane: minimise |r - u e1 - v e2|^2
  const double a = e1.squaredNorm(), b = e1.dot(e2), c = e2.squaredNorm();
  const double det = a * c - b * b;
  if (det > 1e-12 * (a + c) * (a + c)) {
    const double d1 = e1.dot(r), d2 = e2.dot(r);
    const double u = (c * d1 - b * d2) / det, v = (a * d2 - b * d1) / det;
    if (u > 0.0 && v > 0.0 && u + v < 1.0) {
      out.regime = TriangleRegime::face;
      out.barycentric = Vec3(1.0 - u - v, u, v);
      out.w = r - u * e1 - v * e2;
      out.distance = out.w.norm();
      return out;
    }
  }
  // otherwise the closest point lies on the boundary: the nearest of the three edges
  const Vec3* t[3] = {&t0, &t1, &t2};
  out.distance = -1.0;
  for (int k = 0; k < 3; ++k) {
    const Vec3& q0 = *t[k];
    const Vec3& q1 = *t[(k + 1) % 3];
    const Vec3 d = q1 - q0;
    const double length2 = d.squaredNorm();
    const double s = length2 > 0.0 ? std::clamp(d.dot(p - q0) / length2, 0.0, 1.0) : 0.0;
    const Vec3 w = p - q0 - s * d;
    const double distance = w.norm();
    if (out.distance >= 0.0 && distance >= out.distance) continue;
    out.distance = distance;
    out.w = w;
    out.barycentric.setZero();
    out.barycentric[k] = 1.0 - s;
    out.barycentric[(k + 1) % 3] = s;
    if (s > 0.0 && s < 1.0) {
      out.regime = TriangleRegime::edge;
      out.feature = k;
    } else {
      out.regime = TriangleRegime::vertex;
      out.feature = s >= 1.0 ? (k + 1) % 3 : k;
    }
  }
  return out;
}

PointTriangleDistance point_triangle_distance(const Vec3& p, const Vec3& t0, const Vec3& t1,
                                              const Vec3& t2, bool with_hessian) {
  PointTriangleDistance out;
  out.closest = point_triangle_closest_point(p, t0, t1, t2);
  const TriangleClosestPoint& cp = out.closest;
  if (cp.distance <= 0.0) return out;

  // w = J x with J = [I, -b0 I, -b1 I, -b2 I]; F = |w|^2 / 2, dF/dx = J^T w at fixed parameters
  const double weight[4] = {1.0, -cp.barycentric[0], -cp.barycentric[1], -cp.barycentric[2]};
  const Vec3& w = cp.w;
  Vec12 grad_f;
  for (int k = 0; k < 4; ++k) grad_f.segment<3>(3 * k) = weight[k] * w;
  out.gradient = grad_f / cp.distance;
  if (!with_hessian) return out;

  // the free parameters z move the closest point along directions d_j = sum_k c_jk t_k:
  // face: d = t1 - t0, t2 - t0; edge (k, k+1): d = t_{k+1} - t_k. With dw/dz_j = -d_j,
  // F_zz = [d_i . d_j] and F_xz_j = -J^T d_j - [0, c_j0 w, c_j1 w, c_j2 w]
  const Vec3 tri[3] = {t0, t1, t2};
  int num_free = 0;
  double coef[2][3] = {{0, 0, 0}, {0, 0, 0}};
  if (cp.regime == TriangleRegime::face) {
    num_free = 2;
    coef[0][0] = coef[1][0] = -1.0;
    coef[0][1] = coef[1][2] = 1.0;
  } else if (cp.regime == TriangleRegime::edge) {
    num_free = 1;
    coef[0][cp.feature] = -1.0;
    coef[0][(cp.feature + 1) % 3] = 1.0;
  }
  Eigen::Matrix<double, 12, 2> f_xz = Eigen::Matrix<double, 12, 2>::Zero();
  Eigen::Matrix2d f_zz = Eigen::Matrix2d::Identity();
  Vec3 dir[2];
  for (int j = 0; j < num_free; ++j) {
    dir[j] = coef[j][0] * tri[0] + coef[j][1] * tri[1] + coef[j][2] * tri[2];
    for (int k = 0; k < 4; ++k) f_xz.block<3, 1>(3 * k, j) = -weight[k] * dir[j];
    for (int k = 0; k < 3; ++k) f_xz.block<3, 1>(3 * (k + 1), j) -= coef[j][k] * w;
  }
  for (int i = 0; i < num_free; ++i)
    for (int j = 0; j < num_free; ++j) f_zz(i, j) = dir[i].dot(dir[j]);

  // d2F/dx2 = J^T J + F_xz dz/dx with dz/dx = -F_zz^{-1} F_zx (implicit function theorem)
  Mat12 hess_f;
  for (int k = 0; k < 4; ++k)
    for (int l = 0; l < 4; ++l)
      hess_f.block<3, 3>(3 * k, 3 * l) = weight[k] * weight[l] * Mat3::Identity();
  Eigen::Matrix<double, 2, 12> dz_dx = Eigen::Matrix<double, 2, 12>::Zero();
  if (num_free == 1) {
    dz_dx.row(0) = -f_xz.col(0).transpose() / f_zz(0, 0);
  } else if (num_free == 2) {
    dz_dx = -f_zz.inverse() * f_xz.transpose();
  }
  hess_f += f_xz * dz_dx;
  // the weights are affine in z: db_k/dz_j = c_jk
  for (int j = 0; j < num_free; ++j)
    for (int k = 0; k < 3; ++k) out.dbarycentric_dx.row(k) += coef[j][k] * dz_dx.row(j);
  out.hessian = (hess_f - out.gradient * out.gradient.transpose()) / cp.distance;
  out.hessian = 0.5 * (out.hessian + out.hessian.transpose()).eval();
  return out;
}

}  // namespace tendril::contact
