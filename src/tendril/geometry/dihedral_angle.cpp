#include "tendril/geometry/dihedral_angle.hpp"

#include <cmath>

#include "tendril/geometry/triangle_normal.hpp"

namespace tendril {
namespace {

using Mat9_12 = Eigen::Matrix<double, 9, 12>;

/// Scatters a 9-DOF triangle block (nodes in `slots` of the hinge) into 12-DOF hinge columns.
template <class Dst, class Src>
void scatter_columns(const Src& src, const int (&slots)[3], Dst&& dst) {
  for (int k = 0; k < 3; ++k) dst.template middleCols<3>(3 * slots[k]) += src.template middleCols<3>(3 * k);
}

}  // namespace

double dihedral_angle(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& x3) {
  const Vec3 a = triangle_normal(x0, x1, x2);
  const Vec3 b = triangle_normal(x0, x3, x1);
  const Vec3 e_hat = (x1 - x0).normalized();
  return std::atan2(a.cross(b).dot(e_hat), a.dot(b));
}

double dihedral_angle_derivatives(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& x3,
                                  VecN<12>* gradient, MatN<12>* hessian) {
  // phi = atan2(y, x) of z = (a, b, e): x = a . b, y = (a x b) . e_hat
  const Vec3 a = triangle_normal(x0, x1, x2);
  const Vec3 b = triangle_normal(x0, x3, x1);
  const Vec3 e = x1 - x0;
  const double e_length = e.norm();
  const Vec3 e_hat = e / e_length;
  const Vec3 axb = a.cross(b);
  const double x = a.dot(b);
  const double y = axb.dot(e_hat);
  const double phi = std::atan2(y, x);
  if (!gradient && !hessian) return phi;

  const double r2 = x * x + y * y;
  const double phi_x = -y / r2;
  const double phi_y = x / r2;
  VecN<9> grad_x, grad_y;
  grad_x << b, a, Vec3::Zero();
  grad_y << b.cross(e_hat), e_hat.cross(a), unit_projection_gradient(e, axb);
  const VecN<9> grad_z = phi_x * grad_x + phi_y * grad_y;

  // dz/dq: a from triangle (x_0, x_1, x_2), b from triangle (x_0, x_3, x_1), e = x_1 - x_0
  constexpr int slots_a[3] = {0, 1, 2};
  constexpr int slots_b[3] = {0, 3, 1};
  Mat9_12 jz = Mat9_12::Zero();
  scatter_columns(triangle_normal_jacobian(x0, x1, x2), slots_a, jz.topRows<3>());
  scatter_columns(triangle_normal_jacobian(x0, x3, x1), slots_b, jz.middleRows<3>(3));
  jz.block<3, 3>(6, 0) = -Mat3::Identity();
  jz.block<3, 3>(6, 3) = Mat3::Identity();
  if (gradient) *gradient = jz.transpose() * grad_z;
  if (!hessian) return phi;

  // d2 phi / dz2 = phi_x d2x + phi_y d2y + [grad x, grad y] d2 atan2 [grad x, grad y]^T
  MatN<9> h_z = MatN<9>::Zero();
  h_z.block<3, 3>(0, 3) = phi_x * Mat3::Identity();
  h_z.block<3, 3>(3, 0) = phi_x * Mat3::Identity();
  const Mat3 p_e = (Mat3::Identity() - e_hat * e_hat.transpose()) / e_length;
  const Mat3 ab = -cross_matrix(e_hat);
  const Mat3 ae = cross_matrix(b) * p_e;
  const Mat3 be = -cross_matrix(a) * p_e;
  h_z.block<3, 3>(0, 3) += phi_y * ab;
  h_z.block<3, 3>(3, 0) += phi_y * ab.transpose();
  h_z.block<3, 3>(0, 6) += phi_y * ae;
  h_z.block<3, 3>(6, 0) += phi_y * ae.transpose();
  h_z.block<3, 3>(3, 6) += phi_y * be;
  h_z.block<3, 3>(6, 3) += phi_y * be.transpose();
  h_z.block<3, 3>(6, 6) += phi_y * unit_projection_hessian(e, axb);
  const double r4 = r2 * r2;
  const double phi_xx = 2.0 * x * y / r4;
  const double phi_yy = -phi_xx;
  const double phi_xy = (y * y - x * x) / r4;
  h_z += phi_xx * grad_x * grad_x.transpose() + phi_yy * grad_y * grad_y.transpose() +
         phi_xy * (grad_x * grad_y.transpose() + grad_y * grad_x.transpose());

  // chain rule; a and b are bilinear in q, e is linear (lazyProduct: coefficient-wise loops the compiler
  // unrolls, instead of the general matrix product Eigen picks for these sizes)
  const Eigen::Matrix<double, 12, 9> jz_h = jz.transpose().lazyProduct(h_z);
  MatN<12> h = jz_h.lazyProduct(jz);
  const MatN<9> ha = triangle_normal_weighted_hessian(grad_z.head<3>());
  const MatN<9> hb = triangle_normal_weighted_hessian(grad_z.segment<3>(3));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      h.block<3, 3>(3 * slots_a[i], 3 * slots_a[j]) += ha.block<3, 3>(3 * i, 3 * j);
      h.block<3, 3>(3 * slots_b[i], 3 * slots_b[j]) += hb.block<3, 3>(3 * i, 3 * j);
    }
  *hessian = h;
  return phi;
}

}  // namespace tendril
