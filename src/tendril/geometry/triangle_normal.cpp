#include "tendril/geometry/triangle_normal.hpp"

namespace tendril {

Mat39 triangle_normal_jacobian(const Vec3& x0, const Vec3& x1, const Vec3& x2) {
  // n = u x v with u = x_1 - x_0, v = x_2 - x_0: dn = -[v]_x du + [u]_x dv
  const Vec3 u = x1 - x0;
  const Vec3 v = x2 - x0;
  Mat39 j;
  j.block<3, 3>(0, 0) = cross_matrix(v - u);
  j.block<3, 3>(0, 3) = -cross_matrix(v);
  j.block<3, 3>(0, 6) = cross_matrix(u);
  return j;
}

MatN<9> triangle_normal_weighted_hessian(const Vec3& lambda) {
  // lambda . (u x v) has d2/du dv = -[lambda]_x and d2/dv du = [lambda]_x; u = x_1 - x_0, v = x_2 -
  // x_0
  const Mat3 l = cross_matrix(lambda);
  MatN<9> h = MatN<9>::Zero();
  h.block<3, 3>(3, 6) = -l;  // (x_1, x_2): (u, v)
  h.block<3, 3>(6, 3) = l;   // (x_2, x_1): (v, u)
  h.block<3, 3>(0, 6) = l;   // (x_0, x_2): (-u, v)
  h.block<3, 3>(6, 0) = -l;
  h.block<3, 3>(3, 0) = l;  // (x_1, x_0): (u, -v)
  h.block<3, 3>(0, 3) = -l;
  return h;  // (x_0, x_0): (-u, -v) and (-v, -u) cancel
}

Vec3 unit_projection_gradient(const Vec3& v, const Vec3& c) {
  const double length = v.norm();
  const Vec3 v_hat = v / length;
  return (c - c.dot(v_hat) * v_hat) / length;
}

Mat3 unit_projection_hessian(const Vec3& v, const Vec3& c) {
  const double length = v.norm();
  const Vec3 v_hat = v / length;
  const double cv = c.dot(v_hat);
  const Vec3 pc = c - cv * v_hat;
  const Mat3 p = Mat3::Identity() - v_hat * v_hat.transpose();
  return -(pc * v_hat.transpose() + v_hat * pc.transpose() + cv * p) / (length * length);
}

}  // namespace tendril
