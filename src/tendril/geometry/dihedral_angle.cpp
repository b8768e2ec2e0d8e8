#include "tendril/geometry/dihedral_angle.hpp"

#include <cmath>

#include "tendril/geometry/triangle_normal.hpp"

namespace tendril {

double dihedral_angle(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& x3) {
  const Vec3 a = triangle_normal(x0, x1, x2);
  const Vec3 b = triangle_normal(x0, x3, x1);
  const Vec3 e_hat = (x1 - x0).normalized();
  return std::atan2(a.cross(b).dot(e_hat), a.dot(b));
}

double dihedral_angle_derivatives(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& x3,
                                  VecN<12>* gradient, MatN<12>* hessian) {
  // Closed form (Tamstorf & Grinspun 2013, "Discrete bending forces and their Jacobians", sec. 3-4; derived
  // afresh in docs/physics/shells.md#hinge-bending): with e = x_1 - x_0 (length L), a = x_2 - x_0,
  // b = x_3 - x_0, n_A = e x a, n_B = b x e, the opposite nodes move phi along their triangles' normals,
  //   g_2 = -w_A, g_3 = -w_B,  w_T = L n_T / |n_T|^2  (|w_T| = 1 / height of T over the edge),
  // and the edge nodes take what keeps phi invariant under translations and rotations,
  //   g_0 = -(1 - alpha_A) g_2 - (1 - alpha_B) g_3,  g_1 = -alpha_A g_2 - alpha_B g_3,
  // alpha_A = a . e / L^2, alpha_B = b . e / L^2 (where the opposite nodes project onto the edge).
  const Vec3 e = x1 - x0;
  const Vec3 a = x2 - x0;
  const Vec3 b = x3 - x0;
  const Vec3 n_a = e.cross(a);
  const Vec3 n_b = b.cross(e);
  const double l2 = e.squaredNorm();
  const double l = std::sqrt(l2);
  const Vec3 e_hat = e / l;
  const double phi = std::atan2(n_a.cross(n_b).dot(e_hat), n_a.dot(n_b));
  if (!gradient && !hessian) return phi;

  const double inv_na2 = 1.0 / n_a.squaredNorm();
  const double inv_nb2 = 1.0 / n_b.squaredNorm();
  const Vec3 g2 = -l * inv_na2 * n_a;
  const Vec3 g3 = -l * inv_nb2 * n_b;
  const double alpha_a = a.dot(e) / l2;
  const double alpha_b = b.dot(e) / l2;
  if (gradient) {
    gradient->segment<3>(0) = -(1.0 - alpha_a) * g2 - (1.0 - alpha_b) * g3;
    gradient->segment<3>(3) = -alpha_a * g2 - alpha_b * g3;
    gradient->segment<3>(6) = g2;
    gradient->segment<3>(9) = g3;
  }
  if (!hessian) return phi;

  // dg_T = -(n_T / |n_T|^2) dL - L P_T dn_T with P_T = (I - 2 n_hat_T n_hat_T^T) / |n_T|^2, dL = e_hat . de,
  // dn_A = [x_2 - x_1]_x dx_0 - [a]_x dx_1 + [e]_x dx_2, dn_B = [x_1 - x_3]_x dx_0 + [b]_x dx_1 - [e]_x dx_3
  const Mat3 p_a = l * inv_na2 * (Mat3::Identity() - 2.0 * inv_na2 * n_a * n_a.transpose());
  const Mat3 p_b = l * inv_nb2 * (Mat3::Identity() - 2.0 * inv_nb2 * n_b * n_b.transpose());
  const Mat3 ga_l = inv_na2 * n_a * e_hat.transpose();  // (n_A / |n_A|^2) e_hat^T
  const Mat3 gb_l = inv_nb2 * n_b * e_hat.transpose();
  const Mat3 e_x = cross_matrix(e);
  // dg2/dx_k, dg3/dx_k (k = 0 .. 3; dg2/dx_3 = dg3/dx_2 = 0); g_2, g_3 do not change under a translation, so
  // dg/dx_0 = -(the sum over the other nodes), as [x_2 - x_1]_x = [a]_x - [e]_x and [x_1 - x_3]_x = [e]_x - [b]_x say
  const Mat3 h21 = -ga_l + p_a * cross_matrix(a);
  const Mat3 h22 = -p_a * e_x;
  const Mat3 h20 = -h21 - h22;
  const Mat3 h31 = -gb_l - p_b * cross_matrix(b);
  const Mat3 h33 = p_b * e_x;
  const Mat3 h30 = -h31 - h33;
  // d alpha_A / dx_k: x_0: -(a + e - 2 alpha_A e) / L^2, x_1: (a - 2 alpha_A e) / L^2, x_2: e / L^2
  const Vec3 da_1 = (a - 2.0 * alpha_a * e) / l2;
  const Vec3 da_2 = e / l2;
  const Vec3 da_0 = -da_1 - da_2;
  const Vec3 db_1 = (b - 2.0 * alpha_b * e) / l2;
  const Vec3 db_3 = e / l2;
  const Vec3 db_0 = -db_1 - db_3;
  // rows of nodes 0 and 1: g_0 = -(1 - alpha_A) g_2 - (1 - alpha_B) g_3, g_1 = -alpha_A g_2 - alpha_B g_3,
  // differentiated by the product rule; the Hessian is symmetric, so only blocks (i, k >= i) are formed
  const Mat3 ca = g2 * da_0.transpose() + g3 * db_0.transpose();
  const Mat3 c1a = g2 * da_1.transpose() + g3 * db_1.transpose();
  MatN<12>& h = *hessian;
  h.block<3, 3>(0, 0) = -(1.0 - alpha_a) * h20 - (1.0 - alpha_b) * h30 + ca;
  h.block<3, 3>(0, 3) = -(1.0 - alpha_a) * h21 - (1.0 - alpha_b) * h31 + c1a;
  h.block<3, 3>(0, 6) = -(1.0 - alpha_a) * h22 + g2 * da_2.transpose();
  h.block<3, 3>(0, 9) = -(1.0 - alpha_b) * h33 + g3 * db_3.transpose();
  h.block<3, 3>(3, 3) = -alpha_a * h21 - alpha_b * h31 - c1a;
  h.block<3, 3>(3, 6) = -alpha_a * h22 - g2 * da_2.transpose();
  h.block<3, 3>(3, 9) = -alpha_b * h33 - g3 * db_3.transpose();
  h.block<3, 3>(6, 6) = h22;
  h.block<3, 3>(6, 9).setZero();
  h.block<3, 3>(9, 9) = h33;
  for (int i = 0; i < 4; ++i) {
    for (int k = 0; k < i; ++k) h.block<3, 3>(3 * i, 3 * k) = h.block<3, 3>(3 * k, 3 * i).transpose();
  }
  // the diagonal blocks of nodes 0 .. 3 are symmetric in exact arithmetic; round-off is evened out
  for (int i = 0; i < 4; ++i) {
    const Mat3 d = h.block<3, 3>(3 * i, 3 * i);
    h.block<3, 3>(3 * i, 3 * i) = 0.5 * (d + d.transpose());
  }
  return phi;
}

}  // namespace tendril
