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
                                  VecN<12>* gradient, MatN<12>* hessian,
                                  const AngleSpring* spring) {
  // Closed form (Tamstorf & Grinspun 2013, "Discrete bending forces and their Jacobians", sec. 3-4;
  // derived afresh in docs/physics/shells.md#hinge-bending): with e = x_1 - x_0 (length L), a = x_2
  // - x_0, b = x_3 - x_0, n_A = e x a, n_B = b x e, the opposite nodes move phi along their
  // triangles' normals,
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

  // dg_T = -(n_T / |n_T|^2) dL - L P_T dn_T with P_T = (I - 2 n_hat_T n_hat_T^T) / |n_T|^2, dL =
  // e_hat . de, dn_A = [x_2 - x_1]_x dx_0 - [a]_x dx_1 + [e]_x dx_2, dn_B = [x_1 - x_3]_x dx_0 +
  // [b]_x dx_1 - [e]_x dx_3. Every block of rows 1 .. 3 is then a cross-product matrix [v]_x plus
  // outer products u w^T (with P_T [v]_x = (1 / |n_T|^2) ([v]_x - 2 m_T (n_T x v)^T), m_T = n_T /
  // |n_T|^2, as n^T [v]_x = (n x v)^T). A diagonal block is symmetric, so its cross-product part
  // cancels the antisymmetric part of its outer products exactly: it is the symmetric part of the
  // outer products alone, sym(R) = (R + R^T) / 2. The off-diagonal blocks follow from the diagonal
  // ones and g g^T. With s = k (phi - phi_bar) and k (spring), or s = 1 and k = 0 (d2phi alone),
  // g_2 = -L m_A, g_3 = -L m_B, n_A x e = L^2 a_perp, n_B x e = -L^2 b_perp (a_perp = a - alpha_A
  // e, b_perp = b - alpha_B e: the heights of the triangles over the edge):
  //   B22 = sym(m_A w_A^T), w_A = 2 s (L / |n_A|^2) L^2 a_perp + k L^2 m_A     (d2phi/dx_2^2 and k
  //   g_2 g_2^T) B33 = sym(m_B w_B^T), w_B = 2 s (L / |n_B|^2) L^2 b_perp + k L^2 m_B B23 = k g_2
  //   g_3^T                                                        (d2phi has no (2, 3) block) B12
  //   = -alpha_A B22 - alpha_B B23^T - (s / L^2) g_2 e^T                   (the product rule on
  //   g_1) B13 = -alpha_B B33 - alpha_A B23 - (s / L^2) g_3 e^T B11 = sym(m_A p^T + m_B q^T) + k
  //   g_1 g_1^T,
  //     p = s (alpha_A e_hat + 2 alpha_A (L / |n_A|^2) (n_A x a) + (a - 2 alpha_A e) / L),
  //     q = s (alpha_B e_hat - 2 alpha_B (L / |n_B|^2) (n_B x b) + (b - 2 alpha_B e) / L)
  // (d alpha_A / dx_1 = (a - 2 alpha_A e) / L^2, d alpha_A / dx_2 = e / L^2; likewise alpha_B with
  // b, x_3).
  const double s = spring ? spring->stiffness * (phi - spring->natural_angle) : 1.0;
  const double k = spring ? spring->stiffness : 0.0;
  const Vec3 m_a = inv_na2 * n_a;
  const Vec3 m_b = inv_nb2 * n_b;
  const double c_a = l * inv_na2, c_b = l * inv_nb2;
  const auto sym = [](const Mat3& r) -> Mat3 { return 0.5 * (r + r.transpose()); };
  const Vec3 w_a = (2.0 * s * c_a * l2) * (a - alpha_a * e) + (k * l2) * m_a;
  const Vec3 w_b = (2.0 * s * c_b * l2) * (b - alpha_b * e) + (k * l2) * m_b;
  // the lower blocks (r >= c) are formed in place, B_rc = b_cr^T for the b's above; the upper ones
  // mirrored (the diagonal blocks are formed whole)
  MatN<12>& h = *hessian;
  const auto block = [&h](int r, int c) { return h.block<3, 3>(3 * r, 3 * c); };
  block(2, 2) = sym(m_a * w_a.transpose());
  block(3, 3) = sym(m_b * w_b.transpose());
  block(3, 2) = (k * l2) * m_b * m_a.transpose();
  const double s_l2 = s / l2;
  block(2, 1) =
      -alpha_a * block(2, 2) - alpha_b * block(3, 2).transpose() - e * (s_l2 * g2).transpose();
  block(3, 1) = -alpha_b * block(3, 3) - alpha_a * block(3, 2) - e * (s_l2 * g3).transpose();
  const Vec3 g1 = gradient->segment<3>(3);
  const Vec3 p =
      s * (alpha_a * e_hat + (2.0 * alpha_a * c_a) * n_a.cross(a) + (a - 2.0 * alpha_a * e) / l);
  const Vec3 q =
      s * (alpha_b * e_hat - (2.0 * alpha_b * c_b) * n_b.cross(b) + (b - 2.0 * alpha_b * e) / l);
  block(1, 1) = sym(m_a * p.transpose() + m_b * q.transpose()) + (k * g1) * g1.transpose();
  // column of node 0: phi and g do not change under a translation, so every column of blocks sums
  // to zero
  block(1, 0) = -(block(1, 1) + block(2, 1).transpose() + block(3, 1).transpose());
  block(2, 0) = -(block(2, 1) + block(2, 2) + block(3, 2).transpose());
  block(3, 0) = -(block(3, 1) + block(3, 2) + block(3, 3));
  // symmetric in exact arithmetic; round-off is evened out
  block(0, 0) = -sym(block(1, 0) + block(2, 0) + block(3, 0));
  for (int r = 1; r < 4; ++r)
    for (int c = 0; c < r; ++c) block(c, r) = block(r, c).transpose();
  return phi;
}

}  // namespace tendril
