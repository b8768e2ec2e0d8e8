#include "tendril/contact/friction/self_friction.hpp"

#include <algorithm>

#include "tendril/contact/friction/smooth_friction.hpp"

namespace tendril::contact {

PairFriction imc_pair_friction(const Vec12& x, const Vec12& u, double radius_sum, const ContactParameters& params,
                               bool with_jacobians) {
  PairFriction out;
  const EdgeEdgeDistance d =
      edge_edge_distance(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9), false);
  const SegmentClosestPoints& cp = d.closest;
  const PenaltyValue b = smooth_penalty(cp.distance - radius_sum, params.distance_tolerance);
  if (b.slope == 0.0 || cp.distance <= 0.0) return out;
  out.active = true;
  const double mu = params.friction, kc = params.stiffness;
  const double normal_force = -kc * b.slope;
  const double c[4] = {1.0 - cp.s, cp.s, -(1.0 - cp.t), -cp.t};
  const Vec3 n = cp.w / cp.distance;
  const Mat3 tangential = Mat3::Identity() - n * n.transpose();

  // relative velocity of the closest points, its tangential part and the friction direction
  Vec3 v_rel = Vec3::Zero();
  for (int k = 0; k < 4; ++k) v_rel += c[k] * u.segment<3>(3 * k);
  const FrictionDirection fd = smooth_friction_direction(tangential * v_rel, params.slip_tolerance);
  for (int k = 0; k < 4; ++k) out.force.segment<3>(3 * k) = -mu * normal_force * c[k] * fd.h;
  if (!with_jacobians) return out;

  // du: F = -mu f J^T h(P J u)
  Eigen::Matrix<double, 3, 12> jac;
  for (int k = 0; k < 4; ++k) jac.block<3, 3>(0, 3 * k) = c[k] * Mat3::Identity();
  const Eigen::Matrix<double, 3, 12> dh_du = fd.dh_dv * tangential * jac;
  for (int k = 0; k < 4; ++k) out.d_du.block<3, 12>(3 * k, 0) = -mu * normal_force * c[k] * dh_du;

  // dx: through f (dDelta/dx), s and t (the weights c_k and J u), and n
  const Vec12& ds = d.ds_dx;
  const Vec12& dt = d.dt_dx;
  const Vec3 d1 = x.segment<3>(3) - x.segment<3>(0), d2 = x.segment<3>(9) - x.segment<3>(6);
  // dw/dx = J + d1 ds^T - d2 dt^T, dn/dx = (I - n n^T) dw/dx / Delta
  Eigen::Matrix<double, 3, 12> dw = jac + d1 * ds.transpose() - d2 * dt.transpose();
  const Eigen::Matrix<double, 3, 12> dn = tangential * dw / cp.distance;
  // d(J u)/dx = (u_a1 - u_a0) ds^T + (u_b0 - u_b1) dt^T
  const Eigen::Matrix<double, 3, 12> dvrel =
      (u.segment<3>(3) - u.segment<3>(0)) * ds.transpose() + (u.segment<3>(6) - u.segment<3>(9)) * dt.transpose();
  // v = P v_rel: dv = P dv_rel - (n . v_rel) dn - n (v_rel^T dn)
  const Eigen::Matrix<double, 3, 12> dv = tangential * dvrel - n.dot(v_rel) * dn - n * (v_rel.transpose() * dn);
  const Eigen::Matrix<double, 3, 12> dh_dx = fd.dh_dv * dv;
  // f = -k_c b'(g): df/dx = -k_c b'' dDelta/dx, dDelta/dx = J^T n
  Vec12 grad_delta;
  for (int k = 0; k < 4; ++k) grad_delta.segment<3>(3 * k) = c[k] * n;
  const Vec12 df = -kc * b.curvature * grad_delta;
  // dc_k/dx: c = [1 - s, s, -(1 - t), -t]
  const Vec12 dc[4] = {-ds, ds, dt, -dt};
  for (int k = 0; k < 4; ++k)
    out.d_dx.block<3, 12>(3 * k, 0) =
        -mu * (c[k] * fd.h * df.transpose() + normal_force * fd.h * dc[k].transpose() + normal_force * c[k] * dh_dx);
  return out;
}

SelfFriction::SelfFriction(ContactEdges edges, const ContactParameters& params, const VecX& q_initial)
    : contact_(std::move(edges), params, q_initial), params_(params) {}

void SelfFriction::declare_sparsity(const Model& model, SparsityBuilder& pattern) const {
  contact_.declare_sparsity(model, pattern);
}

void SelfFriction::accumulate(const EvalInput& in, ForceOutput& out) const {
  if (params_.friction == 0.0) return;
  const PairFinder& finder = contact_.pairs();
  finder.find(in.q, pairs_);
  for (const EdgePair& pair : pairs_) {
    const double radius_sum = finder.edges().radius[pair.a] + finder.edges().radius[pair.b];
    const PairFriction f =
        imc_pair_friction(finder.stencil(in.q, pair), finder.stencil(in.u, pair), radius_sum, params_, out.jacobian);
    const std::array<int, 12> dofs = finder.stencil_dofs(pair);
    if (out.force)
      for (int k = 0; k < 12; ++k) (*out.force)[dofs[k]] += f.force[k];
    if (out.jacobian && f.active &&
        std::binary_search(contact_.candidates().begin(), contact_.candidates().end(), pair))
      out.jacobian->add(dofs, out.dq_scale * f.d_dx + out.du_scale * f.d_du);
  }
}

}  // namespace tendril::contact
