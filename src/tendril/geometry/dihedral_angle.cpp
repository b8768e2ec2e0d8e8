#include "tendril/geometry/dihedral_angle.hpp"

#include <array>
#include <cmath>

#include "tendril/core/error.hpp"
#include "tendril/geometry/triangle_normal.hpp"

namespace tendril {

double dihedral_angle(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& x3) {
  const Vec3 a = triangle_normal(x0, x1, x2);
  const Vec3 b = triangle_normal(x0, x3, x1);
  const Vec3 e_hat = (x1 - x0).normalized();
  return std::atan2(a.cross(b).dot(e_hat), a.dot(b));
}

double dihedral_angle_derivatives(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& x3,
                                  VecN<12>* gradient, MatN<12>* hessian, const AngleSpring* spring) {
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
  TENDRIL_ASSERT(gradient || !hessian, "dihedral_angle_derivatives: a Hessian needs the gradient");
  if (gradient) {
    gradient->segment<3>(0) = -(1.0 - alpha_a) * g2 - (1.0 - alpha_b) * g3;
    gradient->segment<3>(3) = -alpha_a * g2 - alpha_b * g3;
    gradient->segment<3>(6) = g2;
    gradient->segment<3>(9) = g3;
  }
  if (!hessian) return phi;

  // dg_T = -(n_T / |n_T|^2) dL - L P_T dn_T with P_T = (I - 2 n_hat_T n_hat_T^T) / |n_T|^2, dL = e_hat . de,
  // dn_A = [x_2 - x_1]_x dx_0 - [a]_x dx_1 + [e]_x dx_2, dn_B = [x_1 - x_3]_x dx_0 + [b]_x dx_1 - [e]_x dx_3
  // P_T [v]_x = (L / |n_T|^2) ([v]_x - 2 m_T (n_T x v)^T), m_T = n_T / |n_T|^2 (as n^T [v]_x = (n x v)^T): a skew
  // matrix and a rank-one term instead of a 3 x 3 product
  const Vec3 m_a = inv_na2 * n_a;
  const Vec3 m_b = inv_nb2 * n_b;
  const auto p_cross = [&](double scale, const Vec3& n, const Vec3& m, const Vec3& v) -> Mat3 {
    return scale * (cross_matrix(v) - 2.0 * m * n.cross(v).transpose());
  };
  const double c_a = l * inv_na2, c_b = l * inv_nb2;
  // dg2/dx_k, dg3/dx_k for k = 1 .. 3 (dg2/dx_3 = dg3/dx_2 = 0; k = 0 is not needed, see the row of node 0 below)
  const Mat3 h21 = -m_a * e_hat.transpose() + p_cross(c_a, n_a, m_a, a);
  const Mat3 h22 = -p_cross(c_a, n_a, m_a, e);
  const Mat3 h31 = -m_b * e_hat.transpose() - p_cross(c_b, n_b, m_b, b);
  const Mat3 h33 = p_cross(c_b, n_b, m_b, e);
  // d alpha_A / dx_k: x_1: (a - 2 alpha_A e) / L^2, x_2: e / L^2 (x_3: 0)
  const Vec3 da_1 = (a - 2.0 * alpha_a * e) / l2;
  const Vec3 da_2 = e / l2;
  const Vec3 db_1 = (b - 2.0 * alpha_b * e) / l2;
  const Vec3 db_3 = e / l2;
  // row of node 1: g_1 = -alpha_A g_2 - alpha_B g_3, differentiated by the product rule; rows 2, 3 from dg_2, dg_3.
  // With a spring: k (phi - phi_bar) d2phi + k g g^T, block by block (blocks (i, k >= i), i >= 1).
  const double hessian_scale = spring ? spring->stiffness * (phi - spring->natural_angle) : 1.0;
  const double outer_scale = spring ? spring->stiffness : 0.0;
  const VecN<12>& g = *gradient;
  const auto outer = [&](int i, int k) -> Mat3 {
    return outer_scale * g.segment<3>(3 * i) * g.segment<3>(3 * k).transpose();
  };
  const Mat3 c1a = g2 * da_1.transpose() + g3 * db_1.transpose();
  const Mat3 d2 = g2 * da_2.transpose();
  const Mat3 d3 = g3 * db_3.transpose();
  Mat3 b11 = hessian_scale * (-alpha_a * h21 - alpha_b * h31 - c1a) + outer(1, 1);
  const Mat3 b12 = hessian_scale * (-alpha_a * h22 - d2) + outer(1, 2);
  const Mat3 b13 = hessian_scale * (-alpha_b * h33 - d3) + outer(1, 3);
  Mat3 b22 = hessian_scale * h22 + outer(2, 2);
  const Mat3 b23 = outer(2, 3);  // d2phi has no (2, 3) block
  Mat3 b33 = hessian_scale * h33 + outer(3, 3);
  // the diagonal blocks are symmetric in exact arithmetic; round-off is evened out
  const auto symmetrize = [](Mat3& m) { m = 0.5 * (m + m.transpose()).eval(); };
  symmetrize(b11);
  symmetrize(b22);
  symmetrize(b33);
  // row of node 0: phi and g do not change under a translation, so every column of blocks sums to zero
  const Mat3 b01 = -(b11 + b12.transpose() + b13.transpose());
  const Mat3 b02 = -(b12 + b22 + b23.transpose());
  const Mat3 b03 = -(b13 + b23 + b33);
  Mat3 b00 = -(b01 + b02 + b03).transpose();
  symmetrize(b00);
  MatN<12>& h = *hessian;
  const std::array<const Mat3*, 10> upper = {&b00, &b01, &b02, &b03, &b11, &b12, &b13, &b22, &b23, &b33};
  std::size_t next = 0;
  for (int i = 0; i < 4; ++i)
    for (int k = i; k < 4; ++k) {
      const Mat3& block = *upper[next++];
      h.block<3, 3>(3 * i, 3 * k) = block;
      if (k != i) h.block<3, 3>(3 * k, 3 * i) = block.transpose();
    }
  return phi;
}

}  // namespace tendril
