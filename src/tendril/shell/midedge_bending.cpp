#include "tendril/shell/midedge_bending.hpp"

#include <cmath>

#include "tendril/geometry/dihedral_angle.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/geometry/triangle_normal.hpp"

namespace tendril {
namespace {

/// Where the nodes of edge k's hinge (x_a, x_b, x_k, p^k) sit in the 21-entry stencil: the
/// triangle runs the edge from node a = k + 1 to node b = k + 2 (mod 3), its neighbour back, so
/// that (x_a, x_b, x_k, p^k) is dihedral_angle's (x_0, x_1, x_2, x_3).
std::array<int, 4> hinge_slots(int k) {
  return {3 * ((k + 1) % 3), 3 * ((k + 2) % 3), 3 * k, 9 + 3 * k};
}

/// How one triangle reads q: its stencil DOFs (-1 for p^k of an edge that is not across) and the
/// frame of each edge.
struct TriangleLayout {
  std::array<int, 21> dofs{};
  std::array<int, 3> opposite{};  ///< node p^k (-1 unless across)
  std::array<EdgeFrame, 3> frame{};
};

TriangleLayout layout(const Model& model, const MidEdgeTriangle& t) {
  const ShellMesh& shells = model.shells;
  const auto& nodes = shells.triangles[static_cast<std::size_t>(t.triangle)];
  TriangleLayout out;
  for (std::size_t k = 0; k < 3; ++k) {
    const int xi = model.dofs.xi(t.xi[k]);
    const auto edge = static_cast<std::size_t>(shells.xi_edge[static_cast<std::size_t>(t.xi[k])]);
    const auto& pair = shells.edge_triangles[edge];
    const int other = pair[0] == t.triangle ? pair[1] : pair[0];
    out.opposite[k] = -1;
    // a fixed xi holds the edge's mid-edge normal: its frame stays the one from t = 0
    if (model.fixed[static_cast<std::size_t>(xi)]) {
      out.frame[k] = EdgeFrame::held;
    } else if (other < 0) {
      out.frame[k] = EdgeFrame::boundary;
    } else {
      out.frame[k] = EdgeFrame::across;
      for (int node : shells.triangles[static_cast<std::size_t>(other)])
        if (node != shells.edges[edge][0] && node != shells.edges[edge][1]) out.opposite[k] = node;
    }
    for (int d = 0; d < 3; ++d) {
      out.dofs[3 * k + static_cast<std::size_t>(d)] = model.dofs.node(nodes[k]) + d;
      out.dofs[9 + 3 * k + static_cast<std::size_t>(d)] =
          out.opposite[k] < 0 ? -1 : model.dofs.node(out.opposite[k]) + d;
    }
    out.dofs[18 + k] = xi;
  }
  return out;
}

MidEdgeStencil gather(const EvalInput& in, const MidEdgeTriangle& t, const TriangleLayout& l) {
  MidEdgeStencil s;
  for (std::size_t k = 0; k < 3; ++k) {
    s.x[k] = in.q.segment<3>(l.dofs[3 * k]);
    s.opposite[k] = l.opposite[k] < 0 ? Vec3::Zero() : Vec3(in.q.segment<3>(l.dofs[9 + 3 * k]));
    s.xi[static_cast<Eigen::Index>(k)] = in.q[l.dofs[18 + k]];
    s.tau[k] = in.kin.shell_edge_tau_accepted[static_cast<std::size_t>(t.xi[k])];
    s.frame[k] = l.frame[k];
  }
  return s;
}

/// The dihedral angle of edge k's hinge and, when requested, its derivatives.
double edge_angle(const MidEdgeStencil& s, int k, VecN<12>* gradient, MatN<12>* hessian) {
  const auto i = static_cast<std::size_t>(k);
  return dihedral_angle_derivatives(s.x[(i + 1) % 3], s.x[(i + 2) % 3], s.x[i], s.opposite[i],
                                    gradient, hessian);
}

}  // namespace

double midedge_bending_derivatives(const MidEdgeStencil& s, const MidEdgeTriangle& triangle,
                                   VecN<21>* gradient, MatN<21>* hessian) {
  // f^k: n_hat . tau^k with a held frame oriented as the triangle runs the edge; across an edge
  // with the bisector frame, n_hat . (n_avg x e_hat) = sin(phi / 2) (docs/physics/shells.md)
  const Vec3 n = triangle_normal(s.x[0], s.x[1], s.x[2]);
  const Vec3 n_hat = n.normalized();
  const bool derivatives = gradient || hessian;
  std::array<Vec3, 3> tau;
  std::array<double, 3> phi{};
  std::array<VecN<12>, 3> phi_gradient;
  std::array<MatN<12>, 3> phi_hessian;
  Vec3 dw;
  for (int k = 0; k < 3; ++k) {
    const auto i = static_cast<std::size_t>(k);
    double f = 0.0;
    if (s.frame[i] == EdgeFrame::held) {
      tau[i] = triangle.edge_sign[k] * s.tau[i];
      f = n_hat.dot(tau[i]);
    } else if (s.frame[i] == EdgeFrame::across) {
      phi[i] = edge_angle(s, k, derivatives ? &phi_gradient[i] : nullptr,
                          hessian ? &phi_hessian[i] : nullptr);
      f = std::sin(0.5 * phi[i]);
    }
    dw[k] = triangle.coefficient[k] * (triangle.edge_sign[k] * s.xi[k] - f) -
            triangle.natural_weight[k];
  }
  const Vec3 g_dw = 2.0 * triangle.stiffness * (triangle.metric * dw);  // dE/d(dw)
  const double energy = triangle.stiffness * dw.dot(triangle.metric * dw);
  if (!derivatives) return energy;

  // d(dw^k)/dq: -c^k df^k/dx on the positions, c^k s^k on xi^k
  const Mat39 jn = triangle_normal_jacobian(s.x[0], s.x[1], s.x[2]);
  Eigen::Matrix<double, 3, 21> jw = Eigen::Matrix<double, 3, 21>::Zero();
  for (int k = 0; k < 3; ++k) {
    const auto i = static_cast<std::size_t>(k);
    const double c = triangle.coefficient[k];
    if (s.frame[i] == EdgeFrame::held) {
      const Vec3 df_dn = unit_projection_gradient(n, tau[i]);
      jw.block<1, 9>(k, 0) = -c * (jn.transpose() * df_dn).transpose();
    } else if (s.frame[i] == EdgeFrame::across) {
      // df = cos(phi / 2) / 2 dphi
      const double scale = -c * 0.5 * std::cos(0.5 * phi[i]);
      const std::array<int, 4> slots = hinge_slots(k);
      for (int m = 0; m < 4; ++m)
        jw.block<1, 3>(k, slots[static_cast<std::size_t>(m)]) +=
            scale * phi_gradient[i].segment<3>(3 * m).transpose();
    }
    jw(k, 18 + k) = c * triangle.edge_sign[k];
  }
  if (gradient) *gradient = jw.transpose() * g_dw;
  if (!hessian) return energy;

  // d2E = jw^T (2 k A G) jw + sum_k g_dw^k d2(dw^k), d2(dw^k) = -c^k d2f^k / dx2 (positions only)
  const Eigen::Matrix<double, 21, 3> jw_g =
      2.0 * triangle.stiffness * jw.transpose() * triangle.metric;
  *hessian = jw_g.lazyProduct(jw);
  // held frames: d2f^k/dx2 = jn^T d2f/dn2 jn + sum_m df/dn_m d2n_m/dx2
  Mat3 h_n = Mat3::Zero();
  Vec3 lambda = Vec3::Zero();
  bool held = false;
  for (int k = 0; k < 3; ++k) {
    const auto i = static_cast<std::size_t>(k);
    const double beta = -g_dw[k] * triangle.coefficient[k];
    if (s.frame[i] == EdgeFrame::held) {
      held = true;
      h_n += beta * unit_projection_hessian(n, tau[i]);
      lambda += beta * unit_projection_gradient(n, tau[i]);
    } else if (s.frame[i] == EdgeFrame::across) {
      // d2f = cos(phi / 2) / 2 d2phi - sin(phi / 2) / 4 dphi dphi^T
      const MatN<12> d2f =
          0.5 * std::cos(0.5 * phi[i]) * phi_hessian[i] -
          0.25 * std::sin(0.5 * phi[i]) * phi_gradient[i] * phi_gradient[i].transpose();
      const std::array<int, 4> slots = hinge_slots(k);
      for (std::size_t a = 0; a < 4; ++a)
        for (std::size_t b = 0; b < 4; ++b)
          hessian->block<3, 3>(slots[a], slots[b]) +=
              beta * d2f.block<3, 3>(3 * static_cast<int>(a), 3 * static_cast<int>(b));
    }
  }
  if (held) {
    const Eigen::Matrix<double, 9, 3> jn_h = jn.transpose() * h_n;
    hessian->topLeftCorner<9, 9>() +=
        jn_h.lazyProduct(jn) + triangle_normal_weighted_hessian(lambda);
  }
  return energy;
}

void MidEdgeBendingEnergy::declare_sparsity(const Model& model, SparsityBuilder& pattern) const {
  for (const MidEdgeTriangle& t : model.shells.midedge_triangles)
    pattern.add_stencil(layout(model, t).dofs);
}

void MidEdgeBendingEnergy::accumulate(const EvalInput& in, EnergyOutput& out) const {
  const auto& triangles = in.model.shells.midedge_triangles;
  const bool derivatives = out.gradient || out.hessian;
  for (std::size_t i = 0; i < triangles.size(); ++i) {
    const MidEdgeTriangle& t = triangles[i];
    const TriangleLayout l = layout(in.model, t);
    VecN<21> g;
    MatN<21> h;
    out.energy += midedge_bending_derivatives(gather(in, t, l), t, derivatives ? &g : nullptr,
                                              out.hessian ? &h : nullptr);
    if (!derivatives) continue;
    if (out.gradient)
      for (std::size_t k = 0; k < 21; ++k)
        if (l.dofs[k] >= 0) (*out.gradient)[l.dofs[k]] += g[static_cast<Eigen::Index>(k)];
    if (out.hessian) out.hessian->add_cached_symmetric(this, i, l.dofs, h);
  }
}

}  // namespace tendril
