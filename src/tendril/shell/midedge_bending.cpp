#include "tendril/shell/midedge_bending.hpp"

#include "tendril/geometry/dihedral_angle.hpp"
#include "tendril/geometry/kinematics.hpp"

namespace tendril {
namespace {

/// Where edge k's (x_a, x_b, x_k) sit among the triangle's nodes: the triangle runs the edge from
/// node a = k + 1 to node b = k + 2 (mod 3).
std::array<int, 3> edge_slots(int k) {
  return {3 * ((k + 1) % 3), 3 * ((k + 2) % 3), 3 * k};
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

}  // namespace

double midedge_frame_angle(const Vec3& x_a, const Vec3& x_b, const Vec3& x_k, const Vec3& tau,
                           VecN<9>* gradient, MatN<9>* hessian) {
  // the frame's half-plane as the hinge's far node p = (x_a + x_b) / 2 - |e| tau: the angle depends
  // on p only through its direction normal to the edge, so |e| enters as a constant, and
  // dp/dx_a = dp/dx_b = I / 2
  const Vec3 p = 0.5 * (x_a + x_b) - (x_b - x_a).norm() * tau;
  if (!gradient) return dihedral_angle(x_a, x_b, x_k, p);
  VecN<12> g;
  MatN<12> h;
  const double beta = dihedral_angle_derivatives(x_a, x_b, x_k, p, &g, hessian ? &h : nullptr);
  gradient->segment<3>(0) = g.segment<3>(0) + 0.5 * g.segment<3>(9);
  gradient->segment<3>(3) = g.segment<3>(3) + 0.5 * g.segment<3>(9);
  gradient->segment<3>(6) = g.segment<3>(6);
  if (!hessian) return beta;
  // J^T h J with J = [I 0 0; 0 I 0; 0 0 I; I/2 I/2 0]: the p rows and columns folded onto a and b
  Eigen::Matrix<double, 9, 12> rows;
  rows.topRows<3>() = h.middleRows<3>(0) + 0.5 * h.middleRows<3>(9);
  rows.middleRows<3>(3) = h.middleRows<3>(3) + 0.5 * h.middleRows<3>(9);
  rows.bottomRows<3>() = h.middleRows<3>(6);
  hessian->leftCols<3>() = rows.middleCols<3>(0) + 0.5 * rows.middleCols<3>(9);
  hessian->middleCols<3>(3) = rows.middleCols<3>(3) + 0.5 * rows.middleCols<3>(9);
  hessian->rightCols<3>() = rows.middleCols<3>(6);
  return beta;
}

double midedge_bending_derivatives(const MidEdgeStencil& s, const MidEdgeTriangle& triangle,
                                   VecN<12>* gradient, MatN<12>* hessian) {
  const bool derivatives = gradient || hessian;
  std::array<VecN<9>, 3> beta_gradient;
  std::array<MatN<9>, 3> beta_hessian;
  Vec3 dw;
  for (int k = 0; k < 3; ++k) {
    const auto i = static_cast<std::size_t>(k);
    const double beta = midedge_frame_angle(
        s.x[(i + 1) % 3], s.x[(i + 2) % 3], s.x[i], triangle.edge_sign[k] * s.tau[i],
        derivatives ? &beta_gradient[i] : nullptr, hessian ? &beta_hessian[i] : nullptr);
    dw[k] = triangle.coefficient[k] * (triangle.edge_sign[k] * s.xi[k] - beta) -
            triangle.natural_weight[k];
  }
  const Vec3 g_dw = 2.0 * triangle.stiffness * (triangle.metric * dw);  // dE/d(dw)
  const double energy = triangle.stiffness * dw.dot(triangle.metric * dw);
  if (!derivatives) return energy;

  // d(dw^k)/dq: -c^k dbeta^k/dx on the positions, c^k s^k on xi^k
  Eigen::Matrix<double, 3, 12> jw = Eigen::Matrix<double, 3, 12>::Zero();
  for (int k = 0; k < 3; ++k) {
    const auto i = static_cast<std::size_t>(k);
    const double c = triangle.coefficient[k];
    const std::array<int, 3> slots = edge_slots(k);
    for (std::size_t m = 0; m < 3; ++m)
      jw.block<1, 3>(k, slots[m]) =
          -c * beta_gradient[i].segment<3>(3 * static_cast<int>(m)).transpose();
    jw(k, 9 + k) = c * triangle.edge_sign[k];
  }
  if (gradient) *gradient = jw.transpose() * g_dw;
  if (!hessian) return energy;

  // d2E = jw^T (2 k A G) jw + sum_k (dE/dw^k) (-c^k) d2beta^k / dx2 (positions only)
  const Eigen::Matrix<double, 12, 3> jw_g =
      2.0 * triangle.stiffness * jw.transpose() * triangle.metric;
  *hessian = jw_g.lazyProduct(jw);
  for (int k = 0; k < 3; ++k) {
    const auto i = static_cast<std::size_t>(k);
    const double weight = -g_dw[k] * triangle.coefficient[k];
    const std::array<int, 3> slots = edge_slots(k);
    for (std::size_t a = 0; a < 3; ++a)
      for (std::size_t b = 0; b < 3; ++b)
        hessian->block<3, 3>(slots[a], slots[b]) +=
            weight * beta_hessian[i].block<3, 3>(3 * static_cast<int>(a), 3 * static_cast<int>(b));
  }
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
