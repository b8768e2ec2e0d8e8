#include "tendril/shell/midedge_bending.hpp"

#include "tendril/geometry/kinematics.hpp"
#include "tendril/geometry/triangle_normal.hpp"

namespace tendril {
namespace {

std::array<int, 12> stencil_dofs(const Model& model, const MidEdgeTriangle& t) {
  const auto& nodes = model.shells.triangles[static_cast<std::size_t>(t.triangle)];
  std::array<int, 12> out{};
  for (std::size_t k = 0; k < 3; ++k) {
    for (int d = 0; d < 3; ++d)
      out[3 * k + static_cast<std::size_t>(d)] = model.dofs.node(nodes[k]) + d;
    out[9 + k] = model.dofs.xi(t.xi[k]);
  }
  return out;
}

MidEdgeStencil gather(const EvalInput& in, const MidEdgeTriangle& t) {
  const auto& nodes = in.model.shells.triangles[static_cast<std::size_t>(t.triangle)];
  MidEdgeStencil s;
  for (std::size_t k = 0; k < 3; ++k) {
    s.x[k] = in.q.segment<3>(in.model.dofs.node(nodes[k]));
    s.xi[static_cast<Eigen::Index>(k)] = in.q[in.model.dofs.xi(t.xi[k])];
    s.tau[k] = in.kin.shell_edge_tau_accepted[static_cast<std::size_t>(t.xi[k])];
  }
  return s;
}

}  // namespace

double midedge_bending_derivatives(const MidEdgeStencil& s, const MidEdgeTriangle& triangle,
                                   VecN<12>* gradient, MatN<12>* hessian) {
  // f^k = n_hat . tau_k with the edge frame oriented as the triangle runs the edge
  const Vec3 n = triangle_normal(s.x[0], s.x[1], s.x[2]);
  const Vec3 n_hat = n.normalized();
  std::array<Vec3, 3> tau;
  Vec3 dw;
  for (int k = 0; k < 3; ++k) {
    tau[static_cast<std::size_t>(k)] = triangle.edge_sign[k] * s.tau[static_cast<std::size_t>(k)];
    const double f = n_hat.dot(tau[static_cast<std::size_t>(k)]);
    dw[k] = triangle.coefficient[k] * (triangle.edge_sign[k] * s.xi[k] - f) -
            triangle.natural_weight[k];
  }
  const Vec3 g_dw = 2.0 * triangle.stiffness * (triangle.metric * dw);  // dE/d(dw)
  const double energy = triangle.stiffness * dw.dot(triangle.metric * dw);
  if (!gradient && !hessian) return energy;

  // d(dw^k)/dq: -c^k df^k/dx on the positions, c^k s^k on xi^k
  const Mat39 jn = triangle_normal_jacobian(s.x[0], s.x[1], s.x[2]);
  Eigen::Matrix<double, 3, 12> jw = Eigen::Matrix<double, 3, 12>::Zero();
  for (int k = 0; k < 3; ++k) {
    const Vec3 df_dn = unit_projection_gradient(n, tau[static_cast<std::size_t>(k)]);
    jw.block<1, 9>(k, 0) = -triangle.coefficient[k] * (jn.transpose() * df_dn).transpose();
    jw(k, 9 + k) = triangle.coefficient[k] * triangle.edge_sign[k];
  }
  if (gradient) *gradient = jw.transpose() * g_dw;
  if (!hessian) return energy;

  // d2E = jw^T (2 k A G) jw + sum_k g_dw^k d2(dw^k), d2(dw^k) = -c^k d2f^k / dx2 (positions only),
  // d2f^k/dx2 = jn^T d2f/dn2 jn + sum_m df/dn_m d2n_m/dx2
  Vec3 beta;  // weights of d2f^k
  for (int k = 0; k < 3; ++k) beta[k] = -g_dw[k] * triangle.coefficient[k];
  Mat3 h_n = Mat3::Zero();
  Vec3 lambda = Vec3::Zero();
  for (int k = 0; k < 3; ++k) {
    h_n += beta[k] * unit_projection_hessian(n, tau[static_cast<std::size_t>(k)]);
    lambda += beta[k] * unit_projection_gradient(n, tau[static_cast<std::size_t>(k)]);
  }
  // lazyProduct: coefficient-wise loops instead of the general matrix product Eigen picks for these
  // sizes
  const Eigen::Matrix<double, 12, 3> jw_g =
      2.0 * triangle.stiffness * jw.transpose() * triangle.metric;
  *hessian = jw_g.lazyProduct(jw);
  const Eigen::Matrix<double, 9, 3> jn_h = jn.transpose() * h_n;
  hessian->topLeftCorner<9, 9>() += jn_h.lazyProduct(jn) + triangle_normal_weighted_hessian(lambda);
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
    VecN<12> g;
    MatN<12> h;
    out.energy += midedge_bending_derivatives(gather(in, t), t, derivatives ? &g : nullptr,
                                              out.hessian ? &h : nullptr);
    if (!derivatives) continue;
    const std::array<int, 12> dofs = stencil_dofs(in.model, t);
    if (out.gradient)
      for (std::size_t k = 0; k < 12; ++k)
        (*out.gradient)[dofs[k]] += g[static_cast<Eigen::Index>(k)];
    if (out.hessian) out.hessian->add_cached_symmetric(this, i, dofs, h);
  }
}

}  // namespace tendril
