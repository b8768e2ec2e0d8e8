#include "tendril/shell/midedge_bending.hpp"

#include <cmath>

#include "tendril/geometry/kinematics.hpp"
#include "tendril/geometry/triangle_normal.hpp"

namespace tendril {
namespace {

/// Where edge k's nodes sit among the triangle's: the triangle runs the edge from node a = k + 1 to
/// node b = k + 2 (mod 3).
std::array<int, 2> edge_slots(int k) {
  return {3 * ((k + 1) % 3), 3 * ((k + 2) % 3)};
}

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

/// beta of one edge and its derivatives with respect to the triangle's area vector n and the edge
/// e = x_b - x_a (midedge_frame_angle).
struct EdgeAngle {
  double beta = 0.0;
  Vec3 g_n, g_e;          ///< dbeta/dn, dbeta/de
  Mat3 h_nn, h_ne, h_ee;  ///< d2beta/dn2, d2beta/dn de, d2beta/de2
};

EdgeAngle edge_angle(const Vec3& n, const Vec3& e, const Vec3& tau, bool gradient, bool hessian) {
  // the hinge angle atan2((n x n_B) . e_hat, n . n_B) with n_B along e x tau (the frame's
  // half-plane): beta = atan2(Y, X), Y = |e| n . tau, X = n . (e x tau)
  const double r = e.norm(), nt = n.dot(tau);
  const Vec3 m = e.cross(tau);
  const double y = r * nt, x = n.dot(m);
  EdgeAngle out;
  out.beta = x > 0.0 ? std::atan(y / x) : std::atan2(y, x);  // atan: half atan2's work
  if (!gradient) return out;
  const Vec3 e_hat = e / r;
  Eigen::Matrix<double, 6, 2> u;  // (dX, dY) with respect to (n, e)
  u.block<3, 1>(0, 0) = m;
  u.block<3, 1>(3, 0) = tau.cross(n);
  u.block<3, 1>(0, 1) = r * tau;
  u.block<3, 1>(3, 1) = nt * e_hat;
  const double rho = x * x + y * y;
  const VecN<6> g = (x * u.col(1) - y * u.col(0)) / rho;
  out.g_n = g.head<3>();
  out.g_e = g.tail<3>();
  if (!hessian) return out;
  // d2beta = (X d2Y - Y d2X) / rho + U C U^T, C = [2XY, Y^2 - X^2; Y^2 - X^2, -2XY] / rho^2; d2X:
  // (n, e) block -[tau]_x; d2Y: (n, e) block tau e_hat^T, (e, e) block n.tau (I - e_hat e_hat^T) /
  // |e|
  Eigen::Matrix2d c;
  c << 2.0 * x * y, y * y - x * x, y * y - x * x, -2.0 * x * y;
  const Eigen::Matrix<double, 6, 2> uc = u * (c / (rho * rho));
  const Eigen::Matrix<double, 2, 6> u_t = u.transpose();
  out.h_nn = uc.topRows<3>().lazyProduct(u_t.leftCols<3>());
  out.h_ne = uc.topRows<3>().lazyProduct(u_t.rightCols<3>()) +
             (x * tau * e_hat.transpose() + y * cross_matrix(tau)) / rho;
  out.h_ee = uc.bottomRows<3>().lazyProduct(u_t.rightCols<3>()) +
             x * nt / (r * rho) * (Mat3::Identity() - e_hat * e_hat.transpose());
  return out;
}

/// The angles' second derivatives weighted by w, added to the positions' block of `out` (its first
/// 9 rows and columns): the (n, n) and (n, e) terms go through the triangle's normal Jacobian once
/// for all edges (finish()), sum_m lambda_m d2n_m with lambda = sum w dbeta/dn too.
template <int N>
struct AngleHessian {
  MatN<N>& out;
  Mat3 h_nn = Mat3::Zero();
  Eigen::Matrix<double, 3, 9> h_nx = Eigen::Matrix<double, 3, 9>::Zero();  ///< sum w h_ne E
  Vec3 lambda = Vec3::Zero();

