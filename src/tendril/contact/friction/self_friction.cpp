#include "tendril/contact/friction/self_friction.hpp"

#include <algorithm>

#include "tendril/contact/friction/smooth_friction.hpp"

namespace tendril::contact {

PairFriction imc_friction(const Vec12& x, const Vec12& u, const std::array<double, 4>& c,
                          const std::array<Vec12, 4>& dc, const Vec3& w, double distance,
                          double radius_sum, const ContactParameters& params, bool with_jacobians) {
  PairFriction out;
  const PenaltyValue b = smooth_penalty(distance - radius_sum, params.distance_tolerance);
  if (b.slope == 0.0 || distance <= 0.0) return out;
  out.active = true;
  const double mu = params.friction, kc = params.stiffness;
  const double normal_force = -kc * b.slope;
  const Vec3 n = w / distance;
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

  // dx: through f (dDelta/dx), the weights c_k (the closest points) and n
  // dw/dx = J + sum_k x_k dc_k^T, dn/dx = (I - n n^T) dw/dx / Delta, d(J u)/dx = sum_k u_k dc_k^T
  Eigen::Matrix<double, 3, 12> dw = jac;
  Eigen::Matrix<double, 3, 12> dvrel = Eigen::Matrix<double, 3, 12>::Zero();
  for (int k = 0; k < 4; ++k) {
    dw += x.segment<3>(3 * k) * dc[k].transpose();
    dvrel += u.segment<3>(3 * k) * dc[k].transpose();
  }
  const Eigen::Matrix<double, 3, 12> dn = tangential * dw / distance;
  // v = P v_rel: dv = P dv_rel - (n . v_rel) dn - n (v_rel^T dn)
  const Eigen::Matrix<double, 3, 12> dv =
      tangential * dvrel - n.dot(v_rel) * dn - n * (v_rel.transpose() * dn);
  const Eigen::Matrix<double, 3, 12> dh_dx = fd.dh_dv * dv;
  // f = -k_c b'(g): df/dx = -k_c b'' dDelta/dx, dDelta/dx = J^T n
  Vec12 grad_delta;
  for (int k = 0; k < 4; ++k) grad_delta.segment<3>(3 * k) = c[k] * n;
  const Vec12 df = -kc * b.curvature * grad_delta;
  for (int k = 0; k < 4; ++k)
    out.d_dx.block<3, 12>(3 * k, 0) =
        -mu * (c[k] * fd.h * df.transpose() + normal_force * fd.h * dc[k].transpose() +
               normal_force * c[k] * dh_dx);
  return out;
}

PairFriction imc_pair_friction(const Vec12& x, const Vec12& u, double radius_sum,
                               const ContactParameters& params, bool with_jacobians) {
  const EdgeEdgeDistance d =
      edge_edge_distance(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9), false);
  const SegmentClosestPoints& cp = d.closest;
  // c = [1 - s, s, -(1 - t), -t]
  const std::array<double, 4> c = {1.0 - cp.s, cp.s, -(1.0 - cp.t), -cp.t};
  const std::array<Vec12, 4> dc = {-d.ds_dx, d.ds_dx, d.dt_dx, -d.dt_dx};
  return imc_friction(x, u, c, dc, cp.w, cp.distance, radius_sum, params, with_jacobians);
}

}  // namespace tendril::contact
