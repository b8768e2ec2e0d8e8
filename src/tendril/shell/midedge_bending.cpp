#include "tendril/shell/midedge_bending.hpp"

#include <cmath>

#include "tendril/geometry/kinematics.hpp"
#include "tendril/geometry/triangle_normal.hpp"

namespace tendril {
namespace {

/// The stencil DOFs of one triangle: (x_0, x_1, x_2, xi^0, xi^1, xi^2).
std::array<int, 12> stencil_dofs(const Model& model, const MidEdgeTriangle& t) {
  const auto& nodes = model.shells.triangles[static_cast<std::size_t>(t.triangle)];
  std::array<int, 12> dofs{};
  for (std::size_t k = 0; k < 3; ++k) {
    for (int d = 0; d < 3; ++d)
      dofs[3 * k + static_cast<std::size_t>(d)] = model.dofs.node(nodes[k]) + d;
    dofs[9 + k] = model.dofs.xi(t.xi[k]);
  }
  return dofs;
}

MidEdgeStencil gather(const EvalInput& in, const MidEdgeTriangle& t,
                      const std::array<int, 12>& dofs) {
  MidEdgeStencil s;
  for (std::size_t k = 0; k < 3; ++k) {
    s.x[k] = in.q.segment<3>(dofs[3 * k]);
    s.xi[static_cast<Eigen::Index>(k)] = in.q[dofs[9 + k]];
    s.tau[k] = in.kin.shell_edge_tau_accepted[static_cast<std::size_t>(t.xi[k])];
  }
  return s;
}

/// The derivatives of beta = atan2(Y, X) of one edge (midedge_frame_angle) with respect to the
/// triangle's area vector n and the edge e = x_b - x_a, with X = n . (e x tau), Y = |e| n . tau,
/// rho = X^2 + Y^2:
///   dbeta = g = (X dY - Y dX) / rho,  d2beta = (X d2Y - Y d2X) / rho - (g h^T + h g^T),
///   h = (X dX + Y dY) / rho.
/// X is bilinear in (n, e) and Y linear in n, so X d2Y - Y d2X has no (n, n) block; its (n, e)
/// block is (X tau e_hat^T + Y [tau]_x) / rho and its (e, e) block X n . tau / (|e| rho) (I - e_hat
/// e_hat^T).
struct EdgeAngle {
  Vec3 g_n, g_e;       ///< dbeta/dn, dbeta/de
  Vec3 h_n, h_e;       ///< h with respect to n and e
  Vec3 tau, e_hat;     ///< the frame, e / |e|
  double x_rho = 0.0;  ///< X / rho
  double y_rho = 0.0;  ///< Y / rho
  double ee = 0.0;     ///< X n . tau / (|e| rho)
};

/// beta [rad], and its derivatives into `d` when given.
double edge_angle(const Vec3& n, const Vec3& e, const Vec3& tau, EdgeAngle* d) {
  // the hinge angle atan2((n x n_B) . e_hat, n . n_B) with n_B along e x tau (the frame's
  // half-plane)
  const double r = e.norm(), nt = n.dot(tau);
  const Vec3 m = e.cross(tau);
  const double y = r * nt, x = n.dot(m);
  const double beta = x > 0.0 ? std::atan(y / x) : std::atan2(y, x);  // atan: half atan2's work
  if (!d) return beta;
  // (dX, dY) with respect to n: (m, |e| tau); with respect to e: (tau x n, n . tau e_hat)
  d->tau = tau;
  d->e_hat = e / r;
  const Vec3 dx_e = tau.cross(n), dy_n = r * tau, dy_e = nt * d->e_hat;
  const double rho = x * x + y * y;
  d->x_rho = x / rho;
  d->y_rho = y / rho;
  d->g_n = d->x_rho * dy_n - d->y_rho * m;
  d->g_e = d->x_rho * dy_e - d->y_rho * dx_e;
  d->h_n = d->x_rho * m + d->y_rho * dy_n;
  d->h_e = d->x_rho * dx_e + d->y_rho * dy_e;
  d->ee = d->x_rho * nt / r;
  return beta;
}

// Derivatives are taken in the edge vectors u = x_1 - x_0, v = x_2 - x_0 first (the energy does not
// depend on translations): n = u x v, dn/du = -[v]_x, dn/dv = [u]_x, and edge k (x_{k+2} - x_{k+1})
// is e_0 = v - u, e_1 = -v, e_2 = u. Then d/dx_1 = d/du, d/dx_2 = d/dv, d/dx_0 = -(d/du + d/dv).

/// d/d(x_0, x_1, x_2) of a function of (n, e_k) with derivatives d_n, d_e.
template <int K>
VecN<9> chain(const Vec3& d_n, const Vec3& d_e, const Vec3& u, const Vec3& v) {
  VecN<9> g;
  g.segment<3>(3) = v.cross(d_n);
  g.segment<3>(6) = d_n.cross(u);
  if constexpr (K != 1) g.segment<3>(3) += K == 0 ? -d_e : d_e;
  if constexpr (K != 2) g.segment<3>(6) += K == 0 ? d_e : -d_e;
  g.head<3>() = -(g.segment<3>(3) + g.segment<3>(6));
  return g;
}

/// Adds the Hessian in (x_0, x_1, x_2) of one in (u, v), `h`, to the first 9 rows and columns of
/// `out`.
template <int N>
void add_in_node_positions(const MatN<6>& h, MatN<N>& out) {
  Eigen::Matrix<double, 9, 6> rows;
  rows.bottomRows<6>() = h;
  rows.topRows<3>() = -(h.topRows<3>() + h.bottomRows<3>());
  out.template block<9, 6>(0, 3) += rows;
  out.template block<9, 3>(0, 0) -= rows.leftCols<3>() + rows.rightCols<3>();
}

/// The angles' curvature terms sum_k w_k (J_k^T S_k J_k + sum_m (dbeta^k/dn_m) d2n_m) in (u, v),
/// with S_k the (X d2Y - Y d2X) / rho part of edge k's d2beta (EdgeAngle) and J_k = d(n, e_k)/d(u,
/// v): the (n, e) terms go through dn/d(u, v) once for all edges (finish()).
struct AngleCurvature {
  MatN<6> h = MatN<6>::Zero();
  Eigen::Matrix<double, 3, 6> s_nx =
      Eigen::Matrix<double, 3, 6>::Zero();  ///< sum w S_ne de/d(u, v)
  Vec3 lambda = Vec3::Zero();               ///< sum_k w_k dbeta^k/dn