  /// Edge from slot A to slot B (offsets 0, 3 or 6): E = dx_B - dx_A.
  template <int A, int B>
  void add(const EdgeAngle& f, double w) {
    h_nn += w * f.h_nn;
    lambda += w * f.g_n;
    const Mat3 ne = w * f.h_ne;
    h_nx.template middleCols<3>(B) += ne;
    h_nx.template middleCols<3>(A) -= ne;
    const Mat3 ee = w * f.h_ee;
    out.template block<3, 3>(A, A) += ee;
    out.template block<3, 3>(B, B) += ee;
    out.template block<3, 3>(A, B) -= ee;
    out.template block<3, 3>(B, A) -= ee;
  }
  /// J_n^T h_nn J_n + J_n^T h_nx + h_nx^T J_n + sum_m lambda_m d2n_m = M + M^T, M = J_n^T (h_nn J_n
  /// / 2 + h_nx) + K.
  void finish(const Mat39& jn) {
    const Eigen::Matrix<double, 3, 9> half = 0.5 * h_nn * jn + h_nx;
    const Eigen::Matrix<double, 9, 3> jn_t = jn.transpose();
    MatN<9> m = jn_t.lazyProduct(half);
    // sum_m lambda_m d2n_m = K + K^T: lambda . (e_1 x e_2) = e_1^T B e_2, B = -[lambda]_x, e_1 =
    // x_1 - x_0, e_2 = x_2 - x_0, so K = [B 0 -B; -B 0 B; 0 0 0]
    const Mat3 b = -cross_matrix(lambda);
    m.template block<3, 3>(0, 0) += b;
    m.template block<3, 3>(0, 6) -= b;
    m.template block<3, 3>(3, 0) -= b;
    m.template block<3, 3>(3, 6) += b;
    out.template topLeftCorner<9, 9>() += m + m.transpose();
  }
};

/// dbeta/d(x_0, x_1, x_2) of the edge from slot a to slot b.
VecN<9> angle_gradient(const EdgeAngle& f, const Mat39& jn, int a, int b) {
  VecN<9> g = jn.transpose() * f.g_n;
  g.segment<3>(a) -= f.g_e;
  g.segment<3>(b) += f.g_e;
  return g;
}

}  // namespace

double midedge_frame_angle(const Vec3& x_a, const Vec3& x_b, const Vec3& x_k, const Vec3& tau,
                           VecN<9>* gradient, MatN<9>* hessian) {
  const EdgeAngle f =
      edge_angle(triangle_normal(x_a, x_b, x_k), x_b - x_a, tau, gradient || hessian, hessian);
  if (!gradient && !hessian) return f.beta;
  const Mat39 jn = triangle_normal_jacobian(x_a, x_b, x_k);
  if (gradient) *gradient = angle_gradient(f, jn, 0, 3);
  if (hessian) {
    hessian->setZero();
    AngleHessian<9> h{*hessian};
    h.add<0, 3>(f, 1.0);
    h.finish(jn);
  }
  return f.beta;
}

double midedge_bending_derivatives(const MidEdgeStencil& s, const MidEdgeTriangle& triangle,
                                   VecN<12>* gradient, MatN<12>* hessian) {
  // n of (x_a, x_b, x_k) is the triangle's n: (a, b, k) is a cyclic permutation of (0, 1, 2)
  const bool derivatives = gradient || hessian;
  const Vec3 n = triangle_normal(s.x[0], s.x[1], s.x[2]);
  std::array<EdgeAngle, 3> beta;
  Vec3 dw;
  for (int k = 0; k < 3; ++k) {
    const auto i = static_cast<std::size_t>(k);
    beta[i] = edge_angle(n, s.x[(i + 2) % 3] - s.x[(i + 1) % 3], triangle.edge_sign[k] * s.tau[i],
                         derivatives, hessian);
    dw[k] = triangle.coefficient[k] * (triangle.edge_sign[k] * s.xi[k] - beta[i].beta) -
            triangle.natural_weight[k];
  }
  const Vec3 g_dw = 2.0 * triangle.stiffness * (triangle.metric * dw);  // dE/d(dw)
  const double energy = triangle.stiffness * dw.dot(triangle.metric * dw);
  if (!derivatives) return energy;

  // d(dw^k)/dq: -c^k dbeta^k/dx on the positions, c^k s^k on xi^k
  const Mat39 jn = triangle_normal_jacobian(s.x[0], s.x[1], s.x[2]);
  Mat3 g_n;  // row k: -c^k dbeta^k/dn
  for (int k = 0; k < 3; ++k)
    g_n.row(k) = -triangle.coefficient[k] * beta[static_cast<std::size_t>(k)].g_n.transpose();
  Eigen::Matrix<double, 3, 12> jw;
  jw.leftCols<9>() = g_n * jn;
  jw.rightCols<3>() = triangle.coefficient.cwiseProduct(triangle.edge_sign).asDiagonal();
  for (int k = 0; k < 3; ++k) {
    const std::array<int, 2> slots = edge_slots(k);
    const Vec3 g_e = triangle.coefficient[k] * beta[static_cast<std::size_t>(k)].g_e;
    jw.block<1, 3>(k, slots[0]) += g_e.transpose();
    jw.block<1, 3>(k, slots[1]) -= g_e.transpose();
  }
  if (gradient) *gradient = jw.transpose() * g_dw;
  if (!hessian) return energy;

  // d2E = jw^T (2 k A G) jw + sum_k (dE/dw^k) (-c^k) d2beta^k / dx2 (positions only)
  const Eigen::Matrix<double, 12, 3> jw_t = jw.transpose();
  const Eigen::Matrix<double, 12, 3> jw_g =
      jw_t.lazyProduct(Mat3(2.0 * triangle.stiffness * triangle.metric));
  *hessian = jw_g.lazyProduct(jw);
  AngleHessian<12> angles{*hessian};
  // the slots of edge k's nodes (edge_slots)
  const Vec3 w = -g_dw.cwiseProduct(triangle.coefficient);
  angles.add<3, 6>(beta[0], w[0]);
  angles.add<6, 0>(beta[1], w[1]);
  angles.add<0, 3>(beta[2], w[2]);
  angles.finish(jn);
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