  template <int K>
  void add(const EdgeAngle& f, double w) {
    lambda += w * f.g_n;
    const Mat3 ne =
        (w * f.x_rho) * f.tau * f.e_hat.transpose() + (w * f.y_rho) * cross_matrix(f.tau);
    const Mat3 ee = (w * f.ee) * (Mat3::Identity() - f.e_hat * f.e_hat.transpose());
    if constexpr (K != 1) {  // e along u: K = 0 -u, K = 2 +u
      s_nx.leftCols<3>() += K == 0 ? -ne : ne;
      h.block<3, 3>(0, 0) += ee;
    }
    if constexpr (K != 2) {  // e along v: K = 0 +v, K = 1 -v
      s_nx.rightCols<3>() += K == 0 ? ne : -ne;
      h.block<3, 3>(3, 3) += ee;
    }
    if constexpr (K == 0) {
      h.block<3, 3>(0, 3) -= ee;
      h.block<3, 3>(3, 0) -= ee;
    }
  }
  /// Adds (dn/d(u, v))^T s_nx + its transpose + sum_m lambda_m d2n_m to h.
  void finish(const Vec3& u, const Vec3& v) {
    MatN<6> t;
    t.topRows<3>() = cross_matrix(v) * s_nx;
    t.bottomRows<3>() = -cross_matrix(u) * s_nx;
    // lambda . (u x v) has d2/du dv = -[lambda]_x
    t.block<3, 3>(0, 3) -= cross_matrix(lambda);
    h += t + t.transpose();
  }
};

/// out = a b^T, column by column (Eigen's lazy product of these sizes takes about 1.4 times the
/// instructions).
void product_12(const Eigen::Matrix<double, 12, 6>& a, const Eigen::Matrix<double, 12, 6>& b,
                MatN<12>& out) {
  for (int j = 0; j < 12; ++j) {
    VecN<12> column = a.col(0) * b(j, 0);
    for (int k = 1; k < 6; ++k) column += a.col(k) * b(j, k);
    out.col(j) = column;
  }
}

}  // namespace

double midedge_frame_angle(const Vec3& x_a, const Vec3& x_b, const Vec3& x_k, const Vec3& tau,
                           VecN<9>* gradient, MatN<9>* hessian) {
  // edge 2 of the triangle (x_a, x_b, x_k): e = u
  const Vec3 u = x_b - x_a, v = x_k - x_a;
  EdgeAngle f;
  const double beta = edge_angle(u.cross(v), u, tau, gradient || hessian ? &f : nullptr);
  if (!gradient && !hessian) return beta;
  const VecN<9> g = chain<2>(f.g_n, f.g_e, u, v);
  if (gradient) *gradient = g;
  if (hessian) {
    const VecN<9> h = chain<2>(f.h_n, f.h_e, u, v);
    *hessian = -(g * h.transpose() + h * g.transpose());
    AngleCurvature curvature;
    curvature.add<2>(f, 1.0);
    curvature.finish(u, v);
    add_in_node_positions(curvature.h, *hessian);
  }
  return beta;
}

double midedge_bending_derivatives(const MidEdgeStencil& s, const MidEdgeTriangle& triangle,
                                   VecN<12>* gradient, MatN<12>* hessian) {
  const bool derivatives = gradient || hessian;
  const Vec3 u = s.x[1] - s.x[0], v = s.x[2] - s.x[0];
  const Vec3 n = u.cross(v);
  std::array<EdgeAngle, 3> d;
  Vec3 dw;
  for (int k = 0; k < 3; ++k) {
    const auto i = static_cast<std::size_t>(k);
    const double beta = edge_angle(n, s.x[(i + 2) % 3] - s.x[(i + 1) % 3],
                                   triangle.edge_sign[k] * s.tau[i], derivatives ? &d[i] : nullptr);
    dw[k] = triangle.coefficient[k] * (triangle.edge_sign[k] * s.xi[k] - beta) -
            triangle.natural_weight[k];
  }
  const Vec3 g_dw = 2.0 * triangle.stiffness * (triangle.metric * dw);  // dE/d(dw)
  const double energy = triangle.stiffness * dw.dot(triangle.metric * dw);
  if (!derivatives) return energy;

  // columns 0-2, jw^T = d(dw)/dq: -c^k dbeta^k/dx on the positions, c^k s^k on xi^k; columns 3-5,
  // l^T: dE/dw^k dh^k/dx (EdgeAngle::h_n, h_e), none on xi
  Eigen::Matrix<double, 12, 6> p_t;
  p_t.bottomRows<3>().setZero();
  const auto columns = [&]<int K>(std::integral_constant<int, K>) {
    const EdgeAngle& f = d[K];
    p_t.col(K).head<9>() = -triangle.coefficient[K] * chain<K>(f.g_n, f.g_e, u, v);
    p_t(9 + K, K) = triangle.coefficient[K] * triangle.edge_sign[K];
    p_t.col(3 + K).head<9>() = g_dw[K] * chain<K>(f.h_n, f.h_e, u, v);
  };
  columns(std::integral_constant<int, 0>{});
  columns(std::integral_constant<int, 1>{});
  columns(std::integral_constant<int, 2>{});
  const auto jw_t = p_t.leftCols<3>();
  if (gradient) *gradient = jw_t * g_dw;
  if (!hessian) return energy;

  // d2E = jw^T (2 k A G) jw + sum_k w_k d2beta^k (positions only), w_k = -c^k dE/dw^k; the (g h^T +
  // h g^T) part of d2beta^k (EdgeAngle), with dbeta^k/dx = -jw_k / c^k on the positions, sums to
  // -(jw^T l + l^T jw) there: p^T q with q^T = (jw^T 2 k A G - l^T, -jw^T without the xi rows),
  // except its (xi, x) block, which is the transpose of (x, xi)
  Eigen::Matrix<double, 12, 6> q_t;
  q_t.leftCols<3>() = jw_t * Mat3(2.0 * triangle.stiffness * triangle.metric) - p_t.rightCols<3>();
  q_t.rightCols<3>() = -jw_t;
  q_t.bottomRightCorner<3, 3>().setZero();
  product_12(p_t, q_t, *hessian);
  hessian->bottomLeftCorner<3, 9>() = hessian->topRightCorner<9, 3>().transpose();
  AngleCurvature curvature;
  const Vec3 w = -g_dw.cwiseProduct(triangle.coefficient);
  curvature.add<0>(d[0], w[0]);
  curvature.add<1>(d[1], w[1]);
  curvature.add<2>(d[2], w[2]);
  curvature.finish(u, v);
  add_in_node_positions(curvature.h, *hessian);
  return energy;
}

void MidEdgeBendingEnergy::declare_sparsity(const Model& model, SparsityBuilder& pattern) const {
  for (const MidEdgeTriangle& t : model.shells.midedge_triangles)
    pattern.add_stencil(stencil_dofs(model, t));
}

void MidEdgeBendingEnergy::accumulate(const EvalInput& in, EnergyOutput& out) const {
  const auto& triangles = in.model.shells.midedge_triangles;
  const bool derivatives = out.gradient || out.hessian;
  for (std::size_t i = 0; i < triangles.size(); ++i) {
    const MidEdgeTriangle& t = triangles[i];
    const std::array<int, 12> dofs = stencil_dofs(in.model, t);
    VecN<12> g;
    MatN<12> h;
    out.energy += midedge_bending_derivatives(gather(in, t, dofs), t, derivatives ? &g : nullptr,
                                              out.hessian ? &h : nullptr);
    if (!derivatives) continue;
    if (out.gradient)
      for (std::size_t k = 0; k < 12; ++k)
        (*out.gradient)[dofs[k]] += g[static_cast<Eigen::Index>(k)];
    if (out.hessian) out.hessian->add_cached_symmetric(this, i, dofs, h);
  }
}

}  // namespace tendril
